func.func @main(%x: tensor<2x5x5x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<2x5x5x4xf32> {
  %0 = mhlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<2x5x5x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x5x5x4xf32>
  return %0 : tensor<2x5x5x4xf32>
}
