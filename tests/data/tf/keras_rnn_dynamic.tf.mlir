module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_299(%arg0: tensor<?x?x3xf32>) -> tensor<?x4xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.444463491, -0.211149186, 0.514863729, 0.701985478], [-0.0399417691, -0.86478281, -0.48562327, 0.121347651], [0.309477478, -0.400019735, 0.513710678, -0.693043351], [0.839690744, 0.218061551, -0.484960318, -0.110372454]]> : tensor<4x4xf32>}> {device = ""} : () -> tensor<4x4xf32>
    %cst_7 = "tf.Const"() <{value = dense<[[0.174952269, 0.711369872, 0.148049831, -0.465866983], [0.2994802, 0.0395005345, -0.075307846, 0.389077425], [0.842757105, 0.756976366, 0.405944467, 0.659438133]]> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
    %cst_8 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<4xf32>}> {device = ""} : () -> tensor<4xf32>
    %cst_9 = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_10 = "tf.Const"() <{value = dense<[-1, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_11 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.TensorListReserve"(%cst_10, %cst_11) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<?x4xf32>>>
    %1 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x3xf32>) -> tensor<3xi32>
    %2 = "tf.StridedSlice"(%1, %cst_5, %cst_4, %cst_4) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %3 = "tf.Pack"(%2, %cst) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %4 = "tf.Fill"(%3, %cst_0) {device = ""} : (tensor<2xi32>, tensor<f32>) -> tensor<?x4xf32>
    %5 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<?x?x3xf32>, tensor<3xi32>) -> tensor<?x?x3xf32>
    %6 = "tf.Shape"(%5) {device = ""} : (tensor<?x?x3xf32>) -> tensor<3xi32>
    %7 = "tf.StridedSlice"(%6, %cst_5, %cst_4, %cst_4) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %8 = "tf.TensorListFromTensor"(%5, %cst_9) {device = ""} : (tensor<?x?x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
    %9:10 = "tf.While"(%cst_2, %7, %cst_2, %0, %4, %7, %8, %cst_7, %cst_8, %cst_6) <{body = @sequential_1_simple_rnn_1_while_body_frozen_1800, cond = @sequential_1_simple_rnn_1_while_cond_frozen_1790, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<?x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<?x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>)
    %10 = "tf.TensorListStack"(%9#3, %cst_10) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<2xi32>) -> tensor<1x?x4xf32>
    %11 = "tf.StridedSlice"(%10, %cst_3, %cst_5, %cst_4) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x?x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x4xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %12 : tensor<?x4xf32>
  }
  func.func private @sequential_1_simple_rnn_1_while_body_frozen_1800(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<?x4xf32>>>, %arg4: tensor<?x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg6: tensor<!tf_type.variant<tensor<?x3xf32>>> {tf._user_specified_name = "sequential_1/simple_rnn_1/TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x4xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<4xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<4x4xf32> {tf._user_specified_name = "resource"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<?x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %2 = "tf.Identity"(%arg8) {device = ""} : (tensor<4xf32>) -> tensor<4xf32>
    %3 = "tf.Identity"(%arg9) {device = ""} : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %4 = "tf.MatMul"(%arg4, %3) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
    %5 = "tf.Identity"(%arg7) {device = ""} : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %6 = "tf.Identity"(%1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %7 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %8 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %9 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<?x3xf32>
    %10 = "tf.MatMul"(%9, %5) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
    %11 = "tf.BiasAdd"(%10, %2) <{data_format = "NHWC"}> {device = ""} : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    %12 = "tf.AddV2"(%11, %4) {device = ""} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %13 = "tf.Tanh"(%12) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %14 = "tf.Identity"(%13) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %15 = "tf.TensorListSetItem"(%arg3, %cst_0, %13) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<i32>, tensor<?x4xf32>) -> tensor<!tf_type.variant<tensor<?x4xf32>>>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<!tf_type.variant<tensor<?x4xf32>>>) -> tensor<!tf_type.variant<tensor<?x4xf32>>>
    return %6, %7, %8, %16, %14, %arg5, %arg6, %arg7, %arg8, %arg9 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x4xf32>>>, tensor<?x4xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<3x4xf32>, tensor<4xf32>, tensor<4x4xf32>
  }
  func.func private @sequential_1_simple_rnn_1_while_cond_frozen_1790(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<?x4xf32>>>, %arg4: tensor<?x4xf32>, %arg5: tensor<i32> {tf._user_specified_name = "sequential_1/simple_rnn_1/strided_slice_3"}, %arg6: tensor<!tf_type.variant<tensor<?x3xf32>>>, %arg7: tensor<3x4xf32>, %arg8: tensor<4xf32>, %arg9: tensor<4x4xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg5) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = "tf.LogicalAnd"(%1, %0) {device = ""} : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %3 : tensor<i1>
  }
}
