func.func @main(%x: memref<4xf32>, %out: memref<4xf32>) {
  %c = memref.alloc() : memref<i1>
  %s = memref.alloc() : memref<f32>
  %zero = memref.alloc() : memref<f32>
  %lim = memref.alloc() : memref<f32>
  "lmhlo.constant"(%zero) {value = dense<0.0> : tensor<f32>} : (memref<f32>) -> ()
  "lmhlo.constant"(%lim) {value = dense<100.0> : tensor<f32>} : (memref<f32>) -> ()
  "lmhlo.copy"(%x, %out) : (memref<4xf32>, memref<4xf32>) -> ()
  "lmhlo.while"(%c) ({
    "lmhlo.reduce"(%out, %zero, %s) ({
    ^bb0(%a: memref<f32>, %b: memref<f32>, %r: memref<f32>):
      "lmhlo.add"(%a, %b, %r) : (memref<f32>, memref<f32>, memref<f32>) -> ()
      "lmhlo.terminator"() : () -> ()
    }) {dimensions = dense<0> : tensor<1xi64>} : (memref<4xf32>, memref<f32>, memref<f32>) -> ()
    "lmhlo.compare"(%s, %lim, %c) {comparison_direction = #mhlo<comparison_direction LT>} : (memref<f32>, memref<f32>, memref<i1>) -> ()
    "lmhlo.terminator"() : () -> ()
  }, {
    "lmhlo.add"(%out, %out, %out) : (memref<4xf32>, memref<4xf32>, memref<4xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) : (memref<i1>) -> ()
  memref.dealloc %c : memref<i1>
  memref.dealloc %s : memref<f32>
  memref.dealloc %zero : memref<f32>
  memref.dealloc %lim : memref<f32>
  return
}
