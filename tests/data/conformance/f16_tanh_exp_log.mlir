module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf16>) -> (tensor<3x5xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.tanh %arg0 : tensor<3x5xf16>
    %1 = stablehlo.exponential %arg0 : tensor<3x5xf16>
    %2 = stablehlo.log_plus_one %1 : tensor<3x5xf16>
    %3 = stablehlo.add %0, %2 : tensor<3x5xf16>
    return %3 : tensor<3x5xf16>
  }
}
