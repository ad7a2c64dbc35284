// fuzz seed 6 #71383: ValueError in frontend/pretty.py decode_dot_general: contracting_dims
// that are not `[..] x [..]`
// expect: error "expected 'contracting_dims = [..] x [..]' (lists of integers)"
func.func @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [DEFAULT, DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}
