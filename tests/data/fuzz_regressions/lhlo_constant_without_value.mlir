// fuzz seed 2 #1623: KeyError in passes/import_lhlo.py lower: an lmhlo constant without
// its value attribute
// expect: error "'lmhlo.constant': needs a 'value = dense<...>' attribute"
func.func @main(%c: memref<2x4xf32>) {
  "xla_lhlo.const"(%c) {x = dense<1.5> : tensor<2x4xf32>} : (memref<2x4xf32>) -> ()
  "lmhlo.terminator"() : () -> ()
}
