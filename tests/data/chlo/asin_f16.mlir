module @jit_asin attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<57xf16>) -> (tensor<57xf16> {jax.result_info = "result"}) {
    %0 = chlo.asin %arg0 : tensor<57xf16> -> tensor<57xf16>
    return %0 : tensor<57xf16>
  }
}
