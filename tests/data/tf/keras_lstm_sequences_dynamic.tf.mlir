module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_665(%arg0: tensor<?x?x2xf32>) -> tensor<?x?x3xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<[[-0.200970411, 0.197998792, -2.762430e-01, -0.216983989, 0.594476938, 0.472794324, 0.202121735, -0.160694167, -0.149590075, 0.047013443, 0.272238612, 0.233881846], [0.17881602, 0.569322884, 0.210645601, 0.41525802, -0.0116133243, 0.0225813389, 0.0305099431, 0.415644377, -0.133917034, -0.0931052267, 0.00546253473, 0.475518107], [0.134113178, -0.230053782, -0.618137717, 0.262910038, -0.327598751, -9.08613205E-4, -0.127750024, -0.0334573388, -0.527889132, 0.10354957, 0.18826361, 0.168164074]]> : tensor<3x12xf32>}> {device = ""} : () -> tensor<3x12xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.222317338, 0.612336635, 0.213702381, 0.086010456, -0.109180927, 0.589963675, 0.0276737213, -0.433215559, 0.150281608, -0.544643939, 0.0208212733, 0.0836305618], [-0.0916662812, 0.451073527, -0.411191344, 0.0249482393, -0.609508931, 0.484246135, -0.551347136, -0.504590273, -0.318045139, 0.545327663, 0.634837031, -0.435546339]]> : tensor<2x12xf32>}> {device = ""} : () -> tensor<2x12xf32>
    %cst_7 = "tf.Const"() <{value = dense<[-1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[-1, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<12xf32>}> {device = ""} : () -> tensor<12xf32>
    %0 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x2xf32>) -> tensor<3xi32>
    %1 = "tf.StridedSlice"(%0, %cst_4, %cst_3, %cst_3) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %2 = "tf.Pack"(%1, %cst) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %3 = "tf.Fill"(%2, %cst_0) {device = ""} : (tensor<2xi32>, tensor<f32>) -> tensor<?x3xf32>
    %4 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<?x?x2xf32>, tensor<3xi32>) -> tensor<?x?x2xf32>
    %5 = "tf.Shape"(%4) {device = ""} : (tensor<?x?x2xf32>) -> tensor<3xi32>
    %6 = "tf.StridedSlice"(%5, %cst_4, %cst_3, %cst_3) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %7 = "tf.TensorListReserve"(%cst_8, %6) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
    %8 = "tf.TensorListFromTensor"(%4, %cst_7) {device = ""} : (tensor<?x?x2xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<?x2xf32>>>
    %9:11 = "tf.While"(%cst_2, %6, %cst_2, %7, %3, %3, %6, %8, %cst_6, %cst_5, %cst_9) <{body = @sequential_1_1_lstm_1_while_body_frozen_5270, cond = @sequential_1_1_lstm_1_while_cond_frozen_5260, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 11 : i64, _read_only_resource_inputs = [8, 9, 10], device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x2xf32>>>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x2xf32>>>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>)
    %10 = "tf.TensorListStack"(%9#3, %cst_8) <{num_elements = -1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<2xi32>) -> tensor<?x?x3xf32>
    %11 = "tf.Transpose"(%10, %cst_1) {device = ""} : (tensor<?x?x3xf32>, tensor<3xi32>) -> tensor<?x?x3xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    return %12 : tensor<?x?x3xf32>
  }
  func.func private @sequential_1_1_lstm_1_while_body_frozen_5270(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<?x3xf32>>>, %arg4: tensor<?x3xf32>, %arg5: tensor<?x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg7: tensor<!tf_type.variant<tensor<?x2xf32>>> {tf._user_specified_name = "sequential_1_1/lstm_1/TensorArrayUnstack/TensorListFromTensor"}, %arg8: tensor<2x12xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<3x12xf32> {tf._user_specified_name = "resource"}, %arg10: tensor<12xf32> {tf._user_specified_name = "resource"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x2xf32>>>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[-1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Identity"(%arg10) {device = ""} : (tensor<12xf32>) -> tensor<12xf32>
    %1 = "tf.Identity"(%arg9) {device = ""} : (tensor<3x12xf32>) -> tensor<3x12xf32>
    %2 = "tf.Identity"(%arg8) {device = ""} : (tensor<2x12xf32>) -> tensor<2x12xf32>
    %3 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<i32>) -> tensor<i32>
    %5 = "tf.MatMul"(%arg4, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x12xf32>) -> tensor<?x12xf32>
    %6 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %7 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<i32>) -> tensor<i32>
    %9 = "tf.TensorListGetItem"(%arg7, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<?x2xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<?x2xf32>
    %10 = "tf.MatMul"(%9, %2) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x2xf32>, tensor<2x12xf32>) -> tensor<?x12xf32>
    %11 = "tf.AddV2"(%10, %5) {device = ""} : (tensor<?x12xf32>, tensor<?x12xf32>) -> tensor<?x12xf32>
    %12 = "tf.BiasAdd"(%11, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<?x12xf32>, tensor<12xf32>) -> tensor<?x12xf32>
    %13:4 = "tf.Split"(%cst_0, %12) {device = ""} : (tensor<i32>, tensor<?x12xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<?x3xf32>)
    %14 = "tf.Sigmoid"(%13#0) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %15 = "tf.Sigmoid"(%13#1) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %16 = "tf.Mul"(%15, %arg5) {device = ""} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %17 = "tf.Sigmoid"(%13#3) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %18 = "tf.Tanh"(%13#2) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %19 = "tf.Mul"(%14, %18) {device = ""} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %20 = "tf.AddV2"(%16, %19) {device = ""} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %21 = "tf.Identity"(%20) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %22 = "tf.Tanh"(%20) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %23 = "tf.Mul"(%17, %22) {device = ""} : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %25 = "tf.TensorListSetItem"(%arg3, %arg2, %23) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<i32>, tensor<?x3xf32>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<!tf_type.variant<tensor<?x3xf32>>>) -> tensor<!tf_type.variant<tensor<?x3xf32>>>
    return %8, %6, %4, %26, %24, %21, %arg6, %arg7, %arg8, %arg9, %arg10 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x3xf32>>>, tensor<?x3xf32>, tensor<?x3xf32>, tensor<i32>, tensor<!tf_type.variant<tensor<?x2xf32>>>, tensor<2x12xf32>, tensor<3x12xf32>, tensor<12xf32>
  }
  func.func private @sequential_1_1_lstm_1_while_cond_frozen_5260(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<?x3xf32>>>, %arg4: tensor<?x3xf32>, %arg5: tensor<?x3xf32>, %arg6: tensor<i32> {tf._user_specified_name = "sequential_1_1/lstm_1/strided_slice_3"}, %arg7: tensor<!tf_type.variant<tensor<?x2xf32>>>, %arg8: tensor<2x12xf32>, %arg9: tensor<3x12xf32>, %arg10: tensor<12xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = "tf.Less"(%arg2, %arg6) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = "tf.LogicalAnd"(%1, %0) {device = ""} : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %3 : tensor<i1>
  }
}
