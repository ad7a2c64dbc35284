// fuzz seed 6 #89424: ValueError in ops/windows.py padding_pairs: a padding given as a string
// expect: error "'mhlo.convolution': padding must be 2 (low, high) pairs of integers"
func.func @main(%arg0: tensor<1x4x4x3xf32>, %arg1: tensor<3x3x3x2xf32>) -> tensor<1x2x2x2xf32> {
  %0 = "stablehlo.convolution"(%arg0, %arg1) <{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, padding = "stablehlo.dynamic_gather", batch_group_count = 1 : i64, feature_group_count = 1 : i64}> : (tensor<1x4x4x3xf32>, tensor<3x3x3x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}
