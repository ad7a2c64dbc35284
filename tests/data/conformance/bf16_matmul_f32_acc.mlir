module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x8xbf16>, %arg1: tensor<8x4xbf16>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x8xbf16>, tensor<8x4xbf16>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
}
