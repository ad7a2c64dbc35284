// fuzz seed 6 #37974 and #87218: IndexError in passes/import_lhlo.py raise_fusion: an
// lmhlo.fusion without a region
// expect: error "'lmhlo.fusion': a fusion needs a body region"
func.func @main(%c: memref<2x4xf32>) {
  "lmhlo.fusion"(%c) {value = dense<1.5> : tensor<2x4xf32>} : (memref<2x4xf32>) -> ()
  "lmhlo.terminator"() : () -> ()
}
