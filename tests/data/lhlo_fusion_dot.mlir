func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  %t = memref.alloc() : memref<2x4xf32>
  "lmhlo.dot"(%a, %b, %t) : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
  %k = memref.alloc() : memref<2x4xf32>
  "xla_lhlo.const"(%k) {value = dense<1.5> : tensor<2x4xf32>} : (memref<2x4xf32>) -> ()
  %s = memref.alloc() : memref<2x4xf32>
  "lmhlo.add"(%t, %k, %s) : (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
  "lmhlo.fusion"() ({
    %e = memref.alloc() : memref<2x4xf32>
    "lmhlo.exponential"(%s, %e) : (memref<2x4xf32>, memref<2x4xf32>) -> ()
    "lmhlo.multiply"(%e, %t, %c) : (memref<2x4xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) : () -> ()
  memref.dealloc %t : memref<2x4xf32>
  memref.dealloc %k : memref<2x4xf32>
  memref.dealloc %s : memref<2x4xf32>
  return
}
