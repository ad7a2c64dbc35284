// Softmax's two row reductions, their producers and the divide become one kInput
// fusion that walks each row while it is in cache; the matmul is a kernel of its own.
func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %h = stablehlo.dot_general %x, %w, contracting_dims = [1] x [0] : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %m = stablehlo.reduce(%h init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %mb = stablehlo.broadcast_in_dim %m, dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
  %d = stablehlo.subtract %h, %mb : tensor<2x4xf32>
  %e = stablehlo.exponential %d : tensor<2x4xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [0] : (tensor<2xf32>) -> tensor<2x4xf32>
  %y = stablehlo.divide %e, %sb : tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}
// ==== hlo
// module {
//   func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32> {
//     %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
//     %1 = "mhlo.constant"() {value = dense<"0x000080FF"> : tensor<f32>} : () -> tensor<f32>
//     %2 = "mhlo.reduce"(%0, %1) ({
//     ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
//       %3 = "mhlo.maximum"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//       "mhlo.return"(%3) : (tensor<f32>) -> ()
//     }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//     %4 = "mhlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//     %5 = "mhlo.subtract"(%0, %4) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//     %6 = "mhlo.exponential"(%5) : (tensor<2x4xf32>) -> tensor<2x4xf32>
//     %7 = "mhlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
//     %8 = "mhlo.reduce"(%6, %7) ({
//     ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
//       %9 = "mhlo.add"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//       "mhlo.return"(%9) : (tensor<f32>) -> ()
//     }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//     %10 = "mhlo.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//     %11 = "mhlo.divide"(%6, %10) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//     func.return %11 : tensor<2x4xf32>
//   }
// }
// ==== fused
// module {
//   func.func @main(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32> {
//     %0 = "mhlo.dot_general"(%arg0, %arg1) {dot_dimension_numbers = {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>}} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
//     %1 = "mhlo.fusion"(%0) ({
//     ^bb0(%arg2: tensor<2x4xf32>):
//       %2 = "mhlo.constant"() {value = dense<"0x000080FF"> : tensor<f32>} : () -> tensor<f32>
//       %3 = "mhlo.reduce"(%arg2, %2) ({
//       ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
//         %4 = "mhlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%4) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       %5 = "mhlo.broadcast_in_dim"(%3) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %6 = "mhlo.subtract"(%arg2, %5) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       %7 = "mhlo.exponential"(%6) : (tensor<2x4xf32>) -> tensor<2x4xf32>
//       %8 = "mhlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
//       %9 = "mhlo.reduce"(%7, %8) ({
//       ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
//         %10 = "mhlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%10) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       %11 = "mhlo.broadcast_in_dim"(%9) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %12 = "mhlo.divide"(%7, %11) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%12) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kInput"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
//     func.return %1 : tensor<2x4xf32>
//   }
// }
// ==== lhlo
// module {
//   func.func @main(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.num_inputs = 2 : i64} {
//     %0 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "lmhlo.dot_general"(%arg0, %arg1, %0) {dot_dimension_numbers = {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>}} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     "lmhlo.fusion"(%0, %arg2) ({
//     ^bb0(%arg3: tensor<2x4xf32>):
//       %1 = "mhlo.constant"() {value = dense<"0x000080FF"> : tensor<f32>} : () -> tensor<f32>
//       %2 = "mhlo.reduce"(%arg3, %1) ({
//       ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
//         %3 = "mhlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%3) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       %4 = "mhlo.broadcast_in_dim"(%2) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %5 = "mhlo.subtract"(%arg3, %4) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       %6 = "mhlo.exponential"(%5) : (tensor<2x4xf32>) -> tensor<2x4xf32>
//       %7 = "mhlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
//       %8 = "mhlo.reduce"(%6, %7) ({
//       ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
//         %9 = "mhlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%9) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       %10 = "mhlo.broadcast_in_dim"(%8) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %11 = "mhlo.divide"(%6, %10) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%11) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kInput", num_buffers = 2 : i64} : (memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%0) : (memref<2x4xf32>) -> ()
//     func.return
//   }
// }
// ==== loops
// module {
//   func.func @main(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.num_inputs = 2 : i64} {
//     %0 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "func.call"(%arg0, %arg1, %0) {callee = @main_kernel_0, aot.writes = array<i64: 2>} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     "func.call"(%0, %arg2) {callee = @main_kernel_1, aot.writes = array<i64: 1>, aot.parallel = 1 : i64, aot.parallel_block = 1 : i64} : (memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%0) : (memref<2x4xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_0(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.kernel = "dot_general"} {
//     "aot.gemm"(%arg0, %arg1, %arg2) {lhs_runs = [0 : i64, 0 : i64, 0 : i64, 1 : i64, 1 : i64, 2 : i64], rhs_runs = [0 : i64, 0 : i64, 0 : i64, 1 : i64, 1 : i64, 2 : i64]} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_1(%arg0: memref<2x4xf32>, %arg1: memref<2x4xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg2: index):
//       %4 = "arith.constant"() {value = 0 : i64} : () -> index
//       %5 = "arith.constant"() {value = 4 : i64} : () -> index
//       %6 = "arith.constant"() {value = 0xFFF0000000000000 : f64} : () -> f32
//       %7 = "arith.constant"() {value = 1 : i64} : () -> index
//       %8 = "scf.for"(%4, %5, %7, %6) ({
//       ^bb0(%arg3: index, %arg4: f32):
//         %9 = "memref.load"(%arg0, %arg2, %arg3) : (memref<2x4xf32>, index, index) -> f32
//         %10 = "arith.maximumf"(%arg4, %9) {fastmath = "reassoc"} : (f32, f32) -> f32
//         "scf.yield"(%10) : (f32) -> ()
//       }) : (index, index, index, f32) -> f32
//       %11 = "arith.constant"() {value = 0 : i64} : () -> index
//       %12 = "arith.constant"() {value = 4 : i64} : () -> index
//       %13 = "arith.constant"() {value = 0.0 : f64} : () -> f32
//       %14 = "arith.constant"() {value = 1 : i64} : () -> index
//       %15 = "scf.for"(%11, %12, %14, %13) ({
//       ^bb0(%arg5: index, %arg6: f32):
//         %16 = "memref.load"(%arg0, %arg2, %arg5) : (memref<2x4xf32>, index, index) -> f32
//         %17 = "arith.subf"(%16, %8) : (f32, f32) -> f32
//         %18 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %19 = "arith.cmpf"(%17, %18) {predicate = "olt"} : (f32, f32) -> i1
//         %20 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %21 = "arith.select"(%19, %20, %17) : (i1, f32, f32) -> f32
//         %22 = "arith.constant"() {value = 1.4426950408889634 : f64} : () -> f32
//         %23 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %24 = "arith.mulf"(%21, %22) {fastmath = "contract"} : (f32, f32) -> f32
//         %25 = "arith.addf"(%24, %23) {fastmath = "contract"} : (f32, f32) -> f32
//         %26 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %27 = "arith.subf"(%25, %26) : (f32, f32) -> f32
//         %28 = "arith.constant"() {value = -0.693359375 : f64} : () -> f32
//         %29 = "arith.mulf"(%27, %28) {fastmath = "contract"} : (f32, f32) -> f32
//         %30 = "arith.addf"(%29, %21) {fastmath = "contract"} : (f32, f32) -> f32
//         %31 = "arith.bitcast"(%25) : (f32) -> i32
//         %32 = "arith.constant"() {value = 1262485504 : i64} : () -> i32
//         %33 = "arith.subi"(%31, %32) : (i32, i32) -> i32
//         %34 = "arith.constant"() {value = 0.00021219444 : f64} : () -> f32
//         %35 = "arith.mulf"(%27, %34) {fastmath = "contract"} : (f32, f32) -> f32
//         %36 = "arith.addf"(%35, %30) {fastmath = "contract"} : (f32, f32) -> f32
//         %37 = "arith.mulf"(%36, %36) : (f32, f32) -> f32
//         %38 = "arith.constant"() {value = 0.0013814490521326661 : f64} : () -> f32
//         %39 = "arith.constant"() {value = 0.008368736132979393 : f64} : () -> f32
//         %40 = "arith.mulf"(%38, %36) {fastmath = "contract"} : (f32, f32) -> f32
//         %41 = "arith.addf"(%40, %39) {fastmath = "contract"} : (f32, f32) -> f32
//         %42 = "arith.constant"() {value = 0.04166838899254799 : f64} : () -> f32
//         %43 = "arith.mulf"(%41, %36) {fastmath = "contract"} : (f32, f32) -> f32
//         %44 = "arith.addf"(%43, %42) {fastmath = "contract"} : (f32, f32) -> f32
//         %45 = "arith.constant"() {value = 0.1666652113199234 : f64} : () -> f32
//         %46 = "arith.mulf"(%44, %36) {fastmath = "contract"} : (f32, f32) -> f32
//         %47 = "arith.addf"(%46, %45) {fastmath = "contract"} : (f32, f32) -> f32
//         %48 = "arith.constant"() {value = 0.4999999403953552 : f64} : () -> f32
//         %49 = "arith.mulf"(%47, %36) {fastmath = "contract"} : (f32, f32) -> f32
//         %50 = "arith.addf"(%49, %48) {fastmath = "contract"} : (f32, f32) -> f32
//         %51 = "arith.mulf"(%37, %50) {fastmath = "contract"} : (f32, f32) -> f32
//         %52 = "arith.addf"(%51, %36) {fastmath = "contract"} : (f32, f32) -> f32
//         %53 = "arith.constant"() {value = 1.0 : f64} : () -> f32
//         %54 = "arith.addf"(%52, %53) : (f32, f32) -> f32
//         %55 = "arith.constant"() {value = 26 : i64} : () -> i32
//         %56 = "arith.addi"(%33, %55) : (i32, i32) -> i32
//         %57 = "arith.constant"() {value = 127 : i64} : () -> i32
//         %58 = "arith.addi"(%56, %57) : (i32, i32) -> i32
//         %59 = "arith.constant"() {value = 23 : i64} : () -> i32
//         %60 = "arith.shli"(%58, %59) : (i32, i32) -> i32
//         %61 = "arith.bitcast"(%60) : (i32) -> f32
//         %62 = "arith.mulf"(%54, %61) : (f32, f32) -> f32
//         %63 = "arith.constant"() {value = 1.4901161193847656e-08 : f64} : () -> f32
//         %64 = "arith.mulf"(%62, %63) : (f32, f32) -> f32
//         "memref.store"(%64, %arg1, %arg2, %arg5) : (f32, memref<2x4xf32>, index, index) -> ()
//         %65 = "arith.addf"(%arg6, %64) {fastmath = "reassoc"} : (f32, f32) -> f32
//         "scf.yield"(%65) : (f32) -> ()
//       }) : (index, index, index, f32) -> f32
//       %66 = "arith.constant"() {value = 0 : i64} : () -> index
//       %67 = "arith.constant"() {value = 1 : i64} : () -> index
//       "scf.for"(%66, %1, %67) ({
//       ^bb0(%arg7: index):
//         %68 = "memref.load"(%arg1, %arg2, %arg7) : (memref<2x4xf32>, index, index) -> f32
//         %69 = "arith.divf"(%68, %15) : (f32, f32) -> f32
//         "memref.store"(%69, %arg1, %arg2, %arg7) : (f32, memref<2x4xf32>, index, index) -> ()
//         "scf.yield"() : () -> ()
//       }) : (index, index, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func @main__output_shapes(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>) -> (index, index, index) attributes {aot.shape_query = "main", aot.num_inputs = 2 : i64} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 32 : i64} : () -> index
//     func.return %0, %1, %2 : index, index, index
//   }
// }
