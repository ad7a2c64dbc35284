module @jit_cholesky attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x4xf32>) -> (tensor<3x4x4xf32> {jax.result_info = "result"}) {
    %0 = call @cholesky(%arg0) : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    return %0 : tensor<3x4x4xf32>
  }
  func.func private @cholesky(%arg0: tensor<3x4x4xf32>) -> tensor<3x4x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<3x4x4xf32>) -> tensor<3x4x4xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<3x4x4xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %3 = stablehlo.divide %1, %2 : tensor<3x4x4xf32>
    %4 = stablehlo.cholesky %3, lower = true : tensor<3x4x4xf32>
    %5 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %7 = stablehlo.add %5, %6 : tensor<4x4xi32>
    %8 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<4x4xi1>) -> tensor<3x4x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4x4xf32>
    %12 = stablehlo.select %10, %4, %11 : tensor<3x4x4xi1>, tensor<3x4x4xf32>
    return %12 : tensor<3x4x4xf32>
  }
}
