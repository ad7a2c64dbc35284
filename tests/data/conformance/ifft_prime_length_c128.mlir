module @jit_ifft attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x257xcomplex<f64>>) -> (tensor<1x257xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = call @fft(%arg0) : (tensor<1x257xcomplex<f64>>) -> tensor<1x257xcomplex<f64>>
    return %0 : tensor<1x257xcomplex<f64>>
  }
  func.func private @fft(%arg0: tensor<1x257xcomplex<f64>>) -> tensor<1x257xcomplex<f64>> {
    %0 = stablehlo.fft %arg0, type = IFFT, length = [257] : (tensor<1x257xcomplex<f64>>) -> tensor<1x257xcomplex<f64>>
    return %0 : tensor<1x257xcomplex<f64>>
  }
}
