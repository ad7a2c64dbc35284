module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf64>) -> (tensor<6x6xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.cholesky %arg0, lower = true : tensor<6x6xf64>
    %1 = stablehlo.iota dim = 0 : tensor<6x6xi64>
    %c = stablehlo.constant dense<0> : tensor<i64>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<6x6xi64>
    %3 = stablehlo.add %1, %2 : tensor<6x6xi64>
    %4 = stablehlo.iota dim = 1 : tensor<6x6xi64>
    %5 = stablehlo.compare GE, %3, %4, SIGNED : (tensor<6x6xi64>, tensor<6x6xi64>) -> tensor<6x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<6x6xf64>
    %7 = stablehlo.select %5, %0, %6 : tensor<6x6xi1>, tensor<6x6xf64>
    return %7 : tensor<6x6xf64>
  }
}
