module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_440(%arg0: tensor<4x6xf32> {tf._user_specified_name = "x"}) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi32>, tensor<*xi1>, tensor<*xi1>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal"}} {
    %0:9 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<1.500000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<-1.900000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.ArgMax"(%arg0, %outputs_2) {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<*xi64>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Identity"(%outputs_26) {device = ""} : (tensor<*xi64>) -> tensor<*xi64>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.ArgMin"(%arg0, %outputs_4) {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<*xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Identity"(%outputs_30) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Greater"(%arg0, %outputs_8) {device = ""} : (tensor<4x6xf32>, tensor<f32>) -> tensor<*xi1>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Any"(%outputs_34, %outputs_0) <{keep_dims = false}> {device = ""} : (tensor<*xi1>, tensor<i32>) -> tensor<*xi1>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Identity"(%outputs_36) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Greater"(%arg0, %outputs_10) {device = ""} : (tensor<4x6xf32>, tensor<f32>) -> tensor<*xi1>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.All"(%outputs_40, %outputs) <{keep_dims = false}> {device = ""} : (tensor<*xi1>, tensor<i32>) -> tensor<*xi1>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.Identity"(%outputs_42) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Max"(%arg0, %outputs_6) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.Identity"(%outputs_46) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Mean"(%arg0, %outputs_12) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.Identity"(%outputs_50) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Min"(%arg0, %outputs_14) <{keep_dims = true}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.Identity"(%outputs_54) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Sum"(%arg0, %outputs_18) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Identity"(%outputs_58) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.StridedSlice"(%arg0, %outputs_20, %outputs_22, %outputs_24) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.Prod"(%outputs_62, %outputs_16) <{keep_dims = false}> {device = ""} : (tensor<*xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Identity"(%outputs_64) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_60, %outputs_52, %outputs_48, %outputs_56, %outputs_66, %outputs_28, %outputs_32, %outputs_38, %outputs_44 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi32>, tensor<*xi1>, tensor<*xi1>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xi64>, tensor<*xi32>, tensor<*xi1>, tensor<*xi1>
  }
}
