module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_149(%arg0: tensor<?x4x6x2xf32>) -> (tensor<?x8x12x5xf32>, tensor<?x9x13x5xf32>, tensor<?x4x6x5xf32>, tensor<?x7x5x2xf32>, tensor<?x3x9x2xf32>, tensor<?x6x11x2xf32>, tensor<?x8x4x2xf32>, tensor<?x2x3x2xf32>, tensor<?x5x13x2xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<[6, 11]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_0 = "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_1 = "tf.Const"() <{value = dense<[8, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_2 = "tf.Const"() <{value = dense<[5, 13]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_3 = "tf.Const"() <{value = dense<[[[[-0.742859602, -0.00144427514], [0.202996716, -9.426220e-01], [-0.704147815, 0.856422066], [-0.859158873, -0.74045211], [0.89665693, 0.243767187]], [[-0.262013763, 0.022780044], [0.325685918, -0.449382365], [-0.724063873, 0.57607919], [0.34072116, 0.0247646272], [0.633472859, 0.0981505364]], [[0.961827278, -0.590981066], [0.107460722, -0.0327506065], [-0.293450296, 0.183190614], [-0.529397547, 0.604405344], [0.734667122, -0.742480636]]], [[[-0.0658535883, -0.445710212], [-0.833765983, 0.791888594], [-0.14010261, -0.704617381], [0.346724719, -0.595567942], [0.802862167, -0.565703511]], [[-0.933850646, -0.598462105], [-0.308504254, -0.0621836744], [0.812268674, 0.394722164], [-0.321358681, -0.966245591], [-0.680352628, 0.992871761]], [[-0.0805680379, 0.38207984], [-0.890663862, -0.931899428], [0.69178021, 0.175763875], [-0.382580519, -0.365246713], [-0.821525514, -0.654660821]]], [[[-0.950827777, 0.678249717], [-0.0673936084, -0.745594144], [0.47849375, -0.608694315], [-0.876159548, 0.196784213], [0.791515529, -0.946113169]], [[0.61027199, -0.61965996], [-0.814197182, -0.964075922], [-0.414049864, 0.454223484], [-0.0136420978, 7.058400e-01], [-0.565577388, -0.369634509]], [[-0.483718306, 0.956602275], [8.820120e-01, -0.318627656], [-1.279970e-01, -0.371360749], [0.493017823, -0.91997379], [-0.865122139, -0.191924825]]]]> : tensor<3x3x5x2xf32>}> {device = ""} : () -> tensor<3x3x5x2xf32>
    %cst_4 = "tf.Const"() <{value = dense<8> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_5 = "tf.Const"() <{value = dense<12> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_6 = "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_7 = "tf.Const"() <{value = dense<9> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_8 = "tf.Const"() <{value = dense<13> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_9 = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_10 = "tf.Const"() <{value = dense<6> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_11 = "tf.Const"() <{value = dense<[7, 5]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_12 = "tf.Const"() <{value = dense<[3, 9]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
    %cst_13 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_14 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_15 = "tf.Const"() <{value = dense<[[[[-0.742859602, -0.00144427514], [0.202996716, -9.426220e-01], [-0.704147815, 0.856422066], [-0.859158873, -0.74045211], [0.89665693, 0.243767187]], [[-0.262013763, 0.022780044], [0.325685918, -0.449382365], [-0.724063873, 0.57607919], [0.34072116, 0.0247646272], [0.633472859, 0.0981505364]], [[0.961827278, -0.590981066], [0.107460722, -0.0327506065], [-0.293450296, 0.183190614], [-0.529397547, 0.604405344], [0.734667122, -0.742480636]]], [[[-0.0658535883, -0.445710212], [-0.833765983, 0.791888594], [-0.14010261, -0.704617381], [0.346724719, -0.595567942], [0.802862167, -0.565703511]], [[-0.933850646, -0.598462105], [-0.308504254, -0.0621836744], [0.812268674, 0.394722164], [-0.321358681, -0.966245591], [-0.680352628, 0.992871761]], [[-0.0805680379, 0.38207984], [-0.890663862, -0.931899428], [0.69178021, 0.175763875], [-0.382580519, -0.365246713], [-0.821525514, -0.654660821]]]]> : tensor<2x3x5x2xf32>}> : () -> tensor<2x3x5x2xf32>
    %0 = "tf.ResizeBilinear"(%arg0, %cst) <{align_corners = true, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x6x11x2xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<?x6x11x2xf32>) -> tensor<?x6x11x2xf32>
    %2 = "tf.ResizeBilinear"(%arg0, %cst_0) <{align_corners = false, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x2x3x2xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<?x2x3x2xf32>) -> tensor<?x2x3x2xf32>
    %4 = "tf.ResizeNearestNeighbor"(%arg0, %cst_1) <{align_corners = true, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x8x4x2xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<?x8x4x2xf32>) -> tensor<?x8x4x2xf32>
    %6 = "tf.ResizeNearestNeighbor"(%arg0, %cst_2) <{align_corners = false, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x5x13x2xf32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<?x5x13x2xf32>) -> tensor<?x5x13x2xf32>
    %8 = "tf.Shape"(%arg0) {device = ""} : (tensor<?x4x6x2xf32>) -> tensor<4xi32>
    %9 = "tf.StridedSlice"(%8, %cst_13, %cst_14, %cst_14) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<i32>
    %10 = "tf.Pack"(%9, %cst_4, %cst_5, %cst_6) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
    %11 = "tf.Conv2DBackpropInput"(%10, %cst_3, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<4xi32>, tensor<3x3x5x2xf32>, tensor<?x4x6x2xf32>) -> tensor<?x8x12x5xf32>
    %12 = "tf.Identity"(%11) {device = ""} : (tensor<?x8x12x5xf32>) -> tensor<?x8x12x5xf32>
    %13 = "tf.Pack"(%9, %cst_7, %cst_8, %cst_6) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
    %14 = "tf.Conv2DBackpropInput"(%13, %cst_3, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<4xi32>, tensor<3x3x5x2xf32>, tensor<?x4x6x2xf32>) -> tensor<?x9x13x5xf32>
    %15 = "tf.Identity"(%14) {device = ""} : (tensor<?x9x13x5xf32>) -> tensor<?x9x13x5xf32>
    %16 = "tf.Pack"(%9, %cst_9, %cst_10, %cst_6) <{axis = 0 : i64}> {device = ""} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
    %17 = "tf.Conv2DBackpropInput"(%16, %cst_15, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<4xi32>, tensor<2x3x5x2xf32>, tensor<?x4x6x2xf32>) -> tensor<?x4x6x5xf32>
    %18 = "tf.Identity"(%17) {device = ""} : (tensor<?x4x6x5xf32>) -> tensor<?x4x6x5xf32>
    %19 = "tf.ResizeBilinear"(%arg0, %cst_11) <{align_corners = false, half_pixel_centers = true}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x7x5x2xf32>
    %20 = "tf.Identity"(%19) {device = ""} : (tensor<?x7x5x2xf32>) -> tensor<?x7x5x2xf32>
    %21 = "tf.ResizeNearestNeighbor"(%arg0, %cst_12) <{align_corners = false, half_pixel_centers = true}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x3x9x2xf32>
    %22 = "tf.Identity"(%21) {device = ""} : (tensor<?x3x9x2xf32>) -> tensor<?x3x9x2xf32>
    return %12, %15, %18, %20, %22, %1, %5, %3, %7 : tensor<?x8x12x5xf32>, tensor<?x9x13x5xf32>, tensor<?x4x6x5xf32>, tensor<?x7x5x2xf32>, tensor<?x3x9x2xf32>, tensor<?x6x11x2xf32>, tensor<?x8x4x2xf32>, tensor<?x2x3x2xf32>, tensor<?x5x13x2xf32>
  }
}
