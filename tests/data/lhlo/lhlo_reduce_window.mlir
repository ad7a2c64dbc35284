func.func @main(%x: memref<4x6xf32>, %out: memref<2x3xf32>) {
  %init = memref.alloc() : memref<f32>
  "lmhlo.constant"(%init) {value = dense<-1.0e+30> : tensor<f32>} : (memref<f32>) -> ()
  "lmhlo.reduce_window"(%x, %init, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "lmhlo.maximum"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) {window_dimensions = dense<[2, 2]> : tensor<2xi64>, window_strides = dense<[2, 2]> : tensor<2xi64>} : (memref<4x6xf32>, memref<f32>, memref<2x3xf32>) -> ()
  memref.dealloc %init : memref<f32>
  return
}
