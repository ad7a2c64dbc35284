module @jit_matmul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xbf16>, %arg1: tensor<5x4xbf16>) -> (tensor<3x4xbf16> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x5xbf16>, tensor<5x4xbf16>) -> tensor<3x4xbf16>
    return %0 : tensor<3x4xbf16>
  }
}
