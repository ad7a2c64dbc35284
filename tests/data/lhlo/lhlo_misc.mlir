func.func @main(%x: memref<4x5xf32>, %u: memref<2x2xf32>, %i: memref<i32>, %j: memref<i32>, %v: memref<3xf32>, %w: memref<5x3xf32>,
                %dus: memref<4x5xf32>, %bc: memref<2x3xf32>, %rp: memref<4x5xf32>, %dt: memref<4x3xf32>) {
  "lmhlo.dynamic-update-slice"(%x, %u, %i, %j, %dus) : (memref<4x5xf32>, memref<2x2xf32>, memref<i32>, memref<i32>, memref<4x5xf32>) -> ()
  "lmhlo.broadcast"(%v, %bc) {broadcast_sizes = dense<2> : tensor<1xi64>} : (memref<3xf32>, memref<2x3xf32>) -> ()
  "lmhlo.reduce_precision"(%x, %rp) {exponent_bits = 5 : i32, mantissa_bits = 10 : i32} : (memref<4x5xf32>, memref<4x5xf32>) -> ()
  "lmhlo.dot"(%x, %w, %dt) {dot_dimension_numbers = #mhlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#mhlo<precision DEFAULT>, #mhlo<precision DEFAULT>]} : (memref<4x5xf32>, memref<5x3xf32>, memref<4x3xf32>) -> ()
  return
}
