module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<8xi32>
    %1 = stablehlo.iota dim = 0 : tensor<8xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<8xi32>) -> tensor<1x8xi32>
    %4 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<8x1xi32>) -> tensor<8x8xi32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x8xi32>) -> tensor<8x8xi32>
    %6 = stablehlo.multiply %4, %5 : tensor<8x8xi32>
    %7 = stablehlo.convert %6 : (tensor<8x8xi32>) -> tensor<8x8xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,-6.28318548)> : tensor<complex<f32>>
    %8 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<8x8xcomplex<f32>>
    %9 = stablehlo.multiply %8, %7 : tensor<8x8xcomplex<f32>>
    %cst_0 = stablehlo.constant dense<(8.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<complex<f32>>) -> tensor<8x8xcomplex<f32>>
    %11 = stablehlo.divide %9, %10 : tensor<8x8xcomplex<f32>>
    %12 = stablehlo.exponential %11 : tensor<8x8xcomplex<f32>>
    %13 = stablehlo.convert %12 : tensor<8x8xcomplex<f32>>
    %14 = stablehlo.convert %arg0 : (tensor<8xf32>) -> tensor<8xcomplex<f32>>
    %15 = stablehlo.dot_general %13, %14, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<8x8xcomplex<f32>>, tensor<8xcomplex<f32>>) -> tensor<8xcomplex<f32>>
    %16 = stablehlo.abs %15 : (tensor<8xcomplex<f32>>) -> tensor<8xf32>
    %17 = stablehlo.multiply %16, %16 : tensor<8xf32>
    return %17 : tensor<8xf32>
  }
}
