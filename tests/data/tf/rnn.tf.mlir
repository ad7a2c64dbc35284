module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_767(%arg0: tensor<?x?x3xf32>) -> tensor<?x4xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_3 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_5 = "tf.Const"() <{value = dense<[[0.443056107, 0.0113275526, 0.476243705, -0.419163972], [0.107355833, -0.123513415, 0.301901221, -0.325472176], [0.371635288, 4.394140e-02, 0.402215093, -0.0228464752]]> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.305002928, 0.307940781, 0.0153255612, -0.214198619], [-0.4460693, -0.11663112, -0.0915267915, -0.454724818], [-0.451242298, 0.499176115, 0.152369112, -0.265489787], [-0.0650524497, 0.474186182, 0.3976776, 0.344231039]]> : tensor<4x4xf32>}> {device = ""} : () -> tensor<4x4xf32>
    %cst_7 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x3xf32>) -> tensor<3xi32>
    %1 = "tf.StridedSlice"(%0, %cst_2, %cst_3, %cst_3) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %2 = "tf.Transpose"(%arg0, %cst_4) {device = ""} : (tensor<?x?x3xf32>, tensor<3xi32>) -> tensor<?x?x3xf32>
    %3 = "tf.Shape"(%2) {device = ""} : (tensor<?x?x3xf32>) -> tensor<3xi32>
    %4 = "tf.StridedSlice"(%3, %cst_2, %cst_3, %cst_3) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %5 = "tf.Pack"(%1, %cst) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %6 = "tf.Fill"(%5, %cst_0) {device = ""} : (tensor<2xi32>, tensor<f32>) -> tensor<?x4xf32>
    %7:8 = "tf.While"(%cst_1, %cst_7, %cst_1, %6, %4, %2, %cst_5, %cst_6) <{body = @while_body_6530, cond = @while_cond_6520, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, i32, i32, f32, i32, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 8 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<?x4>, #tf_type.shape<>, #tf_type.shape<?x?x3>, #tf_type.shape<3x4>, #tf_type.shape<4x4>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x4xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x4xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>)
    %8 = "tf.Identity"(%7#3) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    return %8 : tensor<?x4xf32>
  }
  func.func private @while_body_6530(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?x4xf32>, %arg4: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg5: tensor<?x?x3xf32> {tf._user_specified_name = "transpose"}, %arg6: tensor<3x4xf32>, %arg7: tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x4xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.GatherV2"(%arg5, %arg2, %cst) <{batch_dims = 0 : i64}> {device = ""} : (tensor<?x?x3xf32>, tensor<i32>, tensor<i32>) -> tensor<?x3xf32>
    %1 = "tf.MatMul"(%0, %arg6) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
    %2 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i32>) -> tensor<i32>
    %4 = "tf.MatMul"(%arg3, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
    %5 = "tf.AddV2"(%1, %4) {device = ""} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %6 = "tf.Tanh"(%5) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %8 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<i32>) -> tensor<i32>
    %10 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %9, %10, %3, %7, %arg4, %arg5, %arg6, %arg7 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x4xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>
  }
  func.func private @while_cond_6520(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?x4xf32>, %arg4: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg5: tensor<?x?x3xf32>, %arg6: tensor<3x4xf32>, %arg7: tensor<4x4xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg4) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
