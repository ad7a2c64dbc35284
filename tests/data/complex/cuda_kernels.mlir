func.func @main(%a: tensor<8x4xcomplex<f32>>, %b: tensor<4x8xcomplex<f32>>) -> (tensor<8x8xcomplex<f32>>, tensor<4xcomplex<f32>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<8x4xcomplex<f32>>, tensor<4x8xcomplex<f32>>) -> tensor<8x8xcomplex<f32>>
  %1 = stablehlo.sqrt %a : tensor<8x4xcomplex<f32>>
  %z = stablehlo.constant dense<(0.0,0.0)> : tensor<complex<f32>>
  %2 = stablehlo.reduce(%1 init: %z) applies stablehlo.add across dimensions = [0] : (tensor<8x4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4xcomplex<f32>>
  return %0, %2 : tensor<8x8xcomplex<f32>>, tensor<4xcomplex<f32>>
}
