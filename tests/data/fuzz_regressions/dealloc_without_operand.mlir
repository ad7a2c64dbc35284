// fuzz seed 3 #46500: IndexError in passes/shape_query.py build_query: a dealloc of nothing
// expect: error "'memref.dealloc': takes 1 operands, got 0"
func @main(%arg0: memref<3xf32>) -> memref<3xf32> {
  %t = alloc() : memref<3xf32>
  "xla_lhlo.copy"(%arg0, %t) : (memref<3xf32>, memref<3xf32>) -> ()
  %out = alloc() : memref<3xf32>
  "xla_lhlo.copy"(%t, %out) : (memref<3xf32>, memref<3xf32>) -> ()
  dealloc : memref<3xf32>
  return %out : memref<3xf32>
}
