module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_743(%arg0: tensor<3x4x2xf32>) -> tensor<3x4x3xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<4> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<3x3xf32>}> {device = ""} : () -> tensor<3x3xf32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
    %cst_3 = "tf.Const"() <{value = dense<[[-0.264969587, -0.608962357, 0.294605851, -0.179291233, -0.146868035, -0.178420633, -0.497882754, -0.187003031, 0.322112709], [0.226374388, -0.0145575702, 0.219047353, 0.688254296, -0.0290392302, 0.155564144, 0.166330606, -0.45778951, 0.405692399], [-0.22234267, -0.29476583, -0.429306537, 0.224188447, -6.163620e-01, 0.140662551, 0.252381355, 0.366572112, 0.177067116]]> : tensor<3x9xf32>}> {device = ""} : () -> tensor<3x9xf32>
    %cst_4 = "tf.Const"() <{value = dense<[[-0.528535247, -0.343528539, -0.211749375, -0.696168184, 0.223837197, 0.624914467, -0.676965057, 0.635389387, 0.613312304], [-0.407620072, -0.015027523, 0.594601452, -0.151545465, -0.258404374, 0.565814912, 0.205781043, -5.400030e-01, -0.123512745]]> : tensor<2x9xf32>}> {device = ""} : () -> tensor<2x9xf32>
    %cst_5 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_6 = "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<3> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.TensorListReserve"(%cst_7, %cst) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<3x3xf32>>>
    %1 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<3x4x2xf32>, tensor<3xi32>) -> tensor<4x3x2xf32>
    %2 = "tf.TensorListFromTensor"(%1, %cst_6) {device = ""} : (tensor<4x3x2xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<3x2xf32>>>
    %3:9 = "tf.While"(%cst_5, %cst, %cst_5, %0, %cst_0, %2, %cst_2, %cst_4, %cst_3) <{body = @sequential_1_1_gru_1_while_body_frozen_6110, cond = @sequential_1_1_gru_1_while_cond_frozen_6100, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 9 : i64, _read_only_resource_inputs = [6, 7, 8], device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<3x3xf32>, tensor<!tf_type.variant<tensor<3x2xf32>>>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<3x3xf32>, tensor<!tf_type.variant<tensor<3x2xf32>>>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>)
    %4 = "tf.TensorListStack"(%3#3, %cst_7) <{num_elements = 4 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<2xi32>) -> tensor<4x3x3xf32>
    %5 = "tf.Transpose"(%4, %cst_1) {device = ""} : (tensor<4x3x3xf32>, tensor<3xi32>) -> tensor<3x4x3xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<3x4x3xf32>) -> tensor<3x4x3xf32>
    return %6 : tensor<3x4x3xf32>
  }
  func.func private @sequential_1_1_gru_1_while_body_frozen_6110(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<3x3xf32>>>, %arg4: tensor<3x3xf32>, %arg5: tensor<!tf_type.variant<tensor<3x2xf32>>> {tf._user_specified_name = "sequential_1_1/gru_1/TensorArrayUnstack/TensorListFromTensor"}, %arg6: tensor<2x9xf32> {tf._user_specified_name = "resource"}, %arg7: tensor<2x9xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<3x9xf32> {tf._user_specified_name = "resource"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<3x3xf32>, tensor<!tf_type.variant<tensor<3x2xf32>>>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[3, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_4 = "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<[0, 6]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.Identity"(%arg8) {device = ""} : (tensor<3x9xf32>) -> tensor<3x9xf32>
    %1 = "tf.Identity"(%arg7) {device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %2 = "tf.Identity"(%arg6) {device = ""} : (tensor<2x9xf32>) -> tensor<2x9xf32>
    %3:2 = "tf.Split"(%cst_1, %2) {device = ""} : (tensor<i32>, tensor<2x9xf32>) -> (tensor<1x9xf32>, tensor<1x9xf32>)
    %4 = "tf.Squeeze"(%3#0) <{squeeze_dims = [0]}> {device = ""} : (tensor<1x9xf32>) -> tensor<9xf32>
    %5 = "tf.Squeeze"(%3#1) <{squeeze_dims = [0]}> {device = ""} : (tensor<1x9xf32>) -> tensor<9xf32>
    %6 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<i32>) -> tensor<i32>
    %8 = "tf.MatMul"(%arg4, %0) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<3x3xf32>, tensor<3x9xf32>) -> tensor<3x9xf32>
    %9 = "tf.AddV2"(%8, %5) {device = ""} : (tensor<3x9xf32>, tensor<9xf32>) -> tensor<3x9xf32>
    %10 = "tf.StridedSlice"(%9, %cst_3, %cst_4, %cst_5) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3x9xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x3xf32>
    %11 = "tf.StridedSlice"(%9, %cst_4, %cst_6, %cst_5) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3x9xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x3xf32>
    %12 = "tf.StridedSlice"(%9, %cst_6, %cst_3, %cst_5) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3x9xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<3x3xf32>
    %13 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %14 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<i32>) -> tensor<i32>
    %16 = "tf.TensorListGetItem"(%arg5, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<3x2xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<3x2xf32>
    %17 = "tf.MatMul"(%16, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<3x2xf32>, tensor<2x9xf32>) -> tensor<3x9xf32>
    %18 = "tf.BiasAdd"(%17, %4) <{data_format = "NHWC"}> {device = ""} : (tensor<3x9xf32>, tensor<9xf32>) -> tensor<3x9xf32>
    %19:3 = "tf.Split"(%cst_2, %18) {device = ""} : (tensor<i32>, tensor<3x9xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>)
    %20 = "tf.AddV2"(%19#0, %10) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %21 = "tf.Sigmoid"(%20) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %22 = "tf.Mul"(%21, %arg4) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %23 = "tf.Sub"(%cst_7, %21) {device = ""} : (tensor<f32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %24 = "tf.AddV2"(%19#1, %11) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %25 = "tf.Sigmoid"(%24) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %26 = "tf.Mul"(%25, %12) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %27 = "tf.AddV2"(%19#2, %26) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %28 = "tf.Tanh"(%27) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %29 = "tf.Mul"(%23, %28) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %30 = "tf.AddV2"(%22, %29) {device = ""} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %32 = "tf.TensorListSetItem"(%arg3, %arg2, %30) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<i32>, tensor<3x3xf32>) -> tensor<!tf_type.variant<tensor<3x3xf32>>>
    %33 = "tf.Identity"(%32) {device = ""} : (tensor<!tf_type.variant<tensor<3x3xf32>>>) -> tensor<!tf_type.variant<tensor<3x3xf32>>>
    return %15, %13, %7, %33, %31, %arg5, %arg6, %arg7, %arg8 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<3x3xf32>>>, tensor<3x3xf32>, tensor<!tf_type.variant<tensor<3x2xf32>>>, tensor<2x9xf32>, tensor<2x9xf32>, tensor<3x9xf32>
  }
  func.func private @sequential_1_1_gru_1_while_cond_frozen_6100(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/gru_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<3x3xf32>>>, %arg4: tensor<3x3xf32>, %arg5: tensor<!tf_type.variant<tensor<3x2xf32>>>, %arg6: tensor<2x9xf32>, %arg7: tensor<2x9xf32>, %arg8: tensor<3x9xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Less"(%arg2, %cst) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = "tf.LogicalAnd"(%1, %0) {device = ""} : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %3 : tensor<i1>
  }
}
