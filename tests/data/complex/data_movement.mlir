func.func @main(%x: tensor<3x4xcomplex<f32>>) -> (tensor<4x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>,
    tensor<6x4xcomplex<f32>>, tensor<4x6xcomplex<f32>>) {
  %0 = stablehlo.transpose %x, dims = [1, 0] : (tensor<3x4xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
  %1 = stablehlo.slice %x [0:3, 1:4:2] : (tensor<3x4xcomplex<f32>>) -> tensor<3x2xcomplex<f32>>
  %2 = stablehlo.concatenate %x, %x, dim = 0 : (tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<6x4xcomplex<f32>>
  %p = stablehlo.constant dense<(0x7FC00000,-0.0)> : tensor<complex<f32>>
  %3 = stablehlo.pad %x, %p, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<3x4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4x6xcomplex<f32>>
  return %0, %1, %2, %3 : tensor<4x3xcomplex<f32>>, tensor<3x2xcomplex<f32>>, tensor<6x4xcomplex<f32>>, tensor<4x6xcomplex<f32>>
}
