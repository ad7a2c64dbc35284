// fuzz seed 7 #19673: AssertionError in ir/core.py Operation.result (passes/import_lhlo.py
// raise_fusion): an alloc with no result inside a fusion
// expect: error "'memref.alloc': an alloc has one result, a memref of numbers; got none"
func.func @main(%a: memref<2x3xf32>, %c: memref<2x3xf32>) {
  "lmhlo.fusion"() ({
    "memref.alloc"(%a, %a, %c) : (memref<2x3xf32>, memref<2x3xf32>, memref<2x3xf32>) -> ()
    "lmhlo.add"(%a, %a, %c) : (memref<2x3xf32>, memref<2x3xf32>, memref<2x3xf32>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) : () -> ()
  "lmhlo.terminator"() : () -> ()
}
