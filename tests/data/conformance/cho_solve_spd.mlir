module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x5xf32>, %arg1: tensor<5x3xf32>) -> (tensor<5x3xf32> {jax.result_info = "result"}) {
    %0 = call @cholesky(%arg0) : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %1 = call @_cho_solve(%0, %arg1) : (tensor<5x5xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
    return %1 : tensor<5x3xf32>
  }
  func.func private @cholesky(%arg0: tensor<5x5xf32>) -> tensor<5x5xf32> {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<5x5xf32>) -> tensor<5x5xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<5x5xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %3 = stablehlo.divide %1, %2 : tensor<5x5xf32>
    %4 = stablehlo.cholesky %3, lower = true : tensor<5x5xf32>
    %5 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %7 = stablehlo.add %5, %6 : tensor<5x5xi32>
    %8 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x5xf32>
    %11 = stablehlo.select %9, %4, %10 : tensor<5x5xi1>, tensor<5x5xf32>
    return %11 : tensor<5x5xf32>
  }
  func.func private @_cho_solve(%arg0: tensor<5x5xf32>, %arg1: tensor<5x3xf32>) -> tensor<5x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg0, %arg1) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<5x5xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
    %1 = "stablehlo.triangular_solve"(%arg0, %0) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<5x5xf32>, tensor<5x3xf32>) -> tensor<5x3xf32>
    return %1 : tensor<5x3xf32>
  }
}
