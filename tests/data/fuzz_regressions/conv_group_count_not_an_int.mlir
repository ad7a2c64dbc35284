// fuzz seed 3 #19479: ValueError in ops/windows.py Conv: batch_group_count given as a string
// expect: error 'feature_group_count and batch_group_count must be integers'
func.func @main(%arg0: tensor<2x8x8x1xf32>, %arg1: tensor<3x3x1x4xf32>) -> tensor<2x8x8x4xf32> {
  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = "xla_lhlo.mul", feature_group_count = 1 : i64} : (tensor<2x8x8x1xf32>, tensor<3x3x1x4xf32>) -> tensor<2x8x8x4xf32>
  return %0 : tensor<2x8x8x4xf32>
}
