// fuzz seed 11 index 2482 (from tf/strided_slices.executor.mlir): a shape operand of 2^31 entries was read into a Python list (a hang); lists of axes, shapes and paddings are at most 4096 long
// expect: error "'tf.StridedSlice': a shape of 2147483648 entries (at most 4096)"
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_90(%arg0: tensor<?x6x4xf32> {tf._user_specified_name = "x"}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal"}} {
    %0:11 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Pack"(%outputs) <{axis = 0 : i64}> {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Pack"(%outputs_2) <{axis = 0 : i64}> {device = ""} : (tensor<i32>) -> tensor<*xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Pack"(%outputs_8, %outputs_10) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Const"() <{value = dense<-2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, -3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_76, %control_77 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2147483648xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_80, %control_81 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_82, %control_83 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_84, %control_85 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_86, %control_87 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_88, %control_89 = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_90, %control_91 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x6x4xf32>) -> tensor<*xi32>
      %outputs_92, %control_93 = tf_executor.island wraps "tf.StridedSlice"(%outputs_90, %outputs_28, %outputs_30, %outputs_32) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_94, %control_95 = tf_executor.island wraps "tf.Neg"(%outputs_92) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_96, %control_97 = tf_executor.island wraps "tf.AddV2"(%outputs_94, %outputs_16) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_98, %control_99 = tf_executor.island wraps "tf.Pack"(%outputs_96, %outputs_40) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_100, %control_101 = tf_executor.island wraps "tf.FloorDiv"(%outputs_92, %outputs_20) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_102, %control_103 = tf_executor.island wraps "tf.Pack"(%outputs_100) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_104, %control_105 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_0, %outputs_102, %outputs_4) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>) -> tensor<*xf32>
      %outputs_106, %control_107 = tf_executor.island wraps "tf.Identity"(%outputs_104) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_108, %control_109 = tf_executor.island wraps "tf.Pack"(%outputs_6, %outputs_92) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_110, %control_111 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_98, %outputs_108, %outputs_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>) -> tensor<*xf32>
      %outputs_112, %control_113 = tf_executor.island wraps "tf.Identity"(%outputs_110) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_114, %control_115 = tf_executor.island wraps "tf.Sub"(%outputs_92, %outputs_86) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_116, %control_117 = tf_executor.island wraps "tf.AddV2"(%outputs_114, %outputs_14) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_118, %control_119 = tf_executor.island wraps "tf.Pack"(%outputs_116) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_120, %control_121 = tf_executor.island wraps "tf.Pack"(%outputs_114) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_122, %control_123 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_120, %outputs_118, %outputs_84) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<*xi32>, tensor<*xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_124, %control_125 = tf_executor.island wraps "tf.Identity"(%outputs_122) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_126, %control_127 = tf_executor.island wraps "tf.Sub"(%outputs_92, %outputs_88) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_128, %control_129 = tf_executor.island wraps "tf.AddV2"(%outputs_126, %outputs_18) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_130, %control_131 = tf_executor.island wraps "tf.Pack"(%outputs_44, %outputs_128) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_132, %control_133 = tf_executor.island wraps "tf.Pack"(%outputs_42, %outputs_126) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_134, %control_135 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_132, %outputs_130, %outputs_46) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<*xi32>, tensor<*xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_136, %control_137 = tf_executor.island wraps "tf.Identity"(%outputs_134) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_138, %control_139 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x6x4xf32>) -> tensor<*xi32>
      %outputs_140, %control_141 = tf_executor.island wraps "tf.StridedSlice"(%outputs_138, %outputs_78, %outputs_80, %outputs_82) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_142, %control_143 = tf_executor.island wraps "tf.Range"(%outputs_26, %outputs_140, %outputs_24) {device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_144, %control_145 = tf_executor.island wraps "tf.Mul"(%outputs_142, %outputs_22) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_146, %control_147 = tf_executor.island wraps "tf.Identity"(%outputs_144) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_148, %control_149 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_34, %outputs_36, %outputs_38) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_150, %control_151 = tf_executor.island wraps "tf.Identity"(%outputs_148) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_152, %control_153 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_48, %outputs_50, %outputs_52) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_154, %control_155 = tf_executor.island wraps "tf.Identity"(%outputs_152) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_156, %control_157 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_54, %outputs_56, %outputs_58) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_158, %control_159 = tf_executor.island wraps "tf.Identity"(%outputs_156) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_160, %control_161 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_60, %outputs_62, %outputs_64) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_162, %control_163 = tf_executor.island wraps "tf.Identity"(%outputs_160) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_164, %control_165 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_66, %outputs_68, %outputs_70) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_166, %control_167 = tf_executor.island wraps "tf.Identity"(%outputs_164) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_168, %control_169 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_72, %outputs_74, %outputs_76) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_170, %control_171 = tf_executor.island wraps "tf.Identity"(%outputs_168) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_150, %outputs_154, %outputs_158, %outputs_162, %outputs_166, %outputs_170, %outputs_146, %outputs_106, %outputs_124, %outputs_112, %outputs_136 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9, %0#10 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
}
