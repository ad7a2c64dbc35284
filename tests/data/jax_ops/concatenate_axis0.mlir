module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<1x3xf32>, %arg2: tensor<3x3xf32>) -> (tensor<6x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, %arg2, dim = 0 : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<6x3xf32>
    return %0 : tensor<6x3xf32>
  }
}
