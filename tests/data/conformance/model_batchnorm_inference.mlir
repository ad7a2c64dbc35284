module @jit__batchnorm_infer attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>) -> (tensor<2x4x4x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %2 = stablehlo.subtract %arg0, %1 : tensor<2x4x4x3xf32>
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %4 = stablehlo.add %arg2, %3 : tensor<3xf32>
    %5 = stablehlo.sqrt %4 : tensor<3xf32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %8 = stablehlo.divide %2, %7 : tensor<2x4x4x3xf32>
    %9 = stablehlo.broadcast_in_dim %arg3, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %11 = stablehlo.multiply %8, %10 : tensor<2x4x4x3xf32>
    %12 = stablehlo.broadcast_in_dim %arg4, dims = [3] : (tensor<3xf32>) -> tensor<1x1x1x3xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [0, 1, 2, 3] : (tensor<1x1x1x3xf32>) -> tensor<2x4x4x3xf32>
    %14 = stablehlo.add %11, %13 : tensor<2x4x4x3xf32>
    return %14 : tensor<2x4x4x3xf32>
  }
}
