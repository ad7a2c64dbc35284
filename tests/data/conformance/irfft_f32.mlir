module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x6xcomplex<f32>>) -> (tensor<3x10xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_pad(%arg0, %c) : (tensor<3x6xcomplex<f32>>, tensor<i32>) -> tensor<3x6xcomplex<f32>>
    %1 = call @fft(%0) : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
    return %1 : tensor<3x10xf32>
  }
  func.func private @_pad(%arg0: tensor<3x6xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<3x6xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [0, 0], high = [0, 0], interior = [0, 0] : (tensor<3x6xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x6xcomplex<f32>>
    return %1 : tensor<3x6xcomplex<f32>>
  }
  func.func private @fft(%arg0: tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32> {
    %0 = stablehlo.fft %arg0, type = IRFFT, length = [10] : (tensor<3x6xcomplex<f32>>) -> tensor<3x10xf32>
    return %0 : tensor<3x10xf32>
  }
}
