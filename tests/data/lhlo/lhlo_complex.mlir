func.func @main(%re: memref<2x3xf32>, %im: memref<2x3xf32>, %c: memref<2x3xcomplex<f32>>, %r: memref<2x3xf32>, %i: memref<2x3xf32>) {
  %t = memref.alloc() : memref<2x3xcomplex<f32>>
  "lmhlo.complex"(%re, %im, %t) : (memref<2x3xf32>, memref<2x3xf32>, memref<2x3xcomplex<f32>>) -> ()
  "lmhlo.multiply"(%t, %t, %c) : (memref<2x3xcomplex<f32>>, memref<2x3xcomplex<f32>>, memref<2x3xcomplex<f32>>) -> ()
  "lmhlo.real"(%c, %r) : (memref<2x3xcomplex<f32>>, memref<2x3xf32>) -> ()
  "lmhlo.imag"(%c, %i) : (memref<2x3xcomplex<f32>>, memref<2x3xf32>) -> ()
  memref.dealloc %t : memref<2x3xcomplex<f32>>
  return
}
