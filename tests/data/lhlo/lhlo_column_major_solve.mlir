func.func @main(%a: memref<4x4xf32>, %b: memref<4x3xf32>, %x: memref<4x3xf32>) {
  "lmhlo.triangular_solve"(%a, %b, %x) {layout_a = dense<[0, 1]> : tensor<2xindex>, left_side = true, lower = true, transpose_a = #mhlo<transpose NO_TRANSPOSE>, unit_diagonal = false} : (memref<4x4xf32>, memref<4x3xf32>, memref<4x3xf32>) -> ()
  return
}
