module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_1047(%arg0: tensor<?x6x4xf32> {tf._user_specified_name = "x"}) -> (tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_3 = "tf.Const"() <{value = dense<[-1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_4 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_6 = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<[0, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_9 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_10 = "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_11 = "tf.Const"() <{value = dense<-2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_12 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_13 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_14 = "tf.Const"() <{value = dense<[0, -3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_15 = "tf.Const"() <{value = dense<[0, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x6x4xf32>) -> tensor<3xi32>
    %1 = "tf.StridedSlice"(%0, %cst_12, %cst_13, %cst_13) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %2 = "tf.Range"(%cst_1, %1, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
    %3 = "tf.Mul"(%2, %cst) {device = ""} : (tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %5 = "tf.StridedSlice"(%arg0, %cst_2, %cst_3, %cst_4) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3x4xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
    %7 = "tf.StridedSlice"(%arg0, %cst_5, %cst_6, %cst_7) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %9 = "tf.StridedSlice"(%arg0, %cst_8, %cst_9, %cst_10) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x1x4x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32>
    %11 = "tf.StridedSlice"(%arg0, %cst_11, %cst_12, %cst_13) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<?x6x4xf32>) -> tensor<?x6x4xf32>
    %13 = "tf.StridedSlice"(%arg0, %cst_14, %cst_15, %cst_7) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %14 = "tf.Identity"(%13) {device = ""} : (tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
    %15 = "tf.StridedSlice"(%arg0, %cst_12, %cst_13, %cst_13) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    return %6, %8, %10, %12, %14, %16, %4 : tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>
  }
}
