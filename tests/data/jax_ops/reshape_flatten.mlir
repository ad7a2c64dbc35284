module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x2xf32>) -> (tensor<12xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<2x3x2xf32>) -> tensor<12xf32>
    return %0 : tensor<12xf32>
  }
}
