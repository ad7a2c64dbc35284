module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_440(%arg0: tensor<4x6xf32> {tf._user_specified_name = "x"}) -> (tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<4x1xf32>, tensor<f32>, tensor<4xi64>, tensor<6xi32>, tensor<4xi1>, tensor<6xi1>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_2 = "tf.Const"() <{value = dense<1.500000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_3 = "tf.Const"() <{value = dense<-1.900000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<[0, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.ArgMax"(%arg0, %cst_0) {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<4xi64>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<4xi64>) -> tensor<4xi64>
    %2 = "tf.ArgMin"(%arg0, %cst) {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<6xi32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<6xi32>) -> tensor<6xi32>
    %4 = "tf.Greater"(%arg0, %cst_2) {device = ""} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xi1>
    %5 = "tf.Any"(%4, %cst_0) <{keep_dims = false}> {device = ""} : (tensor<4x6xi1>, tensor<i32>) -> tensor<4xi1>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<4xi1>) -> tensor<4xi1>
    %7 = "tf.Greater"(%arg0, %cst_3) {device = ""} : (tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xi1>
    %8 = "tf.All"(%7, %cst) <{keep_dims = false}> {device = ""} : (tensor<4x6xi1>, tensor<i32>) -> tensor<6xi1>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<6xi1>) -> tensor<6xi1>
    %10 = "tf.Max"(%arg0, %cst_1) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<2xi32>) -> tensor<f32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<f32>) -> tensor<f32>
    %12 = "tf.Mean"(%arg0, %cst) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<6xf32>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<6xf32>) -> tensor<6xf32>
    %14 = "tf.Min"(%arg0, %cst_0) <{keep_dims = true}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<4x1xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<4x1xf32>) -> tensor<4x1xf32>
    %16 = "tf.Sum"(%arg0, %cst_0) <{keep_dims = false}> {device = ""} : (tensor<4x6xf32>, tensor<i32>) -> tensor<4xf32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<4xf32>) -> tensor<4xf32>
    %18 = "tf.StridedSlice"(%arg0, %cst_4, %cst_5, %cst_6) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<4x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4x3xf32>
    %19 = "tf.Prod"(%18, %cst_1) <{keep_dims = false}> {device = ""} : (tensor<4x3xf32>, tensor<2xi32>) -> tensor<f32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<f32>) -> tensor<f32>
    return %17, %13, %11, %15, %20, %1, %3, %6, %9 : tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<4x1xf32>, tensor<f32>, tensor<4xi64>, tensor<6xi32>, tensor<4xi1>, tensor<6xi1>
  }
}
