module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32>) -> (tensor<6x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
    %1 = stablehlo.transpose %0, dims = [2, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x2x3xf32>) -> tensor<4x6xf32>
    %3 = stablehlo.transpose %2, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>
    return %3 : tensor<6x4xf32>
  }
}
