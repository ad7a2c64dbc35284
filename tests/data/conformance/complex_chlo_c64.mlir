module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f32>>) -> (tensor<3x4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = chlo.sinh %arg0 : tensor<3x4xcomplex<f32>> -> tensor<3x4xcomplex<f32>>
    %1 = chlo.cosh %arg0 : tensor<3x4xcomplex<f32>> -> tensor<3x4xcomplex<f32>>
    %2 = chlo.square %arg0 : tensor<3x4xcomplex<f32>> -> tensor<3x4xcomplex<f32>>
    %3 = stablehlo.negate %arg0 : tensor<3x4xcomplex<f32>>
    %4 = stablehlo.exponential %3 : tensor<3x4xcomplex<f32>>
    %cst = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3x4xcomplex<f32>>
    %6 = stablehlo.add %5, %4 : tensor<3x4xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<3x4xcomplex<f32>>
    %8 = stablehlo.divide %7, %6 : tensor<3x4xcomplex<f32>>
    return %0, %1, %2, %8 : tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>
  }
}
