module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_665(%arg0: tensor<?x?x2xf32>) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Identity"(%outputs_4) {_has_manual_control_dependencies = true, device = ""} : (tensor<12xf32>) -> tensor<*xf32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.222317338, 0.612336635, 0.213702381, 0.086010456, -0.109180927, 0.589963675, 0.0276737213, -0.433215559, 0.150281608, -0.544643939, 0.0208212733, 0.0836305618], [-0.0916662812, 0.451073527, -0.411191344, 0.0249482393, -0.609508931, 0.484246135, -0.551347136, -0.504590273, -0.318045139, 0.545327663, 0.634837031, -0.435546339]]> : tensor<2x12xf32>}> {device = ""} : () -> tensor<2x12xf32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%outputs_8) {_has_manual_control_dependencies = true, device = ""} : (tensor<2x12xf32>) -> tensor<*xf32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[[-0.200970411, 0.197998792, -2.762430e-01, -0.216983989, 0.594476938, 0.472794324, 0.202121735, -0.160694167, -0.149590075, 0.047013443, 0.272238612, 0.233881846], [0.17881602, 0.569322884, 0.210645601, 0.41525802, -0.0116133243, 0.0225813389, 0.0305099431, 0.415644377, -0.133917034, -0.0931052267, 0.00546253473, 0.475518107], [0.134113178, -0.230053782, -0.618137717, 0.262910038, -0.327598751, -9.08613205E-4, -0.127750024, -0.0334573388, -0.527889132, 0.10354957, 0.18826361, 0.168164074]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Identity"(%outputs_12) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x12xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x2xf32>) -> tensor<*xi32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.StridedSlice"(%outputs_44, %outputs_16, %outputs_18, %outputs_20) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Pack"(%outputs_46, %outputs_38) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Fill"(%outputs_48, %outputs_36) {device = ""} : (tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Pack"(%outputs_46, %outputs_42) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Fill"(%outputs_52, %outputs_40) {device = ""} : (tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_30) {device = ""} : (tensor<?x?x2xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Shape"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xi32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.StridedSlice"(%outputs_58, %outputs_22, %outputs_24, %outputs_26) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.TensorListReserve"(%outputs_2, %outputs_60) {device = ""} : (tensor<2xi32>, tensor<*xi32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.TensorListFromTensor"(%outputs_56, %outputs) {device = ""} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*x!tf_type.variant>
      %outputs_66:11, %control_67 = tf_executor.island wraps "tf.While"(%outputs_34, %outputs_60, %outputs_28, %outputs_62, %outputs_50, %outputs_54, %outputs_60, %outputs_64, %outputs_8, %outputs_12, %outputs_4) <{body = @sequential_1_1_lstm_1_while_body_frozen_5270, cond = @sequential_1_1_lstm_1_while_cond_frozen_5260, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [8, 9, 10], device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>, tensor<!tf_type.variant<tensor<*xf32>>>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
      %control_68 = tf_executor.island(%control_67, %control_7, %control_11, %control_15) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_69, %control_70 = tf_executor.island wraps "tf.TensorListStack"(%outputs_66#3, %outputs_0) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_71, %control_72 = tf_executor.island wraps "tf.Transpose"(%outputs_69, %outputs_32) {device = ""} : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_73, %control_74 = tf_executor.island(%control_68) wraps "tf.Identity"(%outputs_71) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_73 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @sequential_1_1_lstm_1_while_body_frozen_5270(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<?x3xf32>, %arg5: tensor<?x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg7: tensor<!tf_type.variant> {tf._user_specified_name = "sequential_1_1/lstm_1/TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg10: tensor<*xf32> {tf._user_specified_name = "resource"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %0:11 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Identity"(%arg10) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Identity"(%arg9) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%arg8) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %control_12 = tf_executor.island(%control_11, %control_9, %control_7) wraps "tf.NoOp"() {device = ""} : () -> ()
      %outputs_13, %control_14 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_15, %control_16 = tf_executor.island(%control_12) wraps "tf.Identity"(%outputs_13) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_17, %control_18 = tf_executor.island wraps "tf.MatMul"(%arg4, %outputs_8) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_19, %control_20 = tf_executor.island(%control_12) wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_21, %control_22 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_23, %control_24 = tf_executor.island(%control_12) wraps "tf.Identity"(%outputs_21) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_25, %control_26 = tf_executor.island wraps "tf.TensorListGetItem"(%arg7, %arg2, %outputs) {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_27, %control_28 = tf_executor.island wraps "tf.MatMul"(%outputs_25, %outputs_10) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_29, %control_30 = tf_executor.island wraps "tf.AddV2"(%outputs_27, %outputs_17) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_31, %control_32 = tf_executor.island wraps "tf.BiasAdd"(%outputs_29, %outputs_6) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_33:4, %control_34 = tf_executor.island wraps "tf.Split"(%outputs_4, %outputs_31) {device = ""} : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
      %outputs_35, %control_36 = tf_executor.island wraps "tf.Sigmoid"(%outputs_33#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_37, %control_38 = tf_executor.island wraps "tf.Sigmoid"(%outputs_33#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_39, %control_40 = tf_executor.island wraps "tf.Mul"(%outputs_37, %arg5) {device = ""} : (tensor<*xf32>, tensor<?x3xf32>) -> tensor<*xf32>
      %outputs_41, %control_42 = tf_executor.island wraps "tf.Sigmoid"(%outputs_33#3) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_43, %control_44 = tf_executor.island wraps "tf.Tanh"(%outputs_33#2) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_45, %control_46 = tf_executor.island wraps "tf.Mul"(%outputs_35, %outputs_43) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_47, %control_48 = tf_executor.island wraps "tf.AddV2"(%outputs_39, %outputs_45) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_49, %control_50 = tf_executor.island(%control_12) wraps "tf.Identity"(%outputs_47) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_51, %control_52 = tf_executor.island wraps "tf.Tanh"(%outputs_47) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_53, %control_54 = tf_executor.island wraps "tf.Mul"(%outputs_41, %outputs_51) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_55, %control_56 = tf_executor.island(%control_12) wraps "tf.Identity"(%outputs_53) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_57, %control_58 = tf_executor.island wraps "tf.TensorListSetItem"(%arg3, %arg2, %outputs_53) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<*xf32>) -> tensor<*x!tf_type.variant>
      %outputs_59, %control_60 = tf_executor.island(%control_12) wraps "tf.Identity"(%outputs_57) {device = ""} : (tensor<*x!tf_type.variant>) -> tensor<*x!tf_type.variant>
      tf_executor.fetch %outputs_23, %outputs_19, %outputs_15, %outputs_59, %outputs_55, %outputs_49, %arg6, %arg7, %arg8, %arg9, %arg10, %control_11, %control_9, %control_7 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, !tf_executor.control, !tf_executor.control, !tf_executor.control
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9, %0#10 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<i32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
  func.func private @sequential_1_1_lstm_1_while_cond_frozen_5260(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<?x3xf32>, %arg5: tensor<?x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg7: tensor<*x!tf_type.variant>, %arg8: tensor<*xf32>, %arg9: tensor<*xf32>, %arg10: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.LogicalAnd"(%outputs_0, %outputs) {device = ""} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Identity"(%outputs_2) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_4 : tensor<*xi1>
    }
    return %0 : tensor<*xi1>
  }
}
