// fuzz seed 2 #10807: OverflowError in frontend/pretty.py decode_convolution: a window
// padding that does not fit in 64 bits
// expect: error "malformed window 'pad' in convolution"
func.func @main(%arg0: tensor<2x10x3xf32>, %arg1: tensor<3x3x5xf32>) -> tensor<2x8x5xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, f]x[0, i, o]->[b, 0, f], window = {stride = [1], pad = [[0, 99999999999999999999]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x10x3xf32>, tensor<3x3x5xf32>) -> tensor<2x8x5xf32>
  return %0 : tensor<2x8x5xf32>
}
