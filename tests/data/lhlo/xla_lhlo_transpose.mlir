func.func @main(%x: memref<2x3xf32>, %out: memref<3x2xf32>) {
  "xla_lhlo.transpose"(%x, %out) {permutation = dense<[1, 0]> : tensor<2xi64>} : (memref<2x3xf32>, memref<3x2xf32>) -> ()
  return
}
