// found with the one above: broadcast_dimensions naming a result dim twice
// expect: error "broadcast_dimensions (0, 0) name a result dim twice"
func.func @main(%arg0: tensor<3x3xf32>) -> tensor<3x4xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 0] : (tensor<3x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
