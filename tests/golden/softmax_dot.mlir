// Reductions become kInput fusions with their producers, the matmul a kernel of
// its own; temporaries are allocated before and freed after their last use.
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
//       "mhlo.return"(%3) : (tensor<2xf32>) -> ()
//     }) {fusion_kind = "kInput"} : (tensor<2x4xf32>) -> tensor<2xf32>
//     %5 = "mhlo.fusion"(%1, %0) ({
//     ^bb0(%arg5: tensor<2xf32>, %arg6: tensor<2x4xf32>):
//       %6 = "mhlo.broadcast_in_dim"(%arg5) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %7 = "mhlo.subtract"(%arg6, %6) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       %8 = "mhlo.exponential"(%7) : (tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%8) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//     %9 = "mhlo.fusion"(%5) ({
//     ^bb0(%arg7: tensor<2x4xf32>):
//       %10 = "mhlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
//       %11 = "mhlo.reduce"(%arg7, %10) ({
//       ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
//         %12 = "mhlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%12) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       "mhlo.return"(%11) : (tensor<2xf32>) -> ()
//     }) {fusion_kind = "kInput"} : (tensor<2x4xf32>) -> tensor<2xf32>
//     %13 = "mhlo.fusion"(%9, %5) ({
//     ^bb0(%arg10: tensor<2xf32>, %arg11: tensor<2x4xf32>):
//       %14 = "mhlo.broadcast_in_dim"(%arg10) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %15 = "mhlo.divide"(%arg11, %14) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%15) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<2xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//     func.return %13 : tensor<2x4xf32>
//   }
// }
// ==== lhlo
// module {
//   func.func @main(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.num_inputs = 2 : i64} {
//     %0 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "lmhlo.dot_general"(%arg0, %arg1, %0) {dot_dimension_numbers = {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>}} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     %1 = "memref.alloc"() {aot.stack = true} : () -> memref<2xf32>
//     "lmhlo.fusion"(%0, %1) ({
//     ^bb0(%arg3: tensor<2x4xf32>):
//       %2 = "mhlo.constant"() {value = dense<"0x000080FF"> : tensor<f32>} : () -> tensor<f32>
//       %3 = "mhlo.reduce"(%arg3, %2) ({
//       ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
//         %4 = "mhlo.maximum"(%arg4, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%4) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       "mhlo.return"(%3) : (tensor<2xf32>) -> ()
//     }) {fusion_kind = "kInput", num_buffers = 2 : i64} : (memref<2x4xf32>, memref<2xf32>) -> ()
//     %5 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "lmhlo.fusion"(%1, %0, %5) ({
//     ^bb0(%arg6: tensor<2xf32>, %arg7: tensor<2x4xf32>):
//       %6 = "mhlo.broadcast_in_dim"(%arg6) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %7 = "mhlo.subtract"(%arg7, %6) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       %8 = "mhlo.exponential"(%7) : (tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%8) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 3 : i64} : (memref<2xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%0) : (memref<2x4xf32>) -> ()
//     "memref.dealloc"(%1) : (memref<2xf32>) -> ()
//     %9 = "memref.alloc"() {aot.stack = true} : () -> memref<2xf32>
//     "lmhlo.fusion"(%5, %9) ({
//     ^bb0(%arg8: tensor<2x4xf32>):
//       %10 = "mhlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
//       %11 = "mhlo.reduce"(%arg8, %10) ({
//       ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
//         %12 = "mhlo.add"(%arg9, %arg10) : (tensor<f32>, tensor<f32>) -> tensor<f32>
//         "mhlo.return"(%12) : (tensor<f32>) -> ()
//       }) {dimensions = array<i64: 1>} : (tensor<2x4xf32>, tensor<f32>) -> tensor<2xf32>
//       "mhlo.return"(%11) : (tensor<2xf32>) -> ()
//     }) {fusion_kind = "kInput", num_buffers = 2 : i64} : (memref<2x4xf32>, memref<2xf32>) -> ()
//     "lmhlo.fusion"(%9, %5, %arg2) ({
//     ^bb0(%arg11: tensor<2xf32>, %arg12: tensor<2x4xf32>):
//       %13 = "mhlo.broadcast_in_dim"(%arg11) {broadcast_dimensions = array<i64: 0>} : (tensor<2xf32>) -> tensor<2x4xf32>
//       %14 = "mhlo.divide"(%arg12, %13) : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
//       "mhlo.return"(%14) : (tensor<2x4xf32>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 3 : i64} : (memref<2xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%5) : (memref<2x4xf32>) -> ()
//     "memref.dealloc"(%9) : (memref<2xf32>) -> ()
//     func.return
//   }
// }
// ==== loops
// module {
//   func.func @main(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.num_inputs = 2 : i64} {
//     %0 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "func.call"(%arg0, %arg1, %0) {callee = @main_kernel_0, aot.writes = array<i64: 2>} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     %1 = "memref.alloc"() {aot.stack = true} : () -> memref<2xf32>
//     "func.call"(%0, %1) {callee = @main_kernel_1, aot.writes = array<i64: 1>, aot.parallel = 1 : i64, aot.parallel_block = 1 : i64} : (memref<2x4xf32>, memref<2xf32>) -> ()
//     %2 = "memref.alloc"() {aot.stack = true} : () -> memref<2x4xf32>
//     "func.call"(%1, %0, %2) {callee = @main_kernel_2, aot.writes = array<i64: 2>, aot.parallel = 2 : i64, aot.parallel_block = 1 : i64} : (memref<2xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%0) : (memref<2x4xf32>) -> ()
//     "memref.dealloc"(%1) : (memref<2xf32>) -> ()
//     %3 = "memref.alloc"() {aot.stack = true} : () -> memref<2xf32>
//     "func.call"(%2, %3) {callee = @main_kernel_3, aot.writes = array<i64: 1>, aot.parallel = 1 : i64, aot.parallel_block = 1 : i64} : (memref<2x4xf32>, memref<2xf32>) -> ()
//     "func.call"(%3, %2, %arg2) {callee = @main_kernel_4, aot.writes = array<i64: 2>, aot.parallel = 2 : i64, aot.parallel_block = 1 : i64} : (memref<2xf32>, memref<2x4xf32>, memref<2x4xf32>) -> ()
//     "memref.dealloc"(%2) : (memref<2x4xf32>) -> ()
//     "memref.dealloc"(%3) : (memref<2xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_0(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.kernel = "dot_general"} {
//     "aot.gemm"(%arg0, %arg1, %arg2) {lhs_runs = [0 : i64, 0 : i64, 0 : i64, 1 : i64, 1 : i64, 2 : i64], rhs_runs = [0 : i64, 0 : i64, 0 : i64, 1 : i64, 1 : i64, 2 : i64]} : (memref<2x3xf32>, memref<3x4xf32>, memref<2x4xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_1(%arg0: memref<2x4xf32>, %arg1: memref<2xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg2: index):
//       %4 = "arith.constant"() {value = 0xFFF0000000000000 : f64} : () -> f32
//       %5 = "arith.constant"() {value = 0 : i64} : () -> index
//       %6 = "arith.constant"() {value = 1 : i64} : () -> index
//       %7 = "scf.for"(%5, %1, %6, %4) ({
//       ^bb0(%arg3: index, %arg4: f32):
//         %8 = "memref.load"(%arg0, %arg2, %arg3) : (memref<2x4xf32>, index, index) -> f32
//         %9 = "arith.maximumf"(%arg4, %8) {fastmath = "reassoc"} : (f32, f32) -> f32
//         "scf.yield"(%9) : (f32) -> ()
//       }) : (index, index, index, f32) -> f32
//       "memref.store"(%7, %arg1, %arg2) : (f32, memref<2xf32>, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func private @main_kernel_2(%arg0: memref<2xf32>, %arg1: memref<2x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg3: index):
//       %4 = "arith.constant"() {value = 0 : i64} : () -> index
//       %5 = "arith.constant"() {value = 1 : i64} : () -> index
//       "scf.for"(%4, %1, %5) ({
//       ^bb0(%arg4: index):
//         %6 = "memref.load"(%arg1, %arg3, %arg4) : (memref<2x4xf32>, index, index) -> f32
//         %7 = "memref.load"(%arg0, %arg3) : (memref<2xf32>, index) -> f32
//         %8 = "arith.subf"(%6, %7) : (f32, f32) -> f32
//         %9 = "arith.constant"() {value = 89.0 : f64} : () -> f32
//         %10 = "arith.cmpf"(%8, %9) {predicate = "ogt"} : (f32, f32) -> i1
//         %11 = "arith.constant"() {value = 89.0 : f64} : () -> f32
//         %12 = "arith.select"(%10, %11, %8) : (i1, f32, f32) -> f32
//         %13 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %14 = "arith.cmpf"(%12, %13) {predicate = "olt"} : (f32, f32) -> i1
//         %15 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %16 = "arith.select"(%14, %15, %12) : (i1, f32, f32) -> f32
//         %17 = "arith.constant"() {value = 1.4426950408889634 : f64} : () -> f32
//         %18 = "arith.mulf"(%16, %17) : (f32, f32) -> f32
//         %19 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %20 = "arith.addf"(%18, %19) : (f32, f32) -> f32
//         %21 = "arith.bitcast"(%20) : (f32) -> i32
//         %22 = "arith.constant"() {value = 1262485504 : i64} : () -> i32
//         %23 = "arith.subi"(%21, %22) : (i32, i32) -> i32
//         %24 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %25 = "arith.subf"(%20, %24) : (f32, f32) -> f32
//         %26 = "arith.constant"() {value = 0.693359375 : f64} : () -> f32
//         %27 = "arith.mulf"(%25, %26) : (f32, f32) -> f32
//         %28 = "arith.subf"(%16, %27) : (f32, f32) -> f32
//         %29 = "arith.constant"() {value = -0.00021219444 : f64} : () -> f32
//         %30 = "arith.mulf"(%25, %29) : (f32, f32) -> f32
//         %31 = "arith.subf"(%28, %30) : (f32, f32) -> f32
//         %32 = "arith.mulf"(%31, %31) : (f32, f32) -> f32
//         %33 = "arith.constant"() {value = 0.00019845958740916103 : f64} : () -> f32
//         %34 = "arith.mulf"(%33, %31) : (f32, f32) -> f32
//         %35 = "arith.constant"() {value = 0.0013941660290583968 : f64} : () -> f32
//         %36 = "arith.addf"(%34, %35) : (f32, f32) -> f32
//         %37 = "arith.mulf"(%36, %31) : (f32, f32) -> f32
//         %38 = "arith.constant"() {value = 0.008333391509950161 : f64} : () -> f32
//         %39 = "arith.addf"(%37, %38) : (f32, f32) -> f32
//         %40 = "arith.mulf"(%39, %31) : (f32, f32) -> f32
//         %41 = "arith.constant"() {value = 0.04166634753346443 : f64} : () -> f32
//         %42 = "arith.addf"(%40, %41) : (f32, f32) -> f32
//         %43 = "arith.mulf"(%42, %31) : (f32, f32) -> f32
//         %44 = "arith.constant"() {value = 0.1666666567325592 : f64} : () -> f32
//         %45 = "arith.addf"(%43, %44) : (f32, f32) -> f32
//         %46 = "arith.mulf"(%45, %31) : (f32, f32) -> f32
//         %47 = "arith.constant"() {value = 0.5 : f64} : () -> f32
//         %48 = "arith.addf"(%46, %47) : (f32, f32) -> f32
//         %49 = "arith.mulf"(%32, %48) : (f32, f32) -> f32
//         %50 = "arith.addf"(%49, %31) : (f32, f32) -> f32
//         %51 = "arith.constant"() {value = 1.0 : f64} : () -> f32
//         %52 = "arith.addf"(%50, %51) : (f32, f32) -> f32
//         %53 = "arith.constant"() {value = 8192 : i64} : () -> i32
//         %54 = "arith.addi"(%23, %53) : (i32, i32) -> i32
//         %55 = "arith.constant"() {value = 1 : i64} : () -> i32
//         %56 = "arith.shrui"(%54, %55) : (i32, i32) -> i32
//         %57 = "arith.constant"() {value = 4096 : i64} : () -> i32
//         %58 = "arith.subi"(%56, %57) : (i32, i32) -> i32
//         %59 = "arith.subi"(%23, %58) : (i32, i32) -> i32
//         %60 = "arith.constant"() {value = 127 : i64} : () -> i32
//         %61 = "arith.addi"(%58, %60) : (i32, i32) -> i32
//         %62 = "arith.constant"() {value = 23 : i64} : () -> i32
//         %63 = "arith.shli"(%61, %62) : (i32, i32) -> i32
//         %64 = "arith.bitcast"(%63) : (i32) -> f32
//         %65 = "arith.mulf"(%52, %64) : (f32, f32) -> f32
//         %66 = "arith.constant"() {value = 127 : i64} : () -> i32
//         %67 = "arith.addi"(%59, %66) : (i32, i32) -> i32
//         %68 = "arith.constant"() {value = 23 : i64} : () -> i32
//         %69 = "arith.shli"(%67, %68) : (i32, i32) -> i32
//         %70 = "arith.bitcast"(%69) : (i32) -> f32
//         %71 = "arith.mulf"(%65, %70) : (f32, f32) -> f32
//         "memref.store"(%71, %arg2, %arg3, %arg4) : (f32, memref<2x4xf32>, index, index) -> ()
//         "scf.yield"() : () -> ()
//       }) : (index, index, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func private @main_kernel_3(%arg0: memref<2x4xf32>, %arg1: memref<2xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg2: index):
//       %4 = "arith.constant"() {value = 0.0 : f64} : () -> f32
//       %5 = "arith.constant"() {value = 0 : i64} : () -> index
//       %6 = "arith.constant"() {value = 1 : i64} : () -> index
//       %7 = "scf.for"(%5, %1, %6, %4) ({
//       ^bb0(%arg3: index, %arg4: f32):
//         %8 = "memref.load"(%arg0, %arg2, %arg3) : (memref<2x4xf32>, index, index) -> f32
//         %9 = "arith.addf"(%arg4, %8) {fastmath = "reassoc"} : (f32, f32) -> f32
//         "scf.yield"(%9) : (f32) -> ()
//       }) : (index, index, index, f32) -> f32
//       "memref.store"(%7, %arg1, %arg2) : (f32, memref<2xf32>, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func private @main_kernel_4(%arg0: memref<2xf32>, %arg1: memref<2x4xf32>, %arg2: memref<2x4xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 0 : i64} : () -> index
//     %3 = "arith.constant"() {value = 1 : i64} : () -> index
//     "scf.for"(%2, %0, %3) ({
//     ^bb0(%arg3: index):
//       %4 = "arith.constant"() {value = 0 : i64} : () -> index
//       %5 = "arith.constant"() {value = 1 : i64} : () -> index
//       "scf.for"(%4, %1, %5) ({
//       ^bb0(%arg4: index):
//         %6 = "memref.load"(%arg1, %arg3, %arg4) : (memref<2x4xf32>, index, index) -> f32
//         %7 = "memref.load"(%arg0, %arg3) : (memref<2xf32>, index) -> f32
//         %8 = "arith.divf"(%6, %7) : (f32, f32) -> f32
//         "memref.store"(%8, %arg2, %arg3, %arg4) : (f32, memref<2x4xf32>, index, index) -> ()
//         "scf.yield"() : () -> ()
//       }) : (index, index, index) -> ()
//       "scf.yield"() : () -> ()
//     }) {aot.parallel = true} : (index, index, index) -> ()
//     func.return
//   }
//   func.func @main__output_shapes(%arg0: memref<2x3xf32>, %arg1: memref<3x4xf32>) -> (index, index, index) attributes {aot.shape_query = "main", aot.num_inputs = 2 : i64} {
//     %0 = "arith.constant"() {value = 2 : i64} : () -> index
//     %1 = "arith.constant"() {value = 4 : i64} : () -> index
//     %2 = "arith.constant"() {value = 72 : i64} : () -> index
//     func.return %0, %1, %2 : index, index, index
//   }
// }
