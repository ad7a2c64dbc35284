func.func @main(%x: memref<4x6xf32>, %s: memref<2x3xf32>, %out: memref<4x6xf32>) {
  %init = memref.alloc() : memref<f32>
  "lmhlo.constant"(%init) {value = dense<0.0> : tensor<f32>} : (memref<f32>) -> ()
  "lmhlo.select_and_scatter"(%x, %s, %init, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %r: memref<i1>):
    "lmhlo.compare"(%a, %b, %r) {comparison_direction = #mhlo<comparison_direction GE>} : (memref<f32>, memref<f32>, memref<i1>) -> ()
    "lmhlo.terminator"() : () -> ()
  }, {
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "lmhlo.add"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) {window_dimensions = dense<[2, 2]> : tensor<2xi64>, window_strides = dense<[2, 2]> : tensor<2xi64>} : (memref<4x6xf32>, memref<2x3xf32>, memref<f32>, memref<4x6xf32>) -> ()
  memref.dealloc %init : memref<f32>
  return
}
