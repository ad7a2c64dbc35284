module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_90(%arg0: tensor<?x6x4xf32> {tf._user_specified_name = "x"}) -> (tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>, tensor<?x6x4xf32>, tensor<6x4xf32>, tensor<?x?x4xf32>, tensor<?x4xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<[0, -1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_1 = "tf.Const"() <{value = dense<[0, -3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_2 = "tf.Const"() <{value = dense<-2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_3 = "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_4 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_5 = "tf.Const"() <{value = dense<[0, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_6 = "tf.Const"() <{value = dense<[0, 1]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_7 = "tf.Const"() <{value = dense<0> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_8 = "tf.Const"() <{value = dense<1> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_9 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_10 = "tf.Const"() <{value = dense<[-1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_11 = "tf.Const"() <{value = dense<[1, 0]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_12 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_13 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_14 = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_15 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_16 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x6x4xf32>) -> tensor<3xi32>
    %1 = "tf.StridedSlice"(%0, %cst_13, %cst_12, %cst_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<3xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %2 = "tf.Sub"(%cst_15, %1) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = "tf.Pack"(%2, %cst_15) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %4 = "tf.FloorDiv"(%1, %cst_14) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %5 = "tf.Pack"(%4) <{axis = 0 : i64}> {device = ""} : (tensor<i32>) -> tensor<1xi32>
    %6 = "tf.StridedSlice"(%arg0, %cst_13, %5, %cst_12) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<?x6x4xf32>) -> tensor<?x6x4xf32>
    %8 = "tf.Pack"(%cst_16, %1) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %9 = "tf.StridedSlice"(%arg0, %3, %8, %cst_8) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?x4xf32>
    %10 = "tf.Identity"(%9) {device = ""} : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
    %11 = "tf.Sub"(%1, %cst_15) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %12 = "tf.AddV2"(%11, %cst_15) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %13 = "tf.Pack"(%12) <{axis = 0 : i64}> {device = ""} : (tensor<i32>) -> tensor<1xi32>
    %14 = "tf.Pack"(%11) <{axis = 0 : i64}> {device = ""} : (tensor<i32>) -> tensor<1xi32>
    %15 = "tf.StridedSlice"(%arg0, %14, %13, %cst_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    %16 = "tf.Identity"(%15) {device = ""} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    %17 = "tf.Sub"(%1, %cst) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %18 = "tf.AddV2"(%17, %cst_15) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %19 = "tf.Pack"(%cst_16, %18) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %20 = "tf.Pack"(%cst_16, %17) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<2xi32>
    %21 = "tf.StridedSlice"(%arg0, %20, %19, %cst_8) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %23 = "tf.Range"(%cst_16, %1, %cst_15) {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
    %24 = "tf.Mul"(%23, %cst_14) {device = ""} : (tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
    %25 = "tf.Identity"(%24) {device = ""} : (tensor<?xi32>) -> tensor<?xi32>
    %26 = "tf.StridedSlice"(%arg0, %cst_11, %cst_10, %cst_9) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3x4xf32>
    %27 = "tf.Identity"(%26) {device = ""} : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
    %28 = "tf.StridedSlice"(%arg0, %cst_7, %cst_6, %cst_8) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
    %29 = "tf.Identity"(%28) {device = ""} : (tensor<?x6xf32>) -> tensor<?x6xf32>
    %30 = "tf.StridedSlice"(%arg0, %cst_5, %cst_4, %cst_3) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x1x4x4xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<?x1x4x4xf32>) -> tensor<?x1x4x4xf32>
    %32 = "tf.StridedSlice"(%arg0, %cst_2, %cst_13, %cst_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %33 = "tf.Identity"(%32) {device = ""} : (tensor<?x6x4xf32>) -> tensor<?x6x4xf32>
    %34 = "tf.StridedSlice"(%arg0, %cst_1, %cst_0, %cst_8) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %35 = "tf.Identity"(%34) {device = ""} : (tensor<?x2x4xf32>) -> tensor<?x2x4xf32>
    %36 = "tf.StridedSlice"(%arg0, %cst_13, %cst_12, %cst_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    %37 = "tf.Identity"(%36) {device = ""} : (tensor<6x4xf32>) -> tensor<6x4xf32>
    return %27, %29, %31, %33, %35, %37, %25, %7, %16, %10, %22 : tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>, tensor<?x6x4xf32>, tensor<6x4xf32>, tensor<?x?x4xf32>, tensor<?x4xf32>
  }
}
