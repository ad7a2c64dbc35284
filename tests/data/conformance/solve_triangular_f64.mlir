module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf64>, %arg1: tensor<6x4xf64>) -> (tensor<6x4xf64> {jax.result_info = "result"}) {
    %0 = call @_solve_triangular(%arg0, %arg1) : (tensor<6x6xf64>, tensor<6x4xf64>) -> tensor<6x4xf64>
    return %0 : tensor<6x4xf64>
  }
  func.func private @_solve_triangular(%arg0: tensor<6x6xf64>, %arg1: tensor<6x4xf64>) -> tensor<6x4xf64> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf64>, tensor<6x4xf64>) -> tensor<6x4xf64>
    return %0 : tensor<6x4xf64>
  }
}
