module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x3xi32>, %arg2: tensor<2x3xcomplex<f32>>) -> (tensor<2x3xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<2x3xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<2x3xf32> {jax.result_info = "result[2]"}, tensor<2x3xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<2x3xi32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.convert %arg0 : (tensor<2x3xf32>) -> tensor<2x3xcomplex<f32>>
    %1 = stablehlo.convert %arg1 : (tensor<2x3xi32>) -> tensor<2x3xcomplex<f32>>
    %2 = stablehlo.real %arg2 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xf32>
    %3 = stablehlo.convert %2 : tensor<2x3xf32>
    %4 = stablehlo.convert %arg2 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f64>>
    %5 = stablehlo.convert %arg2 : (tensor<2x3xcomplex<f32>>) -> tensor<2x3xcomplex<f64>>
    %6 = stablehlo.real %5 : (tensor<2x3xcomplex<f64>>) -> tensor<2x3xf64>
    %7 = stablehlo.convert %6 : (tensor<2x3xf64>) -> tensor<2x3xi32>
    return %0, %1, %3, %4, %7 : tensor<2x3xcomplex<f32>>, tensor<2x3xcomplex<f32>>, tensor<2x3xf32>, tensor<2x3xcomplex<f64>>, tensor<2x3xi32>
  }
}
