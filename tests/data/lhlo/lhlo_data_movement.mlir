func.func @main(%x: memref<3x4xf32>, %y: memref<3x2xf32>, %i: memref<i32>, %j: memref<i32>, %pv: memref<f32>,
                %io: memref<3x4xf32>, %ds: memref<2x2xf32>, %pd: memref<6x6xf32>, %cc: memref<3x6xf32>,
                %tr: memref<4x3xf32>, %rv: memref<3x4xf32>, %bc: memref<12xf32>) {
  %k = memref.alloc() : memref<3x4xi32>
  "lmhlo.iota"(%k) {iota_dimension = 1 : i64} : (memref<3x4xi32>) -> ()
  %kf = memref.alloc() : memref<3x4xf32>
  "lmhlo.convert"(%k, %kf) : (memref<3x4xi32>, memref<3x4xf32>) -> ()
  "lmhlo.add"(%x, %kf, %io) : (memref<3x4xf32>, memref<3x4xf32>, memref<3x4xf32>) -> ()
  "lmhlo.dynamic_slice"(%x, %i, %j, %ds) {slice_sizes = dense<[2, 2]> : tensor<2xi64>} : (memref<3x4xf32>, memref<i32>, memref<i32>, memref<2x2xf32>) -> ()
  "lmhlo.pad"(%x, %pv, %pd) {edge_padding_high = dense<[0, 2]> : tensor<2xi64>, edge_padding_low = dense<[1, 0]> : tensor<2xi64>, interior_padding = dense<[1, 0]> : tensor<2xi64>} : (memref<3x4xf32>, memref<f32>, memref<6x6xf32>) -> ()
  "lmhlo.concatenate"(%x, %y, %cc) {dimension = 1 : i64} : (memref<3x4xf32>, memref<3x2xf32>, memref<3x6xf32>) -> ()
  "lmhlo.transpose"(%x, %tr) {permutation = dense<[1, 0]> : tensor<2xi64>} : (memref<3x4xf32>, memref<4x3xf32>) -> ()
  "lmhlo.reverse"(%x, %rv) {dimensions = dense<[0]> : tensor<1xi64>} : (memref<3x4xf32>, memref<3x4xf32>) -> ()
  "lmhlo.bitcast"(%x, %bc) : (memref<3x4xf32>, memref<12xf32>) -> ()
  memref.dealloc %k : memref<3x4xi32>
  memref.dealloc %kf : memref<3x4xf32>
  return
}
