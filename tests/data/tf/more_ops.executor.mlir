module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_1336(%arg0: tensor<?x4x4x2xf32>, %arg1: tensor<2x3x4xf32>, %arg2: tensor<2x4x5xf32>, %arg3: tensor<3x2xi32>, %arg4: tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "img,a,b,idx,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal"}} {
    %0:7 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[0.0740498379, -0.0426365584]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<[-2.000000e-01, 2.000000e-01]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[5.000000e-01, 1.500000e+00]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<0.707106769> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0, 0], [1, 2], [2, 1]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0, 0], [2, 1], [0, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 3, 4]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Identity"(%arg1) {device = ""} : (tensor<2x3x4xf32>) -> tensor<*xf32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.MirrorPad"(%arg1, %outputs_10) <{mode = "REFLECT"}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<*xf32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%outputs_20) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.MirrorPad"(%arg1, %outputs_12) <{mode = "SYMMETRIC"}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<*xf32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Identity"(%outputs_24) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Identity"(%arg2) {device = ""} : (tensor<2x4x5xf32>) -> tensor<*xf32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Einsum"(%outputs_18, %outputs_28) <{equation = "bij,bjk->bki"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Mul"(%outputs_30, %outputs_14) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Identity"(%outputs_32) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Identity"(%outputs_34) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Identity"(%outputs_36) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.GatherNd"(%arg1, %arg3) <{bad_indices_policy = ""}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<*xf32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Identity"(%outputs_40) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_44:6, %control_45 = tf_executor.island wraps "tf.FusedBatchNormV3"(%arg0, %outputs_2, %outputs_0, %outputs, %outputs_4) <{data_format = "NHWC", epsilon = 1.000000e-03 : f32, exponential_avg_factor = 1.000000e+00 : f32, is_training = false}> {device = ""} : (tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>)
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Neg"(%outputs_44#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Mul"(%outputs_46, %outputs_6) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Erfc"(%outputs_48) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Mul"(%outputs_8, %outputs_44#0) {device = ""} : (tensor<f32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Mul"(%outputs_52, %outputs_50) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Identity"(%outputs_54) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_58:3, %control_59 = tf_executor._SwitchN %arg1, %arg4 of 3 : tensor<*xf32> {T = f32, device = ""}
      %outputs_60:3, %control_61 = tf_executor._SwitchN %arg4, %arg4 of 3 : tensor<*xi32> {T = i32, device = ""}
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Identity"(%outputs_60#0) {_has_manual_control_dependencies = true, device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %control_64 = tf_executor.island(%control_63) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_65, %control_66 = tf_executor.island(%control_64) wraps "tf.Identity"(%outputs_58#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_67, %control_68 = tf_executor.island(%control_64) wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_69, %control_70 = tf_executor.island(%control_64) wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_71, %control_72 = tf_executor.island(%control_64) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_73, %control_74 = tf_executor.island(%control_64) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_75, %control_76 = tf_executor.island wraps "tf.StridedSlice"(%outputs_65, %outputs_69, %outputs_71, %outputs_73) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_77, %control_78 = tf_executor.island wraps "tf.AddV2"(%outputs_75, %outputs_67) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_79, %control_80 = tf_executor.island wraps "tf.Identity"(%outputs_77) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_81, %control_82 = tf_executor.island wraps "tf.Identity"(%outputs_79) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_83, %control_84 = tf_executor.island wraps "tf.Identity"(%outputs_60#1) {_has_manual_control_dependencies = true, device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %control_85 = tf_executor.island(%control_84) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_86, %control_87 = tf_executor.island(%control_85) wraps "tf.Identity"(%outputs_58#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_88, %control_89 = tf_executor.island(%control_85) wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_90, %control_91 = tf_executor.island(%control_85) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_92, %control_93 = tf_executor.island(%control_85) wraps "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_94, %control_95 = tf_executor.island(%control_85) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_96, %control_97 = tf_executor.island wraps "tf.StridedSlice"(%outputs_86, %outputs_90, %outputs_92, %outputs_94) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_98, %control_99 = tf_executor.island wraps "tf.Mul"(%outputs_96, %outputs_88) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_100, %control_101 = tf_executor.island wraps "tf.Identity"(%outputs_98) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_102, %control_103 = tf_executor.island wraps "tf.Identity"(%outputs_100) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_104, %control_105 = tf_executor.island wraps "tf.Identity"(%outputs_60#2) {_has_manual_control_dependencies = true, device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %control_106 = tf_executor.island(%control_105) wraps "tf.NoOp"() {_has_manual_control_dependencies = true, device = ""} : () -> ()
      %outputs_107, %control_108 = tf_executor.island(%control_106) wraps "tf.Identity"(%outputs_58#2) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_109, %control_110 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_111, %control_112 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_113, %control_114 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_115, %control_116 = tf_executor.island wraps "tf.StridedSlice"(%outputs_107, %outputs_109, %outputs_111, %outputs_113) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_117, %control_118 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_119, %control_120 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_121, %control_122 = tf_executor.island(%control_106) wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_123, %control_124 = tf_executor.island wraps "tf.StridedSlice"(%outputs_107, %outputs_117, %outputs_119, %outputs_121) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_125, %control_126 = tf_executor.island wraps "tf.Sub"(%outputs_115, %outputs_123) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_127, %control_128 = tf_executor.island wraps "tf.Identity"(%outputs_125) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_129, %control_130 = tf_executor.island wraps "tf.Identity"(%outputs_127) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %output, %value_index, %control_131 = tf_executor.Merge %outputs_81, %outputs_102, %outputs_129 : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>, !tf_executor.control) {N = 3 : i64, T = f32, device = ""}
      %outputs_132, %control_133 = tf_executor.island wraps "tf.Identity"(%output) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_134, %control_135 = tf_executor.island wraps "tf.Identity"(%outputs_132) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_136, %control_137 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
      %outputs_138, %control_139 = tf_executor.island wraps "tf.ScatterNd"(%arg3, %outputs_136, %outputs_16) <{bad_indices_policy = ""}> {device = ""} : (tensor<3x2xi32>, tensor<3x4xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_140, %control_141 = tf_executor.island wraps "tf.Identity"(%outputs_138) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_56, %outputs_38, %outputs_42, %outputs_140, %outputs_22, %outputs_26, %outputs_134 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
}
