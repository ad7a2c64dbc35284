module {
  func.func @__inference_f_1047(%arg0: tensor<?x6x4xf32>) -> (tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>) attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
    %c_3 = stablehlo.constant dense<[-1, 0]> : tensor<2xi32>
    %c_4 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<2xi32>
    %c_6 = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
    %c_7 = stablehlo.constant dense<1> : tensor<2xi32>
    %c_8 = stablehlo.constant dense<[0, 0, 2]> : tensor<3xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<3xi32>
    %c_10 = stablehlo.constant dense<1> : tensor<3xi32>
    %c_11 = stablehlo.constant dense<-2> : tensor<1xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<1xi32>
    %c_13 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_14 = stablehlo.constant dense<[0, -3]> : tensor<2xi32>
    %c_15 = stablehlo.constant dense<[0, -1]> : tensor<2xi32>
    %0 = shape.shape_of %arg0 : tensor<?x6x4xf32> -> tensor<3xindex>
    %1 = arith.index_cast %0 : tensor<3xindex> to tensor<3xi32>
    %2 = stablehlo.slice %1 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %3 = stablehlo.reshape %2 : (tensor<1xi32>) -> tensor<i32>
    %4 = stablehlo.subtract %3, %c_1 : tensor<i32>
    %5 = stablehlo.abs %4 : tensor<i32>
    %6 = stablehlo.convert %5 : (tensor<i32>) -> tensor<f64>
    %7 = stablehlo.divide %6, %cst : tensor<f64>
    %8 = stablehlo.ceil %7 : tensor<f64>
    %9 = stablehlo.convert %8 : (tensor<f64>) -> tensor<i64>
    %10 = stablehlo.reshape %9 : (tensor<i64>) -> tensor<1xi64>
    %11 = stablehlo.dynamic_iota %10, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
    %12 = shape.shape_of %11 : tensor<?xi32> -> tensor<1xindex>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_0, %12, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %14 = stablehlo.multiply %11, %13 : tensor<?xi32>
    %15 = shape.shape_of %14 : tensor<?xi32> -> tensor<1xindex>
    %16 = stablehlo.dynamic_broadcast_in_dim %c_1, %15, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %17 = stablehlo.add %14, %16 : tensor<?xi32>
    %18 = shape.shape_of %17 : tensor<?xi32> -> tensor<1xindex>
    %19 = stablehlo.dynamic_broadcast_in_dim %c, %18, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %20 = stablehlo.multiply %17, %19 : tensor<?xi32>
    %21 = "tf.StridedSlice"(%arg0, %c_2, %c_3, %c_4) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3x4xf32>
    %22 = "tf.StridedSlice"(%arg0, %c_5, %c_6, %c_7) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
    %23 = "tf.StridedSlice"(%arg0, %c_8, %c_9, %c_10) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x1x4x4xf32>
    %24 = "tf.StridedSlice"(%arg0, %c_11, %c_12, %c_13) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %25 = "tf.StridedSlice"(%arg0, %c_14, %c_15, %c_7) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %26 = "tf.StridedSlice"(%arg0, %c_12, %c_13, %c_13) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    return %21, %22, %23, %24, %25, %26, %20 : tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>
  }
}
