// fuzz seed 4 #94887: KeyError in passes/import_lhlo.py raise_body: a buffer-level reduce body
// that never writes its output buffer
// expect: error "'lmhlo.reduce': a reduce body must write its output buffers"
func @main() -> memref<3xf32> {
  %init = alloc() : memref<f32>
  %sq = alloc() : memref<3x5xf32>
  %out = alloc() : memref<3xf32>
  "xla_lhlo.reduce"(%sq, %init, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "xla_lhlo.terminator"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
  }) {dimensions = dense<[1]> : tensor<1xi64>} : (memref<3x5xf32>, memref<f32>, memref<3xf32>) -> ()
  return %out : memref<3xf32>
}
