module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_60(%arg0: tensor<?x6xf32> {tf._user_specified_name = "x"}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal"}} {
    %0:11 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[1, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.ExpandDims"(%arg0, %outputs_0) {device = ""} : (tensor<?x6xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Squeeze"(%outputs_40) <{squeeze_dims = [1]}> {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.AddV2"(%outputs_42, %outputs_12) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Identity"(%outputs_44) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Neg"(%arg0) {device = ""} : (tensor<?x6xf32>) -> tensor<*xf32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Pack"(%arg0, %outputs_48) <{axis = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Identity"(%outputs_50) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Neg"(%arg0) {device = ""} : (tensor<?x6xf32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.ConcatV2"(%arg0, %outputs_54, %outputs_16) {device = ""} : (tensor<?x6xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_58:2, %control_59 = tf_executor.island wraps "tf.Split"(%outputs_20, %outputs_56) {device = ""} : (tensor<i32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xf32>)
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Sub"(%outputs_58#0, %outputs_58#1) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Identity"(%outputs_60) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.Reshape"(%arg0, %outputs_6) {device = ""} : (tensor<?x6xf32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Identity"(%outputs_64) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x6xf32>) -> tensor<*xi32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.StridedSlice"(%outputs_68, %outputs_24, %outputs_26, %outputs_28) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.Pack"(%outputs_70, %outputs_2, %outputs_4) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Reshape"(%arg0, %outputs_72) {device = ""} : (tensor<?x6xf32>, tensor<*xi32>) -> tensor<*xf32>
      %outputs_76, %control_77 = tf_executor.island wraps "tf.Identity"(%outputs_74) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Sub"(%outputs_70, %outputs_36) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_80, %control_81 = tf_executor.island wraps "tf.Pack"(%outputs_78, %outputs_10) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_82, %control_83 = tf_executor.island wraps "tf.Slice"(%arg0, %outputs_8, %outputs_80) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<*xi32>) -> tensor<*xf32>
      %outputs_84, %control_85 = tf_executor.island wraps "tf.Identity"(%outputs_82) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_86, %control_87 = tf_executor.island wraps "tf.Mul"(%arg0, %outputs_18) {device = ""} : (tensor<?x6xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_88, %control_89 = tf_executor.island wraps "tf.ConcatV2"(%arg0, %outputs_86, %outputs_14) {device = ""} : (tensor<?x6xf32>, tensor<*xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_90, %control_91 = tf_executor.island wraps "tf.Identity"(%outputs_88) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_92, %control_93 = tf_executor.island wraps "tf.Shape"(%outputs_88) {device = ""} : (tensor<*xf32>) -> tensor<*xi32>
      %outputs_94, %control_95 = tf_executor.island wraps "tf.Identity"(%outputs_92) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_96:2, %control_97 = tf_executor.island wraps "tf.SplitV"(%arg0, %outputs, %outputs_22) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<*xf32>, tensor<*xf32>)
      %outputs_98, %control_99 = tf_executor.island wraps "tf.Identity"(%outputs_96#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_100, %control_101 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_30, %outputs_32, %outputs_34) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_102, %control_103 = tf_executor.island wraps "tf.Identity"(%outputs_100) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_104, %control_105 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_38) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_106, %control_107 = tf_executor.island wraps "tf.Identity"(%outputs_104) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_76, %outputs_84, %outputs_102, %outputs_90, %outputs_46, %outputs_106, %outputs_52, %outputs_66, %outputs_94, %outputs_62, %outputs_98 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8, %0#9, %0#10 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<*xf32>
  }
}
