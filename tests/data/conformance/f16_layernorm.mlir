module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x8xf16>) -> (tensor<3x8xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg0 : (tensor<3x8xf16>) -> tensor<3x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x8xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<3x1xf32>
    %5 = stablehlo.convert %4 : (tensor<3x1xf32>) -> tensor<3x1xf16>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0, 1] : (tensor<3x1xf16>) -> tensor<3x8xf16>
    %7 = stablehlo.subtract %arg0, %6 : tensor<3x8xf16>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %8 = call @_var(%arg0, %c) : (tensor<3x8xf16>, tensor<i32>) -> tensor<3x1xf16>
    %cst_1 = stablehlo.constant dense<1.000400e-03> : tensor<f16>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f16>) -> tensor<3x1xf16>
    %10 = stablehlo.add %8, %9 : tensor<3x1xf16>
    %11 = stablehlo.rsqrt %10 : tensor<3x1xf16>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<3x1xf16>) -> tensor<3x8xf16>
    %13 = stablehlo.multiply %7, %12 : tensor<3x8xf16>
    return %13 : tensor<3x8xf16>
  }
  func.func private @_var(%arg0: tensor<3x8xf16>, %arg1: tensor<i32>) -> tensor<3x1xf16> {
    %0 = stablehlo.convert %arg0 : (tensor<3x8xf16>) -> tensor<3x8xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x8xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
    %4 = stablehlo.divide %2, %3 : tensor<3x1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x8xf32>
    %6 = stablehlo.subtract %0, %5 : tensor<3x8xf32>
    %7 = chlo.square %6 : tensor<3x8xf32> -> tensor<3x8xf32>
    %8 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %9 = stablehlo.subtract %cst_1, %8 : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.reduce(%7 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<3x8xf32>, tensor<f32>) -> tensor<3xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %12 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<3x1xf32>
    %14 = stablehlo.convert %13 : (tensor<3x1xf32>) -> tensor<3x1xf16>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.compare GT, %9, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %16 = call @_where(%15, %14, %cst_4) : (tensor<i1>, tensor<3x1xf16>, tensor<f32>) -> tensor<3x1xf16>
    return %16 : tensor<3x1xf16>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<3x1xf16>, %arg2: tensor<f32>) -> tensor<3x1xf16> {
    %0 = stablehlo.convert %arg2 : (tensor<f32>) -> tensor<f16>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f16>) -> tensor<3x1xf16>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<i1>, tensor<3x1xf16>
    return %2 : tensor<3x1xf16>
  }
}
