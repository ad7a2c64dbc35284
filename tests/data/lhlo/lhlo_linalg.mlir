func.func @main(%a: memref<4x4xf32>, %b: memref<4x3xf32>, %l: memref<4x4xf32>, %x: memref<4x3xf32>) {
  "lmhlo.cholesky"(%a, %l) {lower = true} : (memref<4x4xf32>, memref<4x4xf32>) -> ()
  "lmhlo.triangular_solve"(%l, %b, %x) {layout_a = dense<[1, 0]> : tensor<2xindex>, layout_b = dense<[1, 0]> : tensor<2xindex>, layout_output = dense<[1, 0]> : tensor<2xindex>, left_side = true, lower = true, transpose_a = #mhlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (memref<4x4xf32>, memref<4x3xf32>, memref<4x3xf32>) -> ()
  return
}
