// fuzz seed 3 #31809: ValueError in passes/import_lhlo.py raise_body: an op without operands
// in a buffer-level reduce body
// expect: error "a reduce body's ops read the body's arguments or values written before them"
func @main() -> memref<3xf32> {
  %init = alloc() : memref<f32>
  %sq = alloc() : memref<3x5xf32>
  %out = alloc() : memref<3xf32>
  "xla_lhlo.reduce"(%sq, %init, %out) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>):
    "xla_lhlo.add"(%a, %b, %c) : (memref<f32>, memref<f32>, memref<f32>) -> ()
    "xla_lhlo.negate"() : () -> ()
    "xla_lhlo.terminator"() : () -> ()
  }) {dimensions = dense<[1]> : tensor<1xi64>} : (memref<3x5xf32>, memref<f32>, memref<3xf32>) -> ()
  return %out : memref<3xf32>
}
