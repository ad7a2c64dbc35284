// The RFC's xla_hlo spelling, a constant and a call, normalised to one spelling.
func @helper(%a: tensor<2xi64>) -> tensor<2xi64> {
  %0 = "xla_hlo.mul"(%a, %a) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}
func @main(%arg1: tensor<2xi64>) -> tensor<2xi64> {
  %c = "xla_hlo.const"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "xla_hlo.add"(%arg1, %c) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %1 = call @helper(%0) : (tensor<2xi64>) -> tensor<2xi64>
  return %1 : tensor<2xi64>
}
// ==== hlo
// module {
//   func.func @helper(%arg0: tensor<2xi64>) -> tensor<2xi64> {
//     %0 = "mhlo.multiply"(%arg0, %arg0) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//     func.return %0 : tensor<2xi64>
//   }
//   func.func @main(%arg0: tensor<2xi64>) -> tensor<2xi64> {
//     %0 = "mhlo.constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
//     %1 = "mhlo.add"(%arg0, %0) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//     %2 = "mhlo.multiply"(%1, %1) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//     func.return %2 : tensor<2xi64>
//   }
// }
// ==== fused
// module {
//   func.func @helper(%arg0: tensor<2xi64>) -> tensor<2xi64> {
//     %0 = "mhlo.fusion"(%arg0) ({
//     ^bb0(%arg1: tensor<2xi64>):
//       %1 = "mhlo.multiply"(%arg1, %arg1) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       "mhlo.return"(%1) : (tensor<2xi64>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<2xi64>) -> tensor<2xi64>
//     func.return %0 : tensor<2xi64>
//   }
//   func.func @main(%arg0: tensor<2xi64>) -> tensor<2xi64> {
//     %0 = "mhlo.constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
//     %1 = "mhlo.fusion"(%arg0, %0) ({
//     ^bb0(%arg1: tensor<2xi64>, %arg2: tensor<2xi64>):
//       %2 = "mhlo.add"(%arg1, %arg2) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       %3 = "mhlo.multiply"(%2, %2) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       "mhlo.return"(%3) : (tensor<2xi64>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//     func.return %1 : tensor<2xi64>
//   }
// }
// ==== lhlo
// module {
//   "memref.global"() {sym_name = "__constant_0", type = memref<2xi64>, initial_value = dense<[3, 4]> : tensor<2xi64>, constant = true} : () -> ()
//   func.func @helper(%arg0: memref<2xi64>, %arg1: memref<2xi64>) attributes {aot.num_inputs = 1 : i64} {
//     "lmhlo.fusion"(%arg0, %arg1) ({
//     ^bb0(%arg2: tensor<2xi64>):
//       %0 = "mhlo.multiply"(%arg2, %arg2) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       "mhlo.return"(%0) : (tensor<2xi64>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 2 : i64} : (memref<2xi64>, memref<2xi64>) -> ()
//     func.return
//   }
//   func.func @main(%arg0: memref<2xi64>, %arg1: memref<2xi64>) attributes {aot.num_inputs = 1 : i64} {
//     %0 = "memref.get_global"() {name = @__constant_0} : () -> memref<2xi64>
//     "lmhlo.fusion"(%arg0, %0, %arg1) ({
//     ^bb0(%arg2: tensor<2xi64>, %arg3: tensor<2xi64>):
//       %1 = "mhlo.add"(%arg2, %arg3) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       %2 = "mhlo.multiply"(%1, %1) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
//       "mhlo.return"(%2) : (tensor<2xi64>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 3 : i64, aot.known = array<i64: 1, 0, 3, 1, 1, 4>} : (memref<2xi64>, memref<2xi64>, memref<2xi64>) -> ()
//     func.return
//   }
// }
// ==== loops
// module {
//   "memref.global"() {sym_name = "__constant_0", type = memref<2xi64>, initial_value = dense<[3, 4]> : tensor<2xi64>, constant = true} : () -> ()
//   func.func @helper(%arg0: memref<2xi64>, %arg1: memref<2xi64>) attributes {aot.num_inputs = 1 : i64} {
//     "func.call"(%arg0, %arg1) {callee = @helper_kernel_0, aot.writes = array<i64: 1>, aot.parallel = 1 : i64, aot.parallel_block = 1 : i64} : (memref<2xi64>, memref<2xi64>) -> ()
//     func.return
//   }
//   func.func @main(%arg0: memref<2xi64>, %arg1: memref<2xi64>) attributes {aot.num_inputs = 1 : i64} {
//     %0 = "memref.get_global"() {name = @__constant_0} : () -> memref<2xi64>
//     "func.call"(%arg0, %0, %arg1) {callee = @main_kernel_0, aot.writes = array<i64: 2>, aot.parallel = 2 : i64, aot.parallel_block = 1 : i64} : (memref<2xi64>, memref<2xi64>, memref<2xi64>) -> ()
//     func.return
//   }
//   func.func private @helper_kernel_0(%arg0: memref<2xi64>, %arg1: memref<2xi64>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 0 : i64} : () -> index
//     %2 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%1, %0, %2) ({
//     ^bb0(%arg2: index):
//       %3 = "memref.load"(%arg0, %arg2) : (memref<2xi64>, index) -> i64
//       %4 = "arith.muli"(%3, %3) : (i64, i64) -> i64
//       "memref.store"(%4, %arg1, %arg2) : (i64, memref<2xi64>, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func private @main_kernel_0(%arg0: memref<2xi64>, %arg1: memref<2xi64>, %arg2: memref<2xi64>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 0 : i64} : () -> index
//     %2 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%1, %0, %2) ({
//     ^bb0(%arg3: index):
//       %3 = "memref.load"(%arg0, %arg3) : (memref<2xi64>, index) -> i64
//       %4 = "memref.load"(%arg1, %arg3) : (memref<2xi64>, index) -> i64
//       %5 = "arith.addi"(%3, %4) : (i64, i64) -> i64
//       %6 = "arith.muli"(%5, %5) : (i64, i64) -> i64
//       "memref.store"(%6, %arg2, %arg3) : (i64, memref<2xi64>, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func @helper__output_shapes(%arg0: memref<2xi64>) -> (index, index) attributes {aot.shape_query = "helper", aot.num_inputs = 1 : i64} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 0 : i64} : () -> index
//     func.return %0, %1 : index, index
//   }
//   func.func @main__output_shapes(%arg0: memref<2xi64>) -> (index, index) attributes {aot.shape_query = "main", aot.num_inputs = 1 : i64} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 0 : i64} : () -> index
//     func.return %0, %1 : index, index
//   }
// }
