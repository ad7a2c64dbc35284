func.func @main(%x: tensor<?x3xcomplex<f32>>) -> tensor<?x3xcomplex<f32>> {
  %0 = stablehlo.multiply %x, %x : tensor<?x3xcomplex<f32>>
  return %0 : tensor<?x3xcomplex<f32>>
}
