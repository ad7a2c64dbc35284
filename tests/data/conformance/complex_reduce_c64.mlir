module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x6xcomplex<f32>>) -> (tensor<4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<6xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<complex<f32>> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.multiply across dimensions = [0] : (tensor<4x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<6xcomplex<f32>>
    %cst_1 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<complex<f32>>
    return %0, %1, %2 : tensor<4xcomplex<f32>>, tensor<6xcomplex<f32>>, tensor<complex<f32>>
  }
}
