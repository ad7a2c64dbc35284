// fuzz seed 7 #45060: IndexError in codegen/llvm/emitters.py _dim (LLVM IR): a memref dim whose
// constant index is past the buffer's rank
// expect: error "'memref.dim': takes a buffer and a constant index below its rank"
func @main(%arg0: memref<?x?xf32>) -> memref<?x?xf32> {
  %c0 = constant 0 : index
  %c2 = constant 2 : index
  %d0 = dim %arg0, %c0 : memref<?x?xf32>
  %d1 = dim %arg0, %c2 : memref<?x?xf32>
  %out = alloc(%d0, %d1) : memref<?x?xf32>
  "xla_lhlo.copy"(%arg0, %out) : (memref<?x?xf32>, memref<?x?xf32>) -> ()
  return %out : memref<?x?xf32>
}
