module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_374(%arg0: tensor<2x5x3xf32>) -> tensor<2x2xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> {device = ""} : () -> tensor<2x4xf32>
    %cst_1 = "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_5 = "tf.Const"() <{value = dense<[[-0.217646599, -0.00166277576, -0.212656915, 0.488005936, 0.0165682752, -0.300118923, 0.139703333, 0.240574285, 0.291041106, -0.343989342, -0.19747521, -0.0678347796, -0.157621697, 0.438330084, 0.194492713, 0.00887226127], [-0.449745744, 0.345585108, 0.244027048, -0.311253548, -0.258751661, -0.035319753, 0.0856546164, 0.348051399, -0.0680075362, -0.0802274793, -0.104204252, 0.31204167, -0.0656276345, 0.154412761, -0.411047608, -0.0937799811], [0.0208286308, -0.189782679, -0.205086604, -4.756630e-02, -0.645336627, 0.427577615, 0.0138048064, -0.199886501, -0.17887564, -0.300698966, -0.213733017, 0.121838383, -0.0895562693, 0.082361795, 0.161213949, 0.236774176], [0.0458379537, 0.209907666, 0.177088678, 0.0875931531, 0.120586544, 0.101791352, 0.0581456758, -0.004243684, -0.00668981392, 0.120822534, 0.378710866, 0.632023394, -3.1982176E-4, 0.212644368, 0.475416213, 0.240305364]]> : tensor<4x16xf32>}> {device = ""} : () -> tensor<4x16xf32>
    %cst_6 = "tf.Const"() <{value = dense<[[0.329950094, 0.541708767, 0.370114565, -0.489127755, -0.285384744, 0.0729144216, -8.177930e-02, -0.351409107, 0.125871778, -0.00105082989, 0.500139177, -0.137343764, -0.535464466, 0.411964178, 0.275904477, 0.496751845], [-0.0305682421, 0.310740113, 0.320245564, -0.0960472226, -0.428953588, -0.337795556, -0.293780982, -0.433149815, -0.456706285, 0.371919811, 0.00407421589, 0.365192831, 0.0807668566, -0.00230193138, 0.219969988, -0.127390027], [0.215787232, 0.231504798, -0.462630719, -0.206487715, -0.276511669, 0.414516211, -0.492881596, 8.113730e-02, 2.63512135E-4, 0.204261661, 0.183769882, -0.219491512, 0.294375956, -0.321391106, -0.161255926, 0.176206708]]> : tensor<3x16xf32>}> {device = ""} : () -> tensor<3x16xf32>
    %cst_7 = "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<16xf32>}> {device = ""} : () -> tensor<16xf32>
    %cst_8 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_9 = "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_10 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_11 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_12 = "tf.Const"() <{value = dense<[[0.410166502, 0.770910501], [0.487486839, -0.240393639], [7.599690e-01, -0.470203876], [-0.730023384, -0.892355918]]> : tensor<4x2xf32>}> {device = ""} : () -> tensor<4x2xf32>
    %cst_13 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
    %0 = "tf.Identity"(%cst_13) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<2xf32>
    %1 = "tf.Identity"(%cst_12) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x2xf32>) -> tensor<4x2xf32>
    %2 = "tf.TensorListReserve"(%cst_9, %cst_8) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %3 = "tf.Transpose"(%arg0, %cst_1) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<5x2x3xf32>
    %4 = "tf.TensorListFromTensor"(%3, %cst_10) {device = ""} : (tensor<5x2x3xf32>, tensor<2xi32>) -> tensor<!tf_type.variant<tensor<2x3xf32>>>
    %5:10 = "tf.While"(%cst_11, %cst, %cst_11, %2, %cst_0, %cst_0, %4, %cst_6, %cst_5, %cst_7) <{body = @sequential_1_lstm_1_while_body_frozen_2430, cond = @sequential_1_lstm_1_while_cond_frozen_2420, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
    %6 = "tf.TensorListStack"(%5#3, %cst_9) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2xi32>) -> tensor<1x2x4xf32>
    %7 = "tf.StridedSlice"(%6, %cst_4, %cst_3, %cst_2) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<1x2x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xf32>
    %8 = "tf.MatMul"(%7, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x2xf32>) -> tensor<2x2xf32>
    %9 = "tf.BiasAdd"(%8, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x2xf32>) -> tensor<2x2xf32>
    return %10 : tensor<2x2xf32>
  }
  func.func private @sequential_1_lstm_1_while_body_frozen_2430(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>> {tf._user_specified_name = "sequential_1/lstm_1/TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<3x16xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<4x16xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<16xf32> {tf._user_specified_name = "resource"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %cst = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Identity"(%arg9) {device = ""} : (tensor<16xf32>) -> tensor<16xf32>
    %1 = "tf.Identity"(%arg8) {device = ""} : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = "tf.Identity"(%arg7) {device = ""} : (tensor<3x16xf32>) -> tensor<3x16xf32>
    %3 = "tf.AddV2"(%arg2, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<i32>) -> tensor<i32>
    %5 = "tf.MatMul"(%arg4, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<4x16xf32>) -> tensor<2x16xf32>
    %6 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    %7 = "tf.AddV2"(%arg0, %cst_1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<i32>) -> tensor<i32>
    %9 = "tf.TensorListGetItem"(%arg6, %arg2, %cst) {device = ""} : (tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<i32>, tensor<2xi32>) -> tensor<2x3xf32>
    %10 = "tf.MatMul"(%9, %2) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x3xf32>, tensor<3x16xf32>) -> tensor<2x16xf32>
    %11 = "tf.AddV2"(%10, %5) {device = ""} : (tensor<2x16xf32>, tensor<2x16xf32>) -> tensor<2x16xf32>
    %12 = "tf.BiasAdd"(%11, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<2x16xf32>, tensor<16xf32>) -> tensor<2x16xf32>
    %13:4 = "tf.Split"(%cst_1, %12) {device = ""} : (tensor<i32>, tensor<2x16xf32>) -> (tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>)
    %14 = "tf.Sigmoid"(%13#0) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %15 = "tf.Sigmoid"(%13#1) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %16 = "tf.Mul"(%15, %arg5) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %17 = "tf.Sigmoid"(%13#3) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %18 = "tf.Tanh"(%13#2) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %19 = "tf.Mul"(%14, %18) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %20 = "tf.AddV2"(%16, %19) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %21 = "tf.Identity"(%20) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %22 = "tf.Tanh"(%20) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %23 = "tf.Mul"(%17, %22) {device = ""} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %25 = "tf.TensorListSetItem"(%arg3, %cst_0, %23) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<i32>, tensor<2x4xf32>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<!tf_type.variant<tensor<2x4xf32>>>) -> tensor<!tf_type.variant<tensor<2x4xf32>>>
    return %8, %6, %4, %26, %24, %21, %arg6, %arg7, %arg8, %arg9 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant<tensor<2x4xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<!tf_type.variant<tensor<2x3xf32>>>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>
  }
  func.func private @sequential_1_lstm_1_while_cond_frozen_2420(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant<tensor<2x4xf32>>>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<!tf_type.variant<tensor<2x3xf32>>>, %arg7: tensor<3x16xf32>, %arg8: tensor<4x16xf32>, %arg9: tensor<16xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Less"(%arg2, %cst) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = "tf.LogicalAnd"(%1, %0) {device = ""} : (tensor<i1>, tensor<i1>) -> tensor<i1>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %3 : tensor<i1>
  }
}
