// fuzz seed 3 #34901: IndexError in passes/legalize.py normalize_attrs: an integer attribute
// given as an empty list (`dims` renamed to `dimension`)
// expect: error "bad attribute: 'dimension' must be one integer, got 0"
func.func @main(%arg0: tensor<f32>) -> tensor<2x6xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dimension = [] : (tensor<f32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}
