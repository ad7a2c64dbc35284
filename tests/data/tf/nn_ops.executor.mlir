module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_983(%arg0: tensor<1x5x5x2xf32>, %arg1: tensor<2x3x3xf32>, %arg2: tensor<4xi32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,m,idx", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal,identity_16_RetVal"}} {
    %0:17 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>}> {device = ""} : () -> tensor<3xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.BroadcastTo"(%outputs_0, %outputs) {device = ""} : (tensor<3xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Identity"(%outputs_2) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Fill"(%outputs_10, %outputs_12) {device = ""} : (tensor<1xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.940978289, -0.44803372, 0.789580404], [-0.276288956, -0.375917971, 0.762578368], [-0.869006514, 0.733310222, 0.655535221], [0.789429664, -0.880485475, -0.522388816], [0.550307214, -0.126299828, -0.989373683], [0.385239244, 0.59953934, 0.947249889], [-0.698671758, -0.496090055, 0.682721197]]> : tensor<7x3xf32>}> {device = ""} : () -> tensor<7x3xf32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0, 0], [1, 2], [0, 1]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 2, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<[[[[7.632870e-02, -0.313458264], [-0.261865526, -0.251006454]], [[0.974889993, 0.265512556], [0.348647863, -0.340073079]], [[0.359835327, -0.754055262], [-0.896541535, 0.700382709]]], [[[-0.982208371, 0.957535147], [0.654006063, 0.570421934]], [[-0.903833031, -0.585121453], [0.69973129, -0.135010377]], [[0.254935861, -0.755435228], [-0.627327382, -0.00546417432]]], [[[0.518933177, 0.07971441], [-0.786239862, 0.732372165]], [[-0.720682203, -0.120684482], [0.173698947, -0.361700982]], [[-0.163891673, 0.773928999], [-0.0917285978, 0.0784942284]]]]> : tensor<3x3x2x2xf32>}> {device = ""} : () -> tensor<3x3x2x2xf32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.GatherV2"(%outputs_18, %arg2, %outputs_16) <{batch_dims = 0 : i64}> {device = ""} : (tensor<7x3xf32>, tensor<4xi32>, tensor<i32>) -> tensor<*xf32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Identity"(%outputs_32) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Cumsum"(%arg1, %outputs_8) <{exclusive = false, reverse = false}> {device = ""} : (tensor<2x3x3xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Identity"(%outputs_36) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.LogSoftmax"(%arg1) {device = ""} : (tensor<2x3x3xf32>) -> tensor<*xf32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Identity"(%outputs_40) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.PadV2"(%arg1, %outputs_22, %outputs_20) {device = ""} : (tensor<2x3x3xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<*xf32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Identity"(%outputs_44) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Reshape"(%arg1, %outputs_24) {device = ""} : (tensor<2x3x3xf32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_50:2, %control_51 = tf_executor.island wraps "tf.TopKV2"(%outputs_48, %outputs_28) <{sorted = true}> {device = ""} : (tensor<*xf32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xi32>)
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Identity"(%outputs_50#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Identity"(%outputs_50#1) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Selu"(%arg1) {device = ""} : (tensor<2x3x3xf32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Identity"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Tile"(%arg1, %outputs_26) {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Identity"(%outputs_60) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Const"() <{value = dense<-1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.Const"() <{value = dense<7> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.OneHot"(%arg2, %outputs_68, %outputs_64, %outputs_66) <{axis = -1 : i64}> {device = ""} : (tensor<4xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<*xf32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.Identity"(%outputs_70) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_76:2, %control_77 = tf_executor.island wraps "tf.SplitV"(%arg1, %outputs_6, %outputs_74) {device = ""} : (tensor<2x3x3xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Identity"(%outputs_76#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_80, %control_81 = tf_executor.island wraps "tf.Identity"(%outputs_76#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_82, %control_83 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_84, %control_85 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 2, 0]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_86, %control_87 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_88, %control_89 = tf_executor.island wraps "tf.StridedSlice"(%arg1, %outputs_82, %outputs_84, %outputs_86) <{begin_mask = 7 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_90:2, %control_91 = tf_executor.island wraps "tf.Unpack"(%outputs_88) <{axis = 1 : i64}> {device = ""} : (tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
      %outputs_92, %control_93 = tf_executor.island wraps "tf.AddV2"(%outputs_90#0, %outputs_90#1) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_94, %control_95 = tf_executor.island wraps "tf.Identity"(%outputs_92) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_96, %control_97 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 2, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_98, %control_99 = tf_executor.island wraps "tf.Transpose"(%arg1, %outputs_96) {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_100, %control_101 = tf_executor.island wraps "tf.BatchMatMulV2"(%arg1, %outputs_98) <{adj_x = false, adj_y = false, grad_x = false, grad_y = false}> {device = ""} : (tensor<2x3x3xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_102, %control_103 = tf_executor.island wraps "tf.Identity"(%outputs_100) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_104, %control_105 = tf_executor.island wraps "tf.AvgPool"(%arg0) <{data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]}> {device = ""} : (tensor<1x5x5x2xf32>) -> tensor<*xf32>
      %outputs_106, %control_107 = tf_executor.island wraps "tf.Identity"(%outputs_104) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_108, %control_109 = tf_executor.island wraps "tf.DepthwiseConv2dNative"(%arg0, %outputs_30) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1]}> {device = ""} : (tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>) -> tensor<*xf32>
      %outputs_110, %control_111 = tf_executor.island wraps "tf.Identity"(%outputs_108) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_112, %control_113 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<4xi32>}> {device = ""} : () -> tensor<4xi32>
      %outputs_114, %control_115 = tf_executor.island wraps "tf.AddV2"(%outputs_112, %outputs_14) {device = ""} : (tensor<4xi32>, tensor<*xi32>) -> tensor<*xi32>
      %outputs_116, %control_117 = tf_executor.island wraps "tf.Identity"(%outputs_114) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      tf_executor.fetch %outputs_110, %outputs_106, %outputs_102, %outputs_62, %outputs_46, %outputs_72, %outputs_116, %outputs_94, %outputs_4, %outputs_34, %outputs_78, %outputs_80, %outputs_42, %outputs_58, %outputs_38, %outputs_52, %outputs_54 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9, %0#10, %0#11, %0#12, %0#13, %0#14, %0#15, %0#16 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
  }
}
