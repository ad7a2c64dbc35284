module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f64>>, %arg1: tensor<3x4xcomplex<f64>>) -> (tensor<3x4xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<3x4xcomplex<f64>> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<3x4xcomplex<f64>>
    %1 = stablehlo.subtract %0, %arg0 : tensor<3x4xcomplex<f64>>
    %2 = stablehlo.divide %arg0, %arg1 : tensor<3x4xcomplex<f64>>
    return %1, %2 : tensor<3x4xcomplex<f64>>, tensor<3x4xcomplex<f64>>
  }
}
