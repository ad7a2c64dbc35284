// fuzz seed 2 #16653: TypeError in frontend/pretty.py decode_reduce: `dimensions = 0`
// expect: error "expected 'across dimensions = [...]' (a list of integers)"
func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<f32>) -> tensor<4xf32> {
  %0 = stablehlo.reduce(%arg0 init: %arg1) applies stablehlo.add across dimensions = 0 : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
