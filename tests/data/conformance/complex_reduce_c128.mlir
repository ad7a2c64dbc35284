module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x3xcomplex<f64>>) -> (tensor<3xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<complex<f64>> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<3xcomplex<f64>>
    %cst_0 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f64>>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.add across dimensions = [0, 1] : (tensor<5x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
    %cst_1 = stablehlo.constant dense<(1.500000e+01,0.000000e+00)> : tensor<complex<f64>>
    %2 = stablehlo.divide %1, %cst_1 : tensor<complex<f64>>
    return %0, %2 : tensor<3xcomplex<f64>>, tensor<complex<f64>>
  }
}
