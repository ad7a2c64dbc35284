module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x64xf32>) -> (tensor<4x33xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<64xf32>
    %cst = stablehlo.constant dense<6.28318548> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %2 = stablehlo.multiply %1, %0 : tensor<64xf32>
    %cst_0 = stablehlo.constant dense<6.300000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %4 = stablehlo.divide %2, %3 : tensor<64xf32>
    %5 = stablehlo.cosine %4 : tensor<64xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %7 = stablehlo.subtract %6, %5 : tensor<64xf32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<64xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<64xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1] : (tensor<64xf32>) -> tensor<1x64xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<1x64xf32>) -> tensor<4x64xf32>
    %12 = stablehlo.multiply %arg0, %11 : tensor<4x64xf32>
    %13 = call @fft(%12) : (tensor<4x64xf32>) -> tensor<4x33xcomplex<f32>>
    %14 = stablehlo.abs %13 : (tensor<4x33xcomplex<f32>>) -> tensor<4x33xf32>
    %15 = stablehlo.multiply %14, %14 : tensor<4x33xf32>
    return %15 : tensor<4x33xf32>
  }
  func.func private @fft(%arg0: tensor<4x64xf32>) -> tensor<4x33xcomplex<f32>> {
    %0 = stablehlo.fft %arg0, type = RFFT, length = [64] : (tensor<4x64xf32>) -> tensor<4x33xcomplex<f32>>
    return %0 : tensor<4x33xcomplex<f32>>
  }
}
