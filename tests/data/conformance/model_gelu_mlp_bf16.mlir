module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x6xbf16>, %arg1: tensor<6x8xbf16>, %arg2: tensor<8x3xbf16>) -> (tensor<2x3xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x6xbf16>, tensor<6x8xbf16>) -> tensor<2x8xbf16>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<bf16>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<2x8xbf16>
    %2 = stablehlo.multiply %1, %0 : tensor<2x8xbf16>
    %3 = stablehlo.negate %0 : tensor<2x8xbf16>
    %cst_0 = stablehlo.constant dense<7.070310e-01> : tensor<bf16>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<bf16>) -> tensor<2x8xbf16>
    %5 = stablehlo.multiply %3, %4 : tensor<2x8xbf16>
    %6 = chlo.erfc %5 : tensor<2x8xbf16> -> tensor<2x8xbf16>
    %7 = stablehlo.multiply %2, %6 : tensor<2x8xbf16>
    %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xbf16>, tensor<8x3xbf16>) -> tensor<2x3xbf16>
    return %8 : tensor<2x3xbf16>
  }
}
