module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_374(%arg0: tensor<2x5x3xf32>) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%outputs) {_has_manual_control_dependencies = true, device = ""} : (tensor<2xf32>) -> tensor<*xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.410166502, 0.770910501], [0.487486839, -0.240393639], [7.599690e-01, -0.470203876], [-0.730023384, -0.892355918]]> : tensor<4x2xf32>}> {device = ""} : () -> tensor<4x2xf32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Identity"(%outputs_2) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x2xf32>) -> tensor<*xf32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.TensorListReserve"(%outputs_14, %outputs_16) {device = ""} : (tensor<2xi32>, tensor<i32>) -> tensor<!tf_type.variant<tensor<*xf32>>>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00]> : tensor<16xf32>}> {device = ""} : () -> tensor<16xf32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%outputs_20) {_has_manual_control_dependencies = true, device = ""} : (tensor<16xf32>) -> tensor<*xf32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.329950094, 0.541708767, 0.370114565, -0.489127755, -0.285384744, 0.0729144216, -8.177930e-02, -0.351409107, 0.125871778, -0.00105082989, 0.500139177, -0.137343764, -0.535464466, 0.411964178, 0.275904477, 0.496751845], [-0.0305682421, 0.310740113, 0.320245564, -0.0960472226, -0.428953588, -0.337795556, -0.293780982, -0.433149815, -0.456706285, 0.371919811, 0.00407421589, 0.365192831, 0.0807668566, -0.00230193138, 0.219969988, -0.127390027], [0.215787232, 0.231504798, -0.462630719, -0.206487715, -0.276511669, 0.414516211, -0.492881596, 8.113730e-02, 2.63512135E-4, 0.204261661, 0.183769882, -0.219491512, 0.294375956, -0.321391106, -0.161255926, 0.176206708]]> : tensor<3x16xf32>}> {device = ""} : () -> tensor<3x16xf32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Identity"(%outputs_24) {_has_manual_control_dependencies = true, device = ""} : (tensor<3x16xf32>) -> tensor<*xf32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<[[-0.217646599, -0.00166277576, -0.212656915, 0.488005936, 0.0165682752, -0.300118923, 0.139703333, 0.240574285, 0.291041106, -0.343989342, -0.19747521, -0.0678347796, -0.157621697, 0.438330084, 0.194492713, 0.00887226127], [-0.449745744, 0.345585108, 0.244027048, -0.311253548, -0.258751661, -0.035319753, 0.0856546164, 0.348051399, -0.0680075362, -0.0802274793, -0.104204252, 0.31204167, -0.0656276345, 0.154412761, -0.411047608, -0.0937799811], [0.0208286308, -0.189782679, -0.205086604, -4.756630e-02, -0.645336627, 0.427577615, 0.0138048064, -0.199886501, -0.17887564, -0.300698966, -0.213733017, 0.121838383, -0.0895562693, 0.082361795, 0.161213949, 0.236774176], [0.0458379537, 0.209907666, 0.177088678, 0.0875931531, 0.120586544, 0.101791352, 0.0581456758, -0.004243684, -0.00668981392, 0.120822534, 0.378710866, 0.632023394, -3.1982176E-4, 0.212644368, 0.475416213, 0.240305364]]> : tensor<4x16xf32>}> {device = ""} : () -> tensor<4x16xf32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Identity"(%outputs_28) {_has_manual_control_dependencies = true, device = ""} : (tensor<4x16xf32>) -> tensor<*xf32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Range"(%outputs_34, %outputs_8, %outputs_32) {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Max"(%outputs_6, %outputs_36) <{keep_dims = false}> {device = ""} : (tensor<i32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> {device = ""} : () -> tensor<2x4xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<2x4xf32>}> {device = ""} : () -> tensor<2x4xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_48) {device = ""} : (tensor<2x5x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.TensorListFromTensor"(%outputs_56, %outputs_10) {device = ""} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*x!tf_type.variant>
      %outputs_60:10, %control_61 = tf_executor.island wraps "tf.While"(%outputs_50, %outputs_38, %outputs_46, %outputs_18, %outputs_52, %outputs_54, %outputs_58, %outputs_24, %outputs_28, %outputs_20) <{body = @sequential_1_lstm_1_while_body_frozen_2430, cond = @sequential_1_lstm_1_while_cond_frozen_2420, is_stateless = false, parallel_iterations = 32 : i64, shape_invariant}> {_has_manual_control_dependencies = true, _lower_using_switch_merge = false, _num_original_outputs = 10 : i64, _read_only_resource_inputs = [7, 8, 9], device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>, tensor<!tf_type.variant<tensor<*xf32>>>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<*x!tf_type.variant>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<!tf_type.variant>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<!tf_type.variant>, tensor<3x16xf32>, tensor<4x16xf32>, tensor<16xf32>)
      %control_62 = tf_executor.island(%control_61, %control_5, %control_1, %control_23, %control_27, %control_31) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_63, %control_64 = tf_executor.island wraps "tf.TensorListStack"(%outputs_60#3, %outputs_12) <{num_elements = 1 : i64}> {device = ""} : (tensor<!tf_type.variant>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_65, %control_66 = tf_executor.island wraps "tf.StridedSlice"(%outputs_63, %outputs_40, %outputs_42, %outputs_44) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_67, %control_68 = tf_executor.island wraps "tf.MatMul"(%outputs_65, %outputs_4) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_69, %control_70 = tf_executor.island wraps "tf.BiasAdd"(%outputs_67, %outputs_0) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_71, %control_72 = tf_executor.island(%control_62) wraps "tf.Identity"(%outputs_69) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_71 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @sequential_1_lstm_1_while_body_frozen_2430(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<!tf_type.variant> {tf._user_specified_name = "sequential_1/lstm_1/TensorArrayUnstack/TensorListFromTensor"}, %arg7: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg8: tensor<*xf32> {tf._user_specified_name = "resource"}, %arg9: tensor<*xf32> {tf._user_specified_name = "resource"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {tf._construction_context = "kEagerRuntime", tf.signature.is_stateful} {
    %0:10 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Identity"(%arg9) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%arg8) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Identity"(%arg7) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %control_14 = tf_executor.island(%control_13, %control_11, %control_9) wraps "tf.NoOp"() {device = ""} : () -> ()
      %outputs_15, %control_16 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_17, %control_18 = tf_executor.island(%control_14) wraps "tf.Identity"(%outputs_15) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_19, %control_20 = tf_executor.island wraps "tf.MatMul"(%arg4, %outputs_10) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<2x4xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_21, %control_22 = tf_executor.island(%control_14) wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_23, %control_24 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_4) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_25, %control_26 = tf_executor.island(%control_14) wraps "tf.Identity"(%outputs_23) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_27, %control_28 = tf_executor.island wraps "tf.TensorListGetItem"(%arg6, %arg2, %outputs) {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_29, %control_30 = tf_executor.island wraps "tf.MatMul"(%outputs_27, %outputs_12) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_31, %control_32 = tf_executor.island wraps "tf.AddV2"(%outputs_29, %outputs_19) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_33, %control_34 = tf_executor.island wraps "tf.BiasAdd"(%outputs_31, %outputs_8) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_35:4, %control_36 = tf_executor.island wraps "tf.Split"(%outputs_6, %outputs_33) {device = ""} : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
      %outputs_37, %control_38 = tf_executor.island wraps "tf.Sigmoid"(%outputs_35#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_39, %control_40 = tf_executor.island wraps "tf.Sigmoid"(%outputs_35#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_41, %control_42 = tf_executor.island wraps "tf.Mul"(%outputs_39, %arg5) {device = ""} : (tensor<*xf32>, tensor<2x4xf32>) -> tensor<*xf32>
      %outputs_43, %control_44 = tf_executor.island wraps "tf.Sigmoid"(%outputs_35#3) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_45, %control_46 = tf_executor.island wraps "tf.Tanh"(%outputs_35#2) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_47, %control_48 = tf_executor.island wraps "tf.Mul"(%outputs_37, %outputs_45) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_49, %control_50 = tf_executor.island wraps "tf.AddV2"(%outputs_41, %outputs_47) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_51, %control_52 = tf_executor.island(%control_14) wraps "tf.Identity"(%outputs_49) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_53, %control_54 = tf_executor.island wraps "tf.Tanh"(%outputs_49) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_55, %control_56 = tf_executor.island wraps "tf.Mul"(%outputs_43, %outputs_53) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_57, %control_58 = tf_executor.island(%control_14) wraps "tf.Identity"(%outputs_55) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_59, %control_60 = tf_executor.island wraps "tf.TensorListSetItem"(%arg3, %outputs_0, %outputs_55) <{resize_if_index_out_of_bounds = false}> {device = ""} : (tensor<!tf_type.variant>, tensor<i32>, tensor<*xf32>) -> tensor<*x!tf_type.variant>
      %outputs_61, %control_62 = tf_executor.island(%control_14) wraps "tf.Identity"(%outputs_59) {device = ""} : (tensor<*x!tf_type.variant>) -> tensor<*x!tf_type.variant>
      tf_executor.fetch %outputs_25, %outputs_21, %outputs_17, %outputs_61, %outputs_57, %outputs_51, %arg6, %arg7, %arg8, %arg9, %control_13, %control_11, %control_9 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, !tf_executor.control, !tf_executor.control, !tf_executor.control
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*x!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<!tf_type.variant>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
  func.func private @sequential_1_lstm_1_while_cond_frozen_2420(%arg0: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "sequential_1/lstm_1/Max"}, %arg2: tensor<i32>, %arg3: tensor<!tf_type.variant>, %arg4: tensor<2x4xf32>, %arg5: tensor<2x4xf32>, %arg6: tensor<*x!tf_type.variant>, %arg7: tensor<*xf32>, %arg8: tensor<*xf32>, %arg9: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Less"(%arg2, %outputs) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Less"(%arg0, %arg1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.LogicalAnd"(%outputs_2, %outputs_0) {device = ""} : (tensor<*xi1>, tensor<*xi1>) -> tensor<*xi1>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Identity"(%outputs_4) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_6 : tensor<*xi1>
    }
    return %0 : tensor<*xi1>
  }
}
