module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_615(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}, %arg1: tensor<?xi32> {tf._user_specified_name = "k"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi64>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal"}} {
    %0:3 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_0:2, %control_1 = tf_executor.island wraps "tf.Unique"(%arg1) {device = ""} : (tensor<?xi32>) -> (tensor<*xi32>, tensor<*xi32>)
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0#0) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Identity"(%outputs_0#1) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Greater"(%arg0, %outputs) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<*xi1>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Where"(%outputs_6) {device = ""} : (tensor<*xi1>) -> tensor<*xi64>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%outputs_8) {device = ""} : (tensor<*xi64>) -> tensor<*xi64>
      tf_executor.fetch %outputs_2, %outputs_4, %outputs_10 : tensor<*xi32>, tensor<*xi32>, tensor<*xi64>
    }
    return %0#0, %0#1, %0#2 : tensor<*xi32>, tensor<*xi32>, tensor<*xi64>
  }
}
