module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = "result"}) {
    %0 = call @_cholesky(%arg0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = call @_cho_solve(%0, %arg1) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4xf32>
    return %1 : tensor<4xf32>
  }
  func.func private @_cholesky(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %1 = stablehlo.cholesky %0, lower = true : tensor<4x4xf32>
    %2 = stablehlo.iota dim = 0 : tensor<4x4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x4xi32>
    %4 = stablehlo.add %2, %3 : tensor<4x4xi32>
    %5 = stablehlo.iota dim = 1 : tensor<4x4xi32>
    %6 = stablehlo.compare GE, %4, %5, SIGNED : (tensor<4x4xi32>, tensor<4x4xi32>) -> tensor<4x4xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %8 = stablehlo.select %6, %1, %7 : tensor<4x4xi1>, tensor<4x4xf32>
    %9 = stablehlo.transpose %8, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    return %9 : tensor<4x4xf32>
  }
  func.func private @_cho_solve(%arg0: tensor<4x4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %1 = "stablehlo.triangular_solve"(%arg0, %0) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %2 = stablehlo.reshape %1 : (tensor<4x1xf32>) -> tensor<4xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %4 = "stablehlo.triangular_solve"(%arg0, %3) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<4x4xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<4x1xf32>) -> tensor<4xf32>
    return %5 : tensor<4xf32>
  }
}
