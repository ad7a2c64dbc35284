// Buffer-level input in the RFC's xla_lhlo spelling: a reduce whose body works on
// buffers, and a result returned as a buffer instead of written to an argument.
func @main(%x: memref<3x5xf32>) -> memref<3xf32> {
  %init = alloc() : memref<f32>
  "xla_lhlo.const"(%init) {value = dense<0.0> : tensor<f32>} : (memref<f32>) -> ()
  %sq = alloc() : memref<3x5xf32>
  "xla_lhlo.mul"(%x, %x, %sq) : (memref<3x5xf32>, memref<3x5xf32>, memref<3x5xf32>) -> ()
  %out = alloc() : memref<3xf32>
  "xla_lhlo.reduce"(%sq, %init, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "xla_lhlo.add"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
    "xla_lhlo.terminator"() : () -> ()
  }) {dimensions = dense<[1]> : tensor<1xi64>} : (memref<3x5xf32>, memref<f32>, memref<3xf32>) -> ()
  dealloc %sq : memref<3x5xf32>
  dealloc %init : memref<f32>
  return %out : memref<3xf32>
}
