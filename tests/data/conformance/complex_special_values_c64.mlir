module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<49xcomplex<f32>>) -> (tensor<49xf32> {jax.result_info = "result[0]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[8]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.abs %arg0 : (tensor<49xcomplex<f32>>) -> tensor<49xf32>
    %1 = stablehlo.exponential %arg0 : tensor<49xcomplex<f32>>
    %2 = stablehlo.log %arg0 : tensor<49xcomplex<f32>>
    %3 = stablehlo.sqrt %arg0 : tensor<49xcomplex<f32>>
    %4 = stablehlo.rsqrt %arg0 : tensor<49xcomplex<f32>>
    %5 = stablehlo.tanh %arg0 : tensor<49xcomplex<f32>>
    %6 = stablehlo.sign %arg0 : tensor<49xcomplex<f32>>
    %7 = stablehlo.multiply %arg0, %arg0 : tensor<49xcomplex<f32>>
    %8 = stablehlo.exponential_minus_one %arg0 : tensor<49xcomplex<f32>>
    %9 = stablehlo.log_plus_one %arg0 : tensor<49xcomplex<f32>>
    return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9 : tensor<49xf32>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>
  }
}
