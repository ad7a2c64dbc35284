module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf64>, %arg1: tensor<3x4xf64>) -> (tensor<3x4xf64> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<3x4xf64>
    %1 = stablehlo.multiply %0, %arg1 : tensor<3x4xf64>
    %2 = stablehlo.exponential %arg1 : tensor<3x4xf64>
    %3 = stablehlo.multiply %arg0, %arg0 : tensor<3x4xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f64>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<3x4xf64>
    %5 = stablehlo.add %4, %3 : tensor<3x4xf64>
    %6 = stablehlo.divide %2, %5 : tensor<3x4xf64>
    %7 = stablehlo.add %1, %6 : tensor<3x4xf64>
    return %7 : tensor<3x4xf64>
  }
}
