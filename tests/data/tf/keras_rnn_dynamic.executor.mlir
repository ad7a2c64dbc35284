module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_299(%arg0: tensor<?x?x3xf32>) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.TensorListReserve"(%outputs_2, %outputs_4) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<4xf32>}> {device = ""} : () -> tensor<4xf32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%outputs_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<4xf32>) -> tensor<*xf32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.174952269, 0.711369872, 0.148049831, -0.465866983], [0.2994802, 0.0395005345, -0.075307846, 0.389077425], [0.842757105, 0.756976366, 0.405944467, 0.659438133]]> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Identity"(%outputs_12) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x4xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.444463491, -0.211149186, 0.514863729, 0.701985478], [-0.0399417691, -0.86478281, -0.48562327, 0.121347651], [0.309477478, -0.400019735, 0.513710678, -0.693043351], [0.839690744, 0.218061551, -0.484960318, -0.110372454]]> : tensor<4x4xf32>}> {device = ""} : () -> tensor<4x4xf32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Identity"(%outputs_16) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x4xf32>) -> tensor<*xf32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x3xf32>) -> tensor<*xi32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.StridedSlice"(%outputs_48, %outputs_20, %outputs_22, %outputs_24) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Pack"(%outputs_50, %outputs_46) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Fill"(%outputs_52, %outputs_44) {device = ""} : (tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_40) {device = ""} : (tensor<?x?x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Shape"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xi32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.StridedSlice"(%outputs_58, %outputs_26, %outputs_28, %outputs_30) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.TensorListFromTensor"(%outputs_56, %outputs) {device = ""} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*x!tf_type.variant>
      %outputs_64:10, %control_65 = tf_executor.island wraps "tf.While"(%outputs_42, %outputs_60, %outputs_38, %outputs_6, %outputs_54, %outputs_60, %outputs_62, %outputs_12, %outputs_8, %outputs_16) <{body = @sequential_1_simple_rnn_1_while_body_frozen_1800, cond = @sequential_1_simple_rnn_1_while_cond_frozen_1790, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>, tensor<!tf_type.variant<tensor<*xf32>>>, tensor<*xf32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant>, tensor<?x4xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>)
      %control_66 = tf_executor.island(%control_65, %control_11, %control_15, %control_19) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_67, %control_68 = tf_executor.island wraps "tf.TensorListStack"(%outputs_64#3, %outputs_0) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_69, %control_70 = tf_executor.island wraps "tf.StridedSlice"(%outputs_67, %outputs_32, %outputs_34, %outputs_36) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_71, %control_72 = tf_executor.island(%control_66) wraps "tf.Identity"(%outputs_69) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_71 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @sequential_1_simple_rnn_1_while_body_frozen_1800(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<?x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg6: tensor<!tf_type.variant> {tf._user_specified_name = "sequential_1/simple_rnn_1/TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<*xf32> {tf._user_specified_name = "resource"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %0:10 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_4) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%arg8) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Identity"(%arg9) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.MatMul"(%arg4, %outputs_12) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x4xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Identity"(%arg7) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %control_18 = tf_executor.island(%control_17, %control_11, %control_13) wraps "tf.NoOp"() {device = ""} : () -> ()
      %outputs_19, %control_20 = tf_executor.island(%control_18) wraps "tf.Identity"(%outputs_8) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_21, %control_22 = tf_executor.island(%control_18) wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_23, %control_24 = tf_executor.island(%control_18) wraps "tf.Identity"(%outputs_6) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_25, %control_26 = tf_executor.island wraps "tf.TensorListGetItem"(%arg6, %arg2, %outputs) {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_27, %control_28 = tf_executor.island wraps "tf.MatMul"(%outputs_25, %outputs_16) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_29, %control_30 = tf_executor.island wraps "tf.BiasAdd"(%outputs_27, %outputs_10) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_31, %control_32 = tf_executor.island wraps "tf.AddV2"(%outputs_29, %outputs_14) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_33, %control_34 = tf_executor.island wraps "tf.Tanh"(%outputs_31) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_35, %control_36 = tf_executor.island(%control_18) wraps "tf.Identity"(%outputs_33) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_37, %control_38 = tf_executor.island wraps "tf.TensorListSetItem"(%arg3, %outputs_0, %outputs_33) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<*xf32>) -> tensor<*x!tf_type.variant>
      %outputs_39, %control_40 = tf_executor.island(%control_18) wraps "tf.Identity"(%outputs_37) {device = ""} : (tensor<*x!tf_type.variant>) -> tensor<*x!tf_type.variant>
      tf_executor.fetch %outputs_19, %outputs_21, %outputs_23, %outputs_39, %outputs_35, %arg5, %arg6, %arg7, %arg8, %arg9, %control_17, %control_11, %control_13 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, !tf_executor.control, !tf_executor.control, !tf_executor.control
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
  func.func private @sequential_1_simple_rnn_1_while_cond_frozen_1790(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<?x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg6: tensor<*x!tf_type.variant>, %arg7: tensor<*xf32>, %arg8: tensor<*xf32>, %arg9: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.LogicalAnd"(%outputs_0, %outputs) {device = ""} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Identity"(%outputs_2) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_4 : tensor<*xi1>
    }
    return %0 : tensor<*xi1>
  }
}
