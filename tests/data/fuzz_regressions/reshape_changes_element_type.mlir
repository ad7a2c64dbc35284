// found with the one above: a reshape's element type was not checked either
// expect: error "'mhlo.reshape': result type tensor<8xi32> does not match the inferred type tensor<8xf32>"
func.func @main(%arg0: tensor<2x4xf32>) -> tensor<8xi32> {
  %0 = stablehlo.reshape %arg0 : (tensor<2x4xf32>) -> tensor<8xi32>
  return %0 : tensor<8xi32>
}
