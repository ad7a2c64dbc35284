module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<2x3xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = stablehlo.complex %arg0, %arg1 : tensor<2x3xcomplex<f32>>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x3xcomplex<f32>>
    %2 = stablehlo.multiply %0, %1 : tensor<2x3xcomplex<f32>>
    return %2 : tensor<2x3xcomplex<f32>>
  }
}
