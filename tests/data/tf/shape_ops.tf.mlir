module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_60(%arg0: tensor<?x6xf32> {tf._user_specified_name = "x"}) -> (tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>, tensor<?x6xf32>, tensor<?x6xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<[1, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_2 = "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_3 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_4 = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_5 = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_6 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_7 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_8 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_9 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_10 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_11 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_12 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %0 = "tf.ExpandDims"(%arg0, %cst_0) {device = ""} : (tensor<?x6xf32>, tensor<i32>) -> tensor<?x1x6xf32>
    %1 = "tf.Squeeze"(%0) <{squeeze_dims = [1]}> {device = ""} : (tensor<?x1x6xf32>) -> tensor<?x6xf32>
    %2 = "tf.AddV2"(%1, %cst_6) {device = ""} : (tensor<?x6xf32>, tensor<f32>) -> tensor<?x6xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %4 = "tf.Neg"(%arg0) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %5 = "tf.Pack"(%arg0, %4) <{axis = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<2x?x6xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x?x6xf32>) -> tensor<2x?x6xf32>
    %7 = "tf.ConcatV2"(%arg0, %4, %cst_7) {device = ""} : (tensor<?x6xf32>, tensor<?x6xf32>, tensor<i32>) -> tensor<?x6xf32>
    %8:2 = "tf.Split"(%cst_7, %7) {device = ""} : (tensor<i32>, tensor<?x6xf32>) -> (tensor<?x6xf32>, tensor<?x6xf32>)
    %9 = "tf.Sub"(%8#0, %8#1) {device = ""} : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %11 = "tf.Reshape"(%arg0, %cst_3) {device = ""} : (tensor<?x6xf32>, tensor<1xi32>) -> tensor<?xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    %13 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x6xf32>) -> tensor<2xi32>
    %14 = "tf.StridedSlice"(%13, %cst_9, %cst_10, %cst_10) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<2xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %15 = "tf.Pack"(%14, %cst_1, %cst_2) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3xi32>
    %16 = "tf.Reshape"(%arg0, %15) {device = ""} : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x2x3xf32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<?x2x3xf32>) -> tensor<?x2x3xf32>
    %18 = "tf.Sub"(%14, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %19 = "tf.Pack"(%18, %cst_5) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %20 = "tf.Slice"(%arg0, %cst_4, %19) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    %21 = "tf.Identity"(%20) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %22 = "tf.Mul"(%arg0, %cst_8) {device = ""} : (tensor<?x6xf32>, tensor<f32>) -> tensor<?x6xf32>
    %23 = "tf.ConcatV2"(%arg0, %22, %cst_0) {device = ""} : (tensor<?x6xf32>, tensor<?x6xf32>, tensor<i32>) -> tensor<?x12xf32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<?x12xf32>) -> tensor<?x12xf32>
    %25 = "tf.Shape"(%23) {device = ""} : (tensor<?x12xf32>) -> tensor<2xi32>
    %26 = "tf.Identity"(%25) {device = ""} : (tensor<2xi32>) -> tensor<2xi32>
    %27:2 = "tf.SplitV"(%arg0, %cst, %cst_7) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<1x6xf32>, tensor<?x6xf32>)
    %28 = "tf.Identity"(%27#1) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %29 = "tf.StridedSlice"(%arg0, %cst_11, %cst_11, %cst_12) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
    %30 = "tf.Identity"(%29) {device = ""} : (tensor<?x3xf32>) -> tensor<?x3xf32>
    %31 = "tf.Transpose"(%arg0, %cst_4) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>) -> tensor<6x?xf32>
    %32 = "tf.Identity"(%31) {device = ""} : (tensor<6x?xf32>) -> tensor<6x?xf32>
    return %17, %21, %30, %24, %3, %32, %6, %12, %26, %10, %28 : tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>, tensor<?x6xf32>, tensor<?x6xf32>
  }
}
