// fuzz seed 2 #9405: AttributeError in passes/import_lhlo.py tensor_of: a buffer operand
// whose type is no memref of numbers
// expect: error "an alloc has one result, a memref of numbers; got memref<2x!stablehlo.token>"
func @main(%arg0: memref<4x8xf32>, %sizes: memref<2xi64>) -> memref<?x?xf32> {
  %starts = alloc() : memref<2x!stablehlo.token>
  %c0 = constant 0 : index
  %d0 = dim %arg0, %c0 : memref<4x8xf32>
  %out = alloc(%d0, %d0) : memref<?x?xf32>
  "xla_lhlo.fusion"() ({
    "xla_ldhlo.slice"(%arg0, %starts, %sizes, %out) : (memref<4x8xf32>, memref<2x!stablehlo.token>, memref<2xi64>, memref<?x?xf32>) -> ()
    "xla_lhlo.terminator"() : () -> ()
  }) : () -> ()
  return %out : memref<?x?xf32>
}
