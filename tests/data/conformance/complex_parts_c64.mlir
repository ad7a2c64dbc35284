module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xcomplex<f32>>) -> (tensor<3x5xf32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<3x5xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x5xf32> {jax.result_info = "result[3]"}, tensor<3x5xf32> {jax.result_info = "result[4]"}, tensor<3x5xcomplex<f32>> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.abs %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %1 = call @angle(%arg0) : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %2 = stablehlo.real %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %3 = stablehlo.imag %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %4 = stablehlo.negate %3 : tensor<3x5xf32>
    %5 = stablehlo.complex %2, %4 : tensor<3x5xcomplex<f32>>
    %6 = stablehlo.real %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %7 = stablehlo.imag %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %8 = stablehlo.sign %arg0 : tensor<3x5xcomplex<f32>>
    return %0, %1, %5, %6, %7, %8 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xcomplex<f32>>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xcomplex<f32>>
  }
  func.func private @angle(%arg0: tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32> {
    %0 = stablehlo.real %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %1 = stablehlo.imag %arg0 : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xf32>
    %2 = stablehlo.atan2 %1, %0 : tensor<3x5xf32>
    return %2 : tensor<3x5xf32>
  }
}
