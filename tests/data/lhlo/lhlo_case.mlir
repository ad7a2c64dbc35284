func.func @main(%k: memref<i32>, %x: memref<3xf32>, %out: memref<3xf32>) {
  "lmhlo.case"(%k) ({
    "lmhlo.negate"(%x, %out) : (memref<3xf32>, memref<3xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }, {
    "lmhlo.multiply"(%x, %x, %out) : (memref<3xf32>, memref<3xf32>, memref<3xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }, {
    "lmhlo.exponential"(%x, %out) : (memref<3xf32>, memref<3xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) : (memref<i32>) -> ()
  return
}
