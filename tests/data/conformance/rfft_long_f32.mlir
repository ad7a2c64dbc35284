module @jit_rfft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x1000xf32>) -> (tensor<3x501xcomplex<f32>> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<3x1000xf32>) -> tensor<3x501xcomplex<f32>>
    return %0 : tensor<3x501xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<3x1000xf32>) -> tensor<3x501xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [1000] : (tensor<3x1000xf32>) -> tensor<3x501xcomplex<f32>>
    return %0 : tensor<3x501xcomplex<f32>>
  }
}
