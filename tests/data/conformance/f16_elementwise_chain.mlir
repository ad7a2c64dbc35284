module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf16>, %arg1: tensor<4x5xf16>) -> (tensor<4x5xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x5xf16>
    %1 = stablehlo.add %0, %arg0 : tensor<4x5xf16>
    %2 = stablehlo.abs %arg1 : tensor<4x5xf16>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f16>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f16>) -> tensor<4x5xf16>
    %4 = stablehlo.add %3, %2 : tensor<4x5xf16>
    %5 = stablehlo.divide %1, %4 : tensor<4x5xf16>
    %6 = stablehlo.abs %arg0 : tensor<4x5xf16>
    %7 = stablehlo.sqrt %6 : tensor<4x5xf16>
    %8 = stablehlo.subtract %5, %7 : tensor<4x5xf16>
    return %8 : tensor<4x5xf16>
  }
}
