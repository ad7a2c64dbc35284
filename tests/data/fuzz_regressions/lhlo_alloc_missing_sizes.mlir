// fuzz seed 5 #52560 and #59096: RuntimeError (StopIteration) in passes/shape_query.py: an
// alloc of a dynamic memref without its sizes, outside a fusion
// expect: error "'memref.alloc': memref<3x?xf32> has 1 dynamic dims, but the alloc gives 0 sizes"
func @main(%x: memref<3x?xf32>) -> memref<3x?xf32> {
  %sq = alloc() : memref<3x?xf32>
  "xla_lhlo.mul"(%x, %x, %sq) : (memref<3x?xf32>, memref<3x?xf32>, memref<3x?xf32>) -> ()
  return %sq : memref<3x?xf32>
}
