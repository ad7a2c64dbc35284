module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_983(%arg0: tensor<1x5x5x2xf32>, %arg1: tensor<2x3x3xf32>, %arg2: tensor<4xi32>) -> (tensor<1x5x5x4xf32>, tensor<1x3x3x2xf32>, tensor<2x3x3xf32>, tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<4x7xf32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<2x2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<3xf32>, tensor<3xi32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,m,idx", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal,identity_9_RetVal,identity_10_RetVal,identity_11_RetVal,identity_12_RetVal,identity_13_RetVal,identity_14_RetVal,identity_15_RetVal,identity_16_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<3> : tensor<4xi32>}> : () -> tensor<4xi32>
    %cst_0 = "tf.Const"() <{value = dense<[0, 2, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_1 = "tf.Const"() <{value = dense<1> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_2 = "tf.Const"() <{value = dense<[0, 2, 0]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_3 = "tf.Const"() <{value = dense<0> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_4 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_5 = "tf.Const"() <{value = dense<7> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_6 = "tf.Const"() <{value = dense<-1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_7 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_8 = "tf.Const"() <{value = dense<[[[[7.632870e-02, -0.313458264], [-0.261865526, -0.251006454]], [[0.974889993, 0.265512556], [0.348647863, -0.340073079]], [[0.359835327, -0.754055262], [-0.896541535, 0.700382709]]], [[[-0.982208371, 0.957535147], [0.654006063, 0.570421934]], [[-0.903833031, -0.585121453], [0.69973129, -0.135010377]], [[0.254935861, -0.755435228], [-0.627327382, -0.00546417432]]], [[[0.518933177, 0.07971441], [-0.786239862, 0.732372165]], [[-0.720682203, -0.120684482], [0.173698947, -0.361700982]], [[-0.163891673, 0.773928999], [-0.0917285978, 0.0784942284]]]]> : tensor<3x3x2x2xf32>}> {device = ""} : () -> tensor<3x3x2x2xf32>
    %cst_9 = "tf.Const"() <{value = dense<[1, 2, 1]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
    %cst_10 = "tf.Const"() <{value = dense<-1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_11 = "tf.Const"() <{value = dense<[[0, 0], [1, 2], [0, 1]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
    %cst_12 = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_13 = "tf.Const"() <{value = dense<[[0.940978289, -0.44803372, 0.789580404], [-0.276288956, -0.375917971, 0.762578368], [-0.869006514, 0.733310222, 0.655535221], [0.789429664, -0.880485475, -0.522388816], [0.550307214, -0.126299828, -0.989373683], [0.385239244, 0.59953934, 0.947249889], [-0.698671758, -0.496090055, 0.682721197]]> : tensor<7x3xf32>}> {device = ""} : () -> tensor<7x3xf32>
    %cst_14 = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_15 = "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_16 = "tf.Const"() <{value = dense<2> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_17 = "tf.Const"() <{value = dense<[1, 2]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_18 = "tf.Const"() <{value = dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
    %0 = "tf.Identity"(%cst_18) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %1 = "tf.GatherV2"(%cst_13, %arg2, %cst_14) <{batch_dims = 0 : i64}> {device = ""} : (tensor<7x3xf32>, tensor<4xi32>, tensor<i32>) -> tensor<4x3xf32>
    %2 = "tf.Identity"(%1) {device = ""} : (tensor<4x3xf32>) -> tensor<4x3xf32>
    %3 = "tf.Cumsum"(%arg1, %cst_16) <{exclusive = false, reverse = false}> {device = ""} : (tensor<2x3x3xf32>, tensor<i32>) -> tensor<2x3x3xf32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %5 = "tf.LogSoftmax"(%arg1) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %6 = "tf.Identity"(%5) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %7 = "tf.PadV2"(%arg1, %cst_11, %cst_12) {device = ""} : (tensor<2x3x3xf32>, tensor<3x2xi32>, tensor<f32>) -> tensor<2x6x4xf32>
    %8 = "tf.Identity"(%7) {device = ""} : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
    %9 = "tf.Reshape"(%arg1, %cst_10) {device = ""} : (tensor<2x3x3xf32>, tensor<1xi32>) -> tensor<18xf32>
    %values, %indices = "tf.TopKV2"(%9, %cst_15) <{sorted = true}> {device = ""} : (tensor<18xf32>, tensor<i32>) -> (tensor<3xf32>, tensor<3xi32>)
    %10 = "tf.Identity"(%values) {device = ""} : (tensor<3xf32>) -> tensor<3xf32>
    %11 = "tf.Identity"(%indices) {device = ""} : (tensor<3xi32>) -> tensor<3xi32>
    %12 = "tf.Selu"(%arg1) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %13 = "tf.Identity"(%12) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %14 = "tf.Tile"(%arg1, %cst_9) {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>) -> tensor<2x6x3xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<2x6x3xf32>) -> tensor<2x6x3xf32>
    %16 = "tf.OneHot"(%arg2, %cst_5, %cst_7, %cst_6) <{axis = -1 : i64}> {device = ""} : (tensor<4xi32>, tensor<i32>, tensor<f32>, tensor<f32>) -> tensor<4x7xf32>
    %17 = "tf.Identity"(%16) {device = ""} : (tensor<4x7xf32>) -> tensor<4x7xf32>
    %18:2 = "tf.SplitV"(%arg1, %cst_17, %cst_4) {device = ""} : (tensor<2x3x3xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<2x1x3xf32>, tensor<2x2x3xf32>)
    %19 = "tf.Identity"(%18#0) {device = ""} : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
    %20 = "tf.Identity"(%18#1) {device = ""} : (tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
    %21 = "tf.StridedSlice"(%arg1, %cst_3, %cst_2, %cst_1) <{begin_mask = 7 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x2x3xf32>
    %22:2 = "tf.Unpack"(%21) <{axis = 1 : i64}> {device = ""} : (tensor<2x2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
    %23 = "tf.AddV2"(%22#0, %22#1) {device = ""} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %24 = "tf.Identity"(%23) {device = ""} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %25 = "tf.Transpose"(%arg1, %cst_0) {device = ""} : (tensor<2x3x3xf32>, tensor<3xi32>) -> tensor<2x3x3xf32>
    %26 = "tf.BatchMatMulV2"(%arg1, %25) <{adj_x = false, adj_y = false, grad_x = false, grad_y = false}> {device = ""} : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %27 = "tf.Identity"(%26) {device = ""} : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %28 = "tf.AvgPool"(%arg0) <{data_format = "NHWC", ksize = [1, 3, 3, 1], padding = "SAME", strides = [1, 2, 2, 1]}> {device = ""} : (tensor<1x5x5x2xf32>) -> tensor<1x3x3x2xf32>
    %29 = "tf.Identity"(%28) {device = ""} : (tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
    %30 = "tf.DepthwiseConv2dNative"(%arg0, %cst_8) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1]}> {device = ""} : (tensor<1x5x5x2xf32>, tensor<3x3x2x2xf32>) -> tensor<1x5x5x4xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<1x5x5x4xf32>) -> tensor<1x5x5x4xf32>
    %32 = "tf.Identity"(%cst) {device = ""} : (tensor<4xi32>) -> tensor<4xi32>
    return %31, %29, %27, %15, %8, %17, %32, %24, %0, %2, %19, %20, %6, %13, %4, %10, %11 : tensor<1x5x5x4xf32>, tensor<1x3x3x2xf32>, tensor<2x3x3xf32>, tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<4x7xf32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<2x2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<3xf32>, tensor<3xi32>
  }
}
