module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_393(%arg0: tensor<3x5xf32> {tf._user_specified_name = "x"}, %arg1: tensor<3x5xf32> {tf._user_specified_name = "y"}, %arg2: tensor<3x5xi32> {tf._user_specified_name = "k"}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,y,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal"}} {
    %0:6 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<2.500000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Cast"(%arg2) <{Truncate = false}> {device = ""} : (tensor<3x5xi32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.FloorMod"(%arg2, %outputs) {device = ""} : (tensor<3x5xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.FloorDiv"(%arg2, %outputs_12) {device = ""} : (tensor<3x5xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.AddV2"(%outputs_18, %outputs_16) {device = ""} : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<4.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Abs"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.AddV2"(%outputs_24, %outputs_10) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Rsqrt"(%outputs_26) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Abs"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.AddV2"(%outputs_30, %outputs_6) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Exp"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Greater"(%arg0, %outputs_0) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<*xi1>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Cast"(%outputs_36) <{Truncate = false}> {device = ""} : (tensor<*xi1>) -> tensor<*xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.AddV2"(%outputs_20, %outputs_38) {device = ""} : (tensor<*xi32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Identity"(%outputs_40) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.LeakyRelu"(%arg0) <{alpha = 2.000000e-01 : f32}> {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Minimum"(%arg0, %outputs_2) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Tanh"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Mul"(%arg0, %outputs_22) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Relu6"(%outputs_50) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Abs"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.AddV2"(%outputs_54, %outputs_4) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Log"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.AddV2"(%outputs_34, %outputs_58) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Abs"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.AddV2"(%outputs_62, %outputs_8) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.RealDiv"(%outputs_14, %outputs_64) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.Elu"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.AddV2"(%outputs_52, %outputs_68) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.AddV2"(%outputs_70, %outputs_44) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Greater"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xi1>
      %outputs_76, %control_77 = tf_executor.island wraps "tf.Maximum"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Sub"(%outputs_76, %outputs_46) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_80, %control_81 = tf_executor.island wraps "tf.Neg"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_82, %control_83 = tf_executor.island wraps "tf.SelectV2"(%outputs_74, %arg0, %outputs_80) {device = ""} : (tensor<*xi1>, tensor<3x5xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_84, %control_85 = tf_executor.island wraps "tf.AddV2"(%outputs_78, %outputs_82) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_86, %control_87 = tf_executor.island wraps "tf.Identity"(%outputs_84) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_88, %control_89 = tf_executor.island wraps "tf.Pow"(%outputs_32, %arg1) {device = ""} : (tensor<*xf32>, tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_90, %control_91 = tf_executor.island wraps "tf.AddV2"(%outputs_88, %outputs_66) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_92, %control_93 = tf_executor.island wraps "tf.Identity"(%outputs_90) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_94, %control_95 = tf_executor.island wraps "tf.Sigmoid"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_96, %control_97 = tf_executor.island wraps "tf.Mul"(%outputs_48, %outputs_94) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_98, %control_99 = tf_executor.island wraps "tf.Sub"(%outputs_60, %outputs_96) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_100, %control_101 = tf_executor.island wraps "tf.Identity"(%outputs_98) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_102, %control_103 = tf_executor.island wraps "tf.Softplus"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_104, %control_105 = tf_executor.island wraps "tf.AddV2"(%outputs_72, %outputs_102) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_106, %control_107 = tf_executor.island wraps "tf.Identity"(%outputs_104) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_108, %control_109 = tf_executor.island wraps "tf.Square"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_110, %control_111 = tf_executor.island wraps "tf.AddV2"(%outputs_28, %outputs_108) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_112, %control_113 = tf_executor.island wraps "tf.SquaredDifference"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<*xf32>
      %outputs_114, %control_115 = tf_executor.island wraps "tf.AddV2"(%outputs_110, %outputs_112) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_116, %control_117 = tf_executor.island wraps "tf.Identity"(%outputs_114) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_100, %outputs_116, %outputs_86, %outputs_106, %outputs_42, %outputs_92 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>
  }
}
