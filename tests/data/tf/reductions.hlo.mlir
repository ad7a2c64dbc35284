module {
  func.func @__inference_f_440(%arg0: tensor<4x6xf32>) -> (tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<4x1xf32>, tensor<f32>, tensor<4xi64>, tensor<6xi32>, tensor<4xi1>, tensor<6xi1>) attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<4.000000e+00> : tensor<6xf32>
    %cst_0 = stablehlo.constant dense<-1.900000e+00> : tensor<4x6xf32>
    %cst_1 = stablehlo.constant dense<1.500000e+00> : tensor<4x6xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_3 = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_4 = stablehlo.constant dense<false> : tensor<i1>
    %cst_5 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c_8 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.iota dim = 0 : tensor<6xi64>
    %1 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<6xi64>) -> tensor<4x6xi64>
    %2:2 = stablehlo.reduce(%arg0 init: %cst_7), (%1 init: %c_8) across dimensions = [1] : (tensor<4x6xf32>, tensor<4x6xi64>, tensor<f32>, tensor<i64>) -> (tensor<4xf32>, tensor<4xi64>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i64>, %arg4: tensor<i64>)  {
      %18 = stablehlo.compare  GE, %arg1, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = stablehlo.select %18, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %20 = stablehlo.compare  EQ, %arg1, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %21 = stablehlo.minimum %arg2, %arg4 : tensor<i64>
      %22 = stablehlo.select %18, %arg2, %arg4 : tensor<i1>, tensor<i64>
      %23 = stablehlo.select %20, %21, %22 : tensor<i1>, tensor<i64>
      stablehlo.return %19, %23 : tensor<f32>, tensor<i64>
    }
    %3 = stablehlo.iota dim = 0 : tensor<4xi32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<4xi32>) -> tensor<4x6xi32>
    %5:2 = stablehlo.reduce(%arg0 init: %cst_5), (%4 init: %c_6) across dimensions = [0] : (tensor<4x6xf32>, tensor<4x6xi32>, tensor<f32>, tensor<i32>) -> (tensor<6xf32>, tensor<6xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %18 = stablehlo.compare  LE, %arg1, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %19 = stablehlo.select %18, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %20 = stablehlo.compare  EQ, %arg1, %arg3 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %21 = stablehlo.minimum %arg2, %arg4 : tensor<i32>
      %22 = stablehlo.select %18, %arg2, %arg4 : tensor<i1>, tensor<i32>
      %23 = stablehlo.select %20, %21, %22 : tensor<i1>, tensor<i32>
      stablehlo.return %19, %23 : tensor<f32>, tensor<i32>
    }
    %6 = stablehlo.compare  GT, %arg0, %cst_1 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %7 = stablehlo.reduce(%6 init: %c_4) applies stablehlo.or across dimensions = [1] : (tensor<4x6xi1>, tensor<i1>) -> tensor<4xi1>
    %8 = stablehlo.compare  GT, %arg0, %cst_0 : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xi1>
    %9 = stablehlo.reduce(%8 init: %c) applies stablehlo.and across dimensions = [0] : (tensor<4x6xi1>, tensor<i1>) -> tensor<6xi1>
    %10 = stablehlo.reduce(%arg0 init: %cst_7) applies stablehlo.maximum across dimensions = [0, 1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<f32>
    %11 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.add across dimensions = [0] : (tensor<4x6xf32>, tensor<f32>) -> tensor<6xf32>
    %12 = stablehlo.divide %11, %cst : tensor<6xf32>
    %13 = stablehlo.reduce(%arg0 init: %cst_5) applies stablehlo.minimum across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %14 = stablehlo.reshape %13 : (tensor<4xf32>) -> tensor<4x1xf32>
    %15 = stablehlo.reduce(%arg0 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<4x6xf32>, tensor<f32>) -> tensor<4xf32>
    %16 = stablehlo.slice %arg0 [0:4, 0:3] : (tensor<4x6xf32>) -> tensor<4x3xf32>
    %17 = stablehlo.reduce(%16 init: %cst_2) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
    return %15, %12, %10, %14, %17, %2#1, %5#1, %7, %9 : tensor<4xf32>, tensor<6xf32>, tensor<f32>, tensor<4x1xf32>, tensor<f32>, tensor<4xi64>, tensor<6xi32>, tensor<4xi1>, tensor<6xi1>
  }
}
