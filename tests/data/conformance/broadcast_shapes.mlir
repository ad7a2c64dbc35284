module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4xf32>, %arg1: tensor<3xf32>, %arg2: tensor<f32>) -> (tensor<2x3x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<2x4xf32>) -> tensor<2x1x4xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3x1xf32>
    %2 = stablehlo.broadcast_in_dim %arg2, dims = [] : (tensor<f32>) -> tensor<1x3x1xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<1x3x1xf32>
    %4 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<2x1x4xf32>) -> tensor<2x3x4xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<1x3x1xf32>) -> tensor<2x3x4xf32>
    %6 = stablehlo.add %4, %5 : tensor<2x3x4xf32>
    return %6 : tensor<2x3x4xf32>
  }
}
