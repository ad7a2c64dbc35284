func.func @main(%lo: memref<f32>, %x: memref<2x5xf32>, %hi: memref<f32>, %p: memref<2x5xi1>,
                %cl: memref<2x5xf32>, %sel: memref<2x5xf32>, %cv: memref<2x5xi32>, %bits: memref<2x5xi32>) {
  "lmhlo.clamp"(%lo, %x, %hi, %cl) : (memref<f32>, memref<2x5xf32>, memref<f32>, memref<2x5xf32>) -> ()
  %n = memref.alloc() : memref<2x5xf32>
  "lmhlo.negate"(%x, %n) : (memref<2x5xf32>, memref<2x5xf32>) -> ()
  "lmhlo.select"(%p, %x, %n, %sel) : (memref<2x5xi1>, memref<2x5xf32>, memref<2x5xf32>, memref<2x5xf32>) -> ()
  "lmhlo.convert"(%x, %cv) : (memref<2x5xf32>, memref<2x5xi32>) -> ()
  "lmhlo.bitcast_convert"(%x, %bits) : (memref<2x5xf32>, memref<2x5xi32>) -> ()
  memref.dealloc %n : memref<2x5xf32>
  return
}
