// fuzz seed 2 #5480: StopIteration in passes/import_lhlo.py alloc_dims: a fusion-local alloc
// of a dynamic memref without its sizes
// expect: error "'memref.alloc': memref<?x?xf32> has 2 dynamic dims, but the alloc gives 0 sizes"
func @main(%arg0: memref<4x8xf32>, %starts: memref<2xi64>, %sizes: memref<2xi64>) -> memref<?x?xf32> {
  %c0 = constant 0 : index
  %c1 = constant 1 : index
  %d0 = dim %arg0, %c0 : memref<4x8xf32>
  %d1 = dim %arg0, %c1 : memref<4x8xf32>
  %out = alloc(%d0, %d1) : memref<?x?xf32>
  "xla_lhlo.fusion"() ({
    %1 = alloc() : memref<?x?xf32>
    "xla_ldhlo.slice"(%arg0, %starts, %sizes, %1) : (memref<4x8xf32>, memref<2xi64>, memref<2xi64>, memref<?x?xf32>) -> ()
    "xla_lhlo.copy"(%1, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
    "xla_lhlo.terminator"() : () -> ()
  }) : () -> ()
  return %out : memref<?x?xf32>
}
