module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f32>>) -> (tensor<3x4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<3x4xcomplex<f32>>
    %1 = stablehlo.log %arg0 : tensor<3x4xcomplex<f32>>
    %2 = stablehlo.exponential_minus_one %arg0 : tensor<3x4xcomplex<f32>>
    %3 = stablehlo.log_plus_one %arg0 : tensor<3x4xcomplex<f32>>
    return %0, %1, %2, %3 : tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>
  }
}
