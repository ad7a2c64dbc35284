module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5x4xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [1:3, 0:5:2, 2:3] : (tensor<3x5x4xf32>) -> tensor<2x3x1xf32>
    %1 = stablehlo.reshape %0 : (tensor<2x3x1xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
