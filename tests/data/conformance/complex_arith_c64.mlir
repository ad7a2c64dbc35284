module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f32>>, %arg1: tensor<3x4xcomplex<f32>>) -> (tensor<3x4xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<3x4xcomplex<f32>>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<3x4xcomplex<f32>>
    %2 = stablehlo.multiply %arg0, %arg1 : tensor<3x4xcomplex<f32>>
    %3 = stablehlo.divide %arg0, %arg1 : tensor<3x4xcomplex<f32>>
    %4 = stablehlo.negate %arg0 : tensor<3x4xcomplex<f32>>
    return %0, %1, %2, %3, %4 : tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>
  }
}
