module @jit_cosh attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<63xf16>) -> (tensor<63xf16> {jax.result_info = "result"}) {
    %0 = chlo.cosh %arg0 : tensor<63xf16> -> tensor<63xf16>
    return %0 : tensor<63xf16>
  }
}
