module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_25(%arg0: tensor<24x4xf32> {tf._user_specified_name = "boxes"}, %arg1: tensor<24xf32> {tf._user_specified_name = "scores"}) -> (tensor<?xi32>, tensor<5xi32>, tensor<i32>, tensor<?xi32>, tensor<?xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "boxes,scores", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<1.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_2 = "tf.Const"() <{value = dense<20> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<3.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_4 = "tf.Const"() <{value = dense<2.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_5 = "tf.Const"() <{value = dense<24> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_6 = "tf.Const"() <{value = dense<0xFF800000> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_7 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %selected_indices, %valid_outputs = "tf.NonMaxSuppressionV4"(%arg0, %arg1, %cst_0, %cst, %cst_1) <{pad_to_max_output_size = true}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<5xi32>, tensor<i32>)
    %0 = "tf.Identity"(%selected_indices) {device = ""} : (tensor<5xi32>) -> tensor<5xi32>
    %1 = "tf.Identity"(%valid_outputs) {device = ""} : (tensor<i32>) -> tensor<i32>
    %selected_indices_8, %valid_outputs_9 = "tf.NonMaxSuppressionV4"(%arg0, %arg1, %cst_2, %cst_3, %cst_4) <{pad_to_max_output_size = false}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<?xi32>, tensor<i32>)
    %2 = "tf.Identity"(%selected_indices_8) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %selected_indices_10, %selected_scores, %valid_outputs_11 = "tf.NonMaxSuppressionV5"(%arg0, %arg1, %cst_5, %cst_4, %cst_6, %cst_7) <{pad_to_max_output_size = false}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<?xi32>, tensor<?xf32>, tensor<i32>)
    %3 = "tf.Identity"(%selected_indices_10) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %4 = "tf.Identity"(%selected_scores) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    return %2, %0, %1, %3, %4 : tensor<?xi32>, tensor<5xi32>, tensor<i32>, tensor<?xi32>, tensor<?xf32>
  }
}
