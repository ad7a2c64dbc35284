// A chain of elementwise ops with a broadcast scalar fuses into one kLoop kernel;
// the result is written straight into the caller's buffer.
func.func @main(%x: tensor<4x8xf32>, %s: tensor<f32>) -> tensor<4x8xf32> {
  %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<4x8xf32>
  %0 = stablehlo.multiply %x, %b : tensor<4x8xf32>
  %1 = stablehlo.exponential %0 : tensor<4x8xf32>
  %2 = stablehlo.add %1, %x : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}
// ==== hlo
// module {
//   func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4x8xf32> {
//     %0 = "mhlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
//     %1 = "mhlo.multiply"(%arg0, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//     %2 = "mhlo.exponential"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//     %3 = "mhlo.add"(%2, %arg0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//     func.return %3 : tensor<4x8xf32>
//   }
// }
// ==== fused
// module {
//   func.func @main(%arg0: tensor<4x8xf32>, %arg1: tensor<f32>) -> tensor<4x8xf32> {
//     %0 = "mhlo.fusion"(%arg1, %arg0) ({
//     ^bb0(%arg2: tensor<f32>, %arg3: tensor<4x8xf32>):
//       %1 = "mhlo.broadcast_in_dim"(%arg2) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
//       %2 = "mhlo.multiply"(%arg3, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       %3 = "mhlo.exponential"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//       %4 = "mhlo.add"(%3, %arg3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       "mhlo.return"(%4) : (tensor<4x8xf32>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//     func.return %0 : tensor<4x8xf32>
//   }
// }
// ==== lhlo
// module {
//   func.func @main(%arg0: memref<4x8xf32>, %arg1: memref<f32>, %arg2: memref<4x8xf32>) attributes {aot.num_inputs = 2 : i64} {
//     "lmhlo.fusion"(%arg1, %arg0, %arg2) ({
//     ^bb0(%arg3: tensor<f32>, %arg4: tensor<4x8xf32>):
//       %0 = "mhlo.broadcast_in_dim"(%arg3) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
//       %1 = "mhlo.multiply"(%arg4, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       %2 = "mhlo.exponential"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//       %3 = "mhlo.add"(%2, %arg4) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       "mhlo.return"(%3) : (tensor<4x8xf32>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 3 : i64} : (memref<f32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
//     func.return
//   }
// }
// ==== loops
// module {
//   func.func @main(%arg0: memref<4x8xf32>, %arg1: memref<f32>, %arg2: memref<4x8xf32>) attributes {aot.num_inputs = 2 : i64} {
//     "func.call"(%arg1, %arg0, %arg2) {callee = @main_kernel_0, aot.writes = array<i64: 2>, aot.parallel = 2 : i64} : (memref<f32>, memref<4x8xf32>, memref<4x8xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_0(%arg0: memref<f32>, %arg1: memref<4x8xf32>, %arg2: memref<4x8xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 4 : i64} : () -> index
//     %1 = "arith.constant"() {value = 8 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg3: index):
//       %4 = "arith.constant"() {value = 0 : i64} : () -> index
//       %5 = "arith.constant"() {value = 1 : i64} : () -> index
//       "scf.for"(%4, %1, %5) ({
//       ^bb0(%arg4: index):
//         %6 = "memref.load"(%arg1, %arg3, %arg4) : (memref<4x8xf32>, index, index) -> f32
//         %7 = "memref.load"(%arg0) : (memref<f32>) -> f32
//         %8 = "arith.mulf"(%6, %7) : (f32, f32) -> f32
//         %9 = "math.exp"(%8) : (f32) -> f32
//         %10 = "arith.addf"(%9, %6) : (f32, f32) -> f32
//         "memref.store"(%10, %arg2, %arg3, %arg4) : (f32, memref<4x8xf32>, index, index) -> ()
//         "scf.yield"() : () -> ()
//       }) : (index, index, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func @main__output_shapes(%arg0: memref<4x8xf32>, %arg1: memref<f32>) -> (index, index, index) attributes {aot.shape_query = "main", aot.num_inputs = 2 : i64} {
//     %0 = "arith.constant"() {value = 4 : i64} : () -> index
//     %1 = "arith.constant"() {value = 8 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     func.return %0, %1, %2 : index, index, index
//   }
// }
