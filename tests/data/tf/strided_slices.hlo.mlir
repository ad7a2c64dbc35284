module {
  func.func @__inference_f_90(%arg0: tensor<?x6x4xf32>) -> (tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>, tensor<?x6x4xf32>, tensor<6x4xf32>, tensor<?x?x4xf32>, tensor<?x4xf32>) attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %c_0 = stablehlo.constant dense<[0, -1]> : tensor<2xi32>
    %c_1 = stablehlo.constant dense<[0, -3]> : tensor<2xi32>
    %c_2 = stablehlo.constant dense<-2> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<3xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<3xi32>
    %c_5 = stablehlo.constant dense<[0, 0, 2]> : tensor<3xi32>
    %c_6 = stablehlo.constant dense<[0, 1]> : tensor<2xi32>
    %c_7 = stablehlo.constant dense<0> : tensor<2xi32>
    %c_8 = stablehlo.constant dense<1> : tensor<2xi32>
    %c_9 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %c_10 = stablehlo.constant dense<[-1, 0]> : tensor<2xi32>
    %c_11 = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
    %c_12 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_13 = stablehlo.constant dense<0> : tensor<1xi32>
    %c_14 = stablehlo.constant dense<2> : tensor<i32>
    %c_15 = stablehlo.constant dense<1> : tensor<i32>
    %c_16 = stablehlo.constant dense<0> : tensor<i32>
    %0 = shape.shape_of %arg0 : tensor<?x6x4xf32> -> tensor<3xindex>
    %1 = shape.shape_of %arg0 : tensor<?x6x4xf32> -> tensor<3xindex>
    %2 = arith.index_cast %0 : tensor<3xindex> to tensor<3xi32>
    %3 = arith.index_cast %1 : tensor<3xindex> to tensor<3xi32>
    %4 = stablehlo.slice %2 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %5 = stablehlo.reshape %4 : (tensor<1xi32>) -> tensor<i32>
    %6 = stablehlo.subtract %c_15, %5 : tensor<i32>
    %7 = stablehlo.reshape %6 : (tensor<i32>) -> tensor<1xi32>
    %8 = stablehlo.concatenate %7, %c_12, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.divide %5, %c_14 : tensor<i32>
    %10 = stablehlo.multiply %9, %c_14 : tensor<i32>
    %11 = stablehlo.compare  NE, %10, %5 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %12 = stablehlo.compare  LT, %5, %c_16 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %13 = stablehlo.and %11, %12 : tensor<i1>
    %14 = stablehlo.subtract %9, %c_15 : tensor<i32>
    %15 = stablehlo.select %13, %14, %9 : tensor<i1>, tensor<i32>
    %16 = stablehlo.reshape %15 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.concatenate %c_13, %4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %18 = stablehlo.subtract %5, %c_15 : tensor<i32>
    %19 = stablehlo.add %18, %c_15 : tensor<i32>
    %20 = stablehlo.reshape %19 : (tensor<i32>) -> tensor<1xi32>
    %21 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.subtract %5, %c : tensor<i32>
    %23 = stablehlo.add %22, %c_15 : tensor<i32>
    %24 = stablehlo.reshape %23 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.concatenate %c_13, %24, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %26 = stablehlo.reshape %22 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %c_13, %26, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.slice %3 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %29 = stablehlo.reshape %28 : (tensor<1xi32>) -> tensor<i32>
    %30 = stablehlo.subtract %29, %c_16 : tensor<i32>
    %31 = stablehlo.abs %30 : tensor<i32>
    %32 = stablehlo.convert %31 : (tensor<i32>) -> tensor<f64>
    %33 = stablehlo.divide %32, %cst : tensor<f64>
    %34 = stablehlo.ceil %33 : tensor<f64>
    %35 = stablehlo.convert %34 : (tensor<f64>) -> tensor<i64>
    %36 = stablehlo.reshape %35 : (tensor<i64>) -> tensor<1xi64>
    %37 = stablehlo.dynamic_iota %36, dim = 0 : (tensor<1xi64>) -> tensor<?xi32>
    %38 = "tf.StridedSlice"(%arg0, %c_13, %16, %c_12) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %39 = "tf.StridedSlice"(%arg0, %8, %17, %c_8) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x?x4xf32>
    %40 = "tf.StridedSlice"(%arg0, %21, %20, %c_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    %41 = "tf.StridedSlice"(%arg0, %27, %25, %c_8) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    %42 = "tf.StridedSlice"(%arg0, %c_11, %c_10, %c_9) <{begin_mask = 2 : i64, ellipsis_mask = 0 : i64, end_mask = 2 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3x4xf32>
    %43 = "tf.StridedSlice"(%arg0, %c_7, %c_6, %c_8) <{begin_mask = 0 : i64, ellipsis_mask = 1 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 2 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x6xf32>
    %44 = "tf.StridedSlice"(%arg0, %c_5, %c_4, %c_3) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 5 : i64, new_axis_mask = 2 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) -> tensor<?x1x4x4xf32>
    %45 = "tf.StridedSlice"(%arg0, %c_2, %c_13, %c_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x6x4xf32>
    %46 = "tf.StridedSlice"(%arg0, %c_1, %c_0, %c_8) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 1 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2x4xf32>
    %47 = "tf.StridedSlice"(%arg0, %c_13, %c_12, %c_12) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<?x6x4xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<6x4xf32>
    %48 = shape.shape_of %37 : tensor<?xi32> -> tensor<1xindex>
    %49 = stablehlo.dynamic_broadcast_in_dim %c_15, %48, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %50 = stablehlo.multiply %37, %49 : tensor<?xi32>
    %51 = shape.shape_of %50 : tensor<?xi32> -> tensor<1xindex>
    %52 = stablehlo.dynamic_broadcast_in_dim %c_16, %51, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %53 = stablehlo.add %50, %52 : tensor<?xi32>
    %54 = shape.shape_of %53 : tensor<?xi32> -> tensor<1xindex>
    %55 = stablehlo.dynamic_broadcast_in_dim %c_14, %54, dims = [] : (tensor<i32>, tensor<1xindex>) -> tensor<?xi32>
    %56 = stablehlo.multiply %53, %55 : tensor<?xi32>
    return %42, %43, %44, %45, %46, %47, %56, %38, %40, %39, %41 : tensor<?x3x4xf32>, tensor<?x6xf32>, tensor<?x1x4x4xf32>, tensor<?x6x4xf32>, tensor<?x2x4xf32>, tensor<6x4xf32>, tensor<?xi32>, tensor<?x6x4xf32>, tensor<6x4xf32>, tensor<?x?x4xf32>, tensor<?x4xf32>
  }
}
