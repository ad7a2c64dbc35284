func.func @main(%x: memref<3x8xcomplex<f32>>, %out: memref<3x8xcomplex<f32>>) {
  "lmhlo.fft"(%x, %out) {fft_length = dense<8> : tensor<1xi64>, fft_type = #mhlo<fft_type FFT>} : (memref<3x8xcomplex<f32>>, memref<3x8xcomplex<f32>>) -> ()
  return
}
