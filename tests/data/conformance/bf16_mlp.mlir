module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x6xbf16>, %arg1: tensor<6x8xbf16>, %arg2: tensor<8x3xbf16>) -> (tensor<2x3xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x6xbf16>, tensor<6x8xbf16>) -> tensor<2x8xbf16>
    %1 = call @relu(%0) : (tensor<2x8xbf16>) -> tensor<2x8xbf16>
    %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xbf16>, tensor<8x3xbf16>) -> tensor<2x3xbf16>
    return %2 : tensor<2x3xbf16>
  }
  func.func private @relu(%arg0: tensor<2x8xbf16>) -> tensor<2x8xbf16> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<bf16>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<bf16>) -> tensor<2x8xbf16>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x8xbf16>
    return %1 : tensor<2x8xbf16>
  }
}
