func.func @main(%x: memref<2x5x5x3xf32>, %w: memref<3x3x3x4xf32>, %out: memref<2x5x5x4xf32>) {
  lmhlo.convolution(%x, %w, %out) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (memref<2x5x5x3xf32>, memref<3x3x3x4xf32>, memref<2x5x5x4xf32>) -> ()
  return
}
