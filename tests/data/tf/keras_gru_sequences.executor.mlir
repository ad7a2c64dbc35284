module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_743(%arg0: tensor<3x4x2xf32>) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.TensorListReserve"(%outputs_6, %outputs_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[[-0.528535247, -0.343528539, -0.211749375, -0.696168184, 0.223837197, 0.624914467, -0.676965057, 0.635389387, 0.613312304], [-0.407620072, -0.015027523, 0.594601452, -0.151545465, -0.258404374, 0.565814912, 0.205781043, -5.400030e-01, -0.123512745]]> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Identity"(%outputs_12) {_has_manual_control_dependencies = true, device = ""} : (tensor<2x9xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[[-0.264969587, -0.608962357, 0.294605851, -0.179291233, -0.146868035, -0.178420633, -0.497882754, -0.187003031, 0.322112709], [0.226374388, -0.0145575702, 0.219047353, 0.688254296, -0.0290392302, 0.155564144, 0.166330606, -0.45778951, 0.405692399], [-0.22234267, -0.29476583, -0.429306537, 0.224188447, -6.163620e-01, 0.140662551, 0.252381355, 0.366572112, 0.177067116]]> : tensor<3x9xf32>}> {device = ""} : () -> tensor<3x9xf32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Identity"(%outputs_16) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x9xf32>) -> tensor<*xf32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%outputs_20) {_has_manual_control_dependencies = true, device = ""} : (tensor<2x9xf32>) -> tensor<*xf32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Range"(%outputs_26, %outputs_0, %outputs_24) {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Max"(%outputs, %outputs_28) <{keep_dims = false}> {device = ""} : (tensor<i32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x3xf32>}> {device = ""} : () -> tensor<3x3xf32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_34) {device = ""} : (tensor<3x4x2xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.TensorListFromTensor"(%outputs_42, %outputs_2) {device = ""} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*x!tf_type.variant>
      %outputs_46:9, %control_47 = tf_executor.island wraps "tf.While"(%outputs_38, %outputs_30, %outputs_32, %outputs_10, %outputs_40, %outputs_44, %outputs_20, %outputs_12, %outputs_16) <{body = @sequential_1_1_gru_1_while_body_frozen_6110, cond = @sequential_1_1_gru_1_while_cond_frozen_6100, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 9 : i64, _read_only_resource_inputs = [6, 7, 8], device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>, tensor<!tf_type.variant<tensor<*xf32>>>, tensor<3x3xf32>, tensor<*x!tf_type.variant>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant>, tensor<3x3xf32>, tensor<!tf_type.variant>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>)
      %control_48 = tf_executor.island(%control_47, %control_15, %control_19, %control_23) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_49, %control_50 = tf_executor.island wraps "tf.TensorListStack"(%outputs_46#3, %outputs_4) <{num_elements = 4 : i64}> {device = ""} : (tensor<!tf_type.variant>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_51, %control_52 = tf_executor.island wraps "tf.Transpose"(%outputs_49, %outputs_36) {device = ""} : (tensor<*xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_53, %control_54 = tf_executor.island(%control_48) wraps "tf.Identity"(%outputs_51) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_53 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @sequential_1_1_gru_1_while_body_frozen_6110(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<3x3xf32>, %arg5: tensor<!tf_type.variant> {tf._user_specified_name = "sequential_1_1/gru_1/TensorArrayUnstack/TensorListFromTensor"}, %arg6: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg7: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<*xf32> {tf._user_specified_name = "resource"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %0:9 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 6]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 6]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Identity"(%arg8) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Identity"(%arg7) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Identity"(%arg6) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %control_34 = tf_executor.island(%control_33, %control_31, %control_29) wraps "tf.NoOp"() {device = ""} : () -> ()
      %outputs_35:2, %control_36 = tf_executor.island wraps "tf.Split"(%outputs_4, %outputs_32) {device = ""} : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
      %outputs_37, %control_38 = tf_executor.island wraps "tf.Squeeze"(%outputs_35#0) <{squeeze_dims = [0]}> {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_39, %control_40 = tf_executor.island wraps "tf.Squeeze"(%outputs_35#1) <{squeeze_dims = [0]}> {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_41, %control_42 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_43, %control_44 = tf_executor.island(%control_34) wraps "tf.Identity"(%outputs_41) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_45, %control_46 = tf_executor.island wraps "tf.MatMul"(%arg4, %outputs_28) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<3x3xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_47, %control_48 = tf_executor.island wraps "tf.AddV2"(%outputs_45, %outputs_39) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_49, %control_50 = tf_executor.island wraps "tf.StridedSlice"(%outputs_47, %outputs_8, %outputs_10, %outputs_12) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<*xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_51, %control_52 = tf_executor.island wraps "tf.StridedSlice"(%outputs_47, %outputs_14, %outputs_16, %outputs_18) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<*xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_53, %control_54 = tf_executor.island wraps "tf.StridedSlice"(%outputs_47, %outputs_20, %outputs_22, %outputs_24) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<*xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_55, %control_56 = tf_executor.island(%control_34) wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_57, %control_58 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_59, %control_60 = tf_executor.island(%control_34) wraps "tf.Identity"(%outputs_57) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_61, %control_62 = tf_executor.island wraps "tf.TensorListGetItem"(%arg5, %arg2, %outputs) {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_63, %control_64 = tf_executor.island wraps "tf.MatMul"(%outputs_61, %outputs_30) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_65, %control_66 = tf_executor.island wraps "tf.BiasAdd"(%outputs_63, %outputs_37) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_67:3, %control_68 = tf_executor.island wraps "tf.Split"(%outputs_6, %outputs_65) {device = ""} : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
      %outputs_69, %control_70 = tf_executor.island wraps "tf.AddV2"(%outputs_67#0, %outputs_49) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_71, %control_72 = tf_executor.island wraps "tf.Sigmoid"(%outputs_69) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_73, %control_74 = tf_executor.island wraps "tf.Mul"(%outputs_71, %arg4) {device = ""} : (tensor<*xf32>, tensor<3x3xf32>) -> tensor<*xf32>
      %outputs_75, %control_76 = tf_executor.island wraps "tf.Sub"(%outputs_26, %outputs_71) {device = ""} : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_77, %control_78 = tf_executor.island wraps "tf.AddV2"(%outputs_67#1, %outputs_51) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_79, %control_80 = tf_executor.island wraps "tf.Sigmoid"(%outputs_77) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_81, %control_82 = tf_executor.island wraps "tf.Mul"(%outputs_79, %outputs_53) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_83, %control_84 = tf_executor.island wraps "tf.AddV2"(%outputs_67#2, %outputs_81) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_85, %control_86 = tf_executor.island wraps "tf.Tanh"(%outputs_83) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_87, %control_88 = tf_executor.island wraps "tf.Mul"(%outputs_75, %outputs_85) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_89, %control_90 = tf_executor.island wraps "tf.AddV2"(%outputs_73, %outputs_87) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_91, %control_92 = tf_executor.island(%control_34) wraps "tf.Identity"(%outputs_89) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_93, %control_94 = tf_executor.island wraps "tf.TensorListSetItem"(%arg3, %arg2, %outputs_89) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<*xf32>) -> tensor<*x!tf_type.variant>
      %outputs_95, %control_96 = tf_executor.island(%control_34) wraps "tf.Identity"(%outputs_93) {device = ""} : (tensor<*x!tf_type.variant>) -> tensor<*x!tf_type.variant>
      tf_executor.fetch %outputs_59, %outputs_55, %outputs_43, %outputs_95, %outputs_91, %arg5, %arg6, %arg7, %arg8, %control_33, %control_31, %control_29 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, !tf_executor.control, !tf_executor.control, !tf_executor.control
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
  func.func private @sequential_1_1_gru_1_while_cond_frozen_6100(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<3x3xf32>, %arg5: tensor<*x!tf_type.variant>, %arg6: tensor<*xf32>, %arg7: tensor<*xf32>, %arg8: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Less"(%arg2, %outputs) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.LogicalAnd"(%outputs_2, %outputs_0) {device = ""} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Identity"(%outputs_4) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_6 : tensor<*xi1>
    }
    return %0 : tensor<*xi1>
  }
}
