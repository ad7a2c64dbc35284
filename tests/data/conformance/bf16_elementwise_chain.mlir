module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xbf16>, %arg1: tensor<4x5xbf16>) -> (tensor<4x5xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x5xbf16>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<4x5xbf16>
    %2 = stablehlo.maximum %0, %1 : tensor<4x5xbf16>
    %3 = stablehlo.abs %arg0 : tensor<4x5xbf16>
    %4 = stablehlo.negate %3 : tensor<4x5xbf16>
    %5 = stablehlo.exponential %4 : tensor<4x5xbf16>
    %6 = stablehlo.add %2, %5 : tensor<4x5xbf16>
    return %6 : tensor<4x5xbf16>
  }
}
