module @jit_lgamma attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf64>) -> (tensor<3x4xf64> {jax.result_info = "result"}) {
    %0 = chlo.lgamma %arg0 : tensor<3x4xf64> -> tensor<3x4xf64>
    return %0 : tensor<3x4xf64>
  }
}
