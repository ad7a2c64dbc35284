module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_1047(%arg0: tensor<?x6x4xf32> {tf._user_specified_name = "x"}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal"}} {
    %0:7 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<[-1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<-2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, -3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x6x4xf32>) -> tensor<*xi32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.StridedSlice"(%outputs_46, %outputs_40, %outputs_42, %outputs_44) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Range"(%outputs_2, %outputs_48, %outputs_0) {device = ""} : (tensor<i32>, tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Mul"(%outputs_50, %outputs) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Identity"(%outputs_52) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_4, %outputs_6, %outputs_8) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Identity"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_10, %outputs_12, %outputs_14) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.Identity"(%outputs_60) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_16, %outputs_18, %outputs_20) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Identity"(%outputs_64) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_22, %outputs_24, %outputs_26) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.Identity"(%outputs_68) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_28, %outputs_30, %outputs_32) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Identity"(%outputs_72) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_76, %control_77 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_34, %outputs_36, %outputs_38) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Identity"(%outputs_76) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_58, %outputs_62, %outputs_66, %outputs_70, %outputs_74, %outputs_78, %outputs_54 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi32>
  }
}
