// fuzz seed 4 #21863: IndexError in passes/import_lhlo.py run: a buffer-level function whose
// body is empty
// expect: error "'func.func': function body must end with a return"
func.func @main(%arg0: memref<8x1024xf32>) -> memref<8x1024xf32> {
}
