// fuzz seed 13 index 14118: NonMaxSuppressionV4 padded to max_output_size 2^31 - 1 allocated an 8 GiB constant (MemoryError)
// expect: error "max_output_size 2147483647 to pad to is out of range"
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_25(%arg0: tensor<24x4xf32> {tf._user_specified_name = "boxes"}, %arg1: tensor<24xf32> {tf._user_specified_name = "scores"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "boxes,scores", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal"}} {
    %0:5 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<2147483647> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<20> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<3.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<24> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<0xFF800000> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_18:2, %control_19 = tf_executor.island wraps "tf.NonMaxSuppressionV4"(%arg0, %arg1, %outputs_0, %outputs, %outputs_2) <{pad_to_max_output_size = true}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<*xi32>, tensor<*xi32>)
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Identity"(%outputs_18#0) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%outputs_18#1) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.NonMaxSuppressionV3"(%arg0, %arg1, %outputs_4, %outputs_6, %outputs_8) {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<*xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Identity"(%outputs_24) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_28:3, %control_29 = tf_executor.island wraps "tf.NonMaxSuppressionV5"(%arg0, %arg1, %outputs_10, %outputs_12, %outputs_14, %outputs_16) <{pad_to_max_output_size = false}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<*xi32>, tensor<*xf32>, tensor<*xi32>)
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Identity"(%outputs_28#0) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Identity"(%outputs_28#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_26, %outputs_20, %outputs_22, %outputs_30, %outputs_32 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>
  }
}
