module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_615(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}, %arg1: tensor<?xi32> {tf._user_specified_name = "k"}) -> (tensor<?xi32>, tensor<?xi32>, tensor<?x1xi64>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %y, %idx = "tf.Unique"(%arg1) {device = ""} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %0 = "tf.Identity"(%y) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %1 = "tf.Identity"(%idx) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %2 = "tf.Greater"(%arg0, %cst) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xi1>
    %3 = "tf.Where"(%2) {device = ""} : (tensor<?xi1>) -> tensor<?x1xi64>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<?x1xi64>) -> tensor<?x1xi64>
    return %0, %1, %4 : tensor<?xi32>, tensor<?xi32>, tensor<?x1xi64>
  }
}
