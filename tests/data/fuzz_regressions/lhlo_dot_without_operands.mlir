// fuzz seed 7 #14979: IndexError in passes/import_lhlo.py lower: an lmhlo.dot without operands
// expect: error "'lmhlo.dot': takes two operands and an output buffer, got 0"
func.func @main(%a: memref<2x3xf32>, %b: memref<3x4xf32>, %c: memref<2x4xf32>) {
  "lmhlo.dot"() : () -> ()
  "lmhlo.copy"(%c, %c) : (memref<2x4xf32>, memref<2x4xf32>) -> ()
  "lmhlo.terminator"() : () -> ()
}
