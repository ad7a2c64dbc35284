module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<49xcomplex<f64>>) -> (tensor<49xf64> {jax.result_info = "result[0]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[5]"}, tensor<49xcomplex<f64>> {jax.result_info = "result[6]"}) {
    %0 = stablehlo.abs %arg0 : (tensor<49xcomplex<f64>>) -> tensor<49xf64>
    %1 = stablehlo.exponential %arg0 : tensor<49xcomplex<f64>>
    %2 = stablehlo.log %arg0 : tensor<49xcomplex<f64>>
    %3 = stablehlo.sqrt %arg0 : tensor<49xcomplex<f64>>
    %4 = stablehlo.tanh %arg0 : tensor<49xcomplex<f64>>
    %5 = stablehlo.log_plus_one %arg0 : tensor<49xcomplex<f64>>
    %6 = stablehlo.reverse %arg0, dims = [0] : tensor<49xcomplex<f64>>
    %7 = stablehlo.divide %arg0, %6 : tensor<49xcomplex<f64>>
    return %0, %1, %2, %3, %4, %5, %7 : tensor<49xf64>, tensor<49xcomplex<f64>>, tensor<49xcomplex<f64>>, tensor<49xcomplex<f64>>, tensor<49xcomplex<f64>>, tensor<49xcomplex<f64>>, tensor<49xcomplex<f64>>
  }
}
