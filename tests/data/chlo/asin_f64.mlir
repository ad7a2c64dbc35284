module @jit_asin attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<65xf64>) -> (tensor<65xf64> {jax.result_info = "result"}) {
    %0 = chlo.asin %arg0 : tensor<65xf64> -> tensor<65xf64>
    return %0 : tensor<65xf64>
  }
}
