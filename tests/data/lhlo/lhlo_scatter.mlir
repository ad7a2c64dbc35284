func.func @main(%x: memref<5x4xf32>, %i: memref<3x1xi32>, %u: memref<3x4xf32>, %out: memref<5x4xf32>) {
  "lmhlo.scatter"(%x, %i, %u, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "lmhlo.add"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) {indices_are_sorted = false, scatter_dimension_numbers = #mhlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false} : (memref<5x4xf32>, memref<3x1xi32>, memref<3x4xf32>, memref<5x4xf32>) -> ()
  return
}
