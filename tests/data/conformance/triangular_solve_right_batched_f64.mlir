module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4x4xf64>, %arg1: tensor<3x2x4xf64>) -> (tensor<3x2x4xf64> {jax.result_info = "result"}) {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = false, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<3x4x4xf64>, tensor<3x2x4xf64>) -> tensor<3x2x4xf64>
    return %0 : tensor<3x2x4xf64>
  }
}
