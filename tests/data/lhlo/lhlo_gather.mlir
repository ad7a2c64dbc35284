func.func @main(%x: memref<5x4xf32>, %i: memref<3x1xi32>, %out: memref<3x4xf32>) {
  "lmhlo.gather"(%x, %i, %out) {dimension_numbers = #mhlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = dense<[1, 4]> : tensor<2xi64>} : (memref<5x4xf32>, memref<3x1xi32>, memref<3x4xf32>) -> ()
  return
}
