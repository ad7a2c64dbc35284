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
//     %0 = "mhlo.fusion"(%arg0, %arg1) ({
//     ^bb0(%arg2: tensor<4x8xf32>, %arg3: tensor<f32>):
//       %1 = "mhlo.broadcast_in_dim"(%arg3) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
//       %2 = "mhlo.multiply"(%arg2, %1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       %3 = "mhlo.exponential"(%2) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//       %4 = "mhlo.add"(%3, %arg2) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       "mhlo.return"(%4) : (tensor<4x8xf32>) -> ()
//     }) {fusion_kind = "kLoop"} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
//     func.return %0 : tensor<4x8xf32>
//   }
// }
// ==== lhlo
// module {
//   func.func @main(%arg0: memref<4x8xf32>, %arg1: memref<f32>, %arg2: memref<4x8xf32>) attributes {aot.num_inputs = 2 : i64} {
//     "lmhlo.fusion"(%arg0, %arg1, %arg2) ({
//     ^bb0(%arg3: tensor<4x8xf32>, %arg4: tensor<f32>):
//       %0 = "mhlo.broadcast_in_dim"(%arg4) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4x8xf32>
//       %1 = "mhlo.multiply"(%arg3, %0) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       %2 = "mhlo.exponential"(%1) : (tensor<4x8xf32>) -> tensor<4x8xf32>
//       %3 = "mhlo.add"(%2, %arg3) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
//       "mhlo.return"(%3) : (tensor<4x8xf32>) -> ()
//     }) {fusion_kind = "kLoop", num_buffers = 3 : i64} : (memref<4x8xf32>, memref<f32>, memref<4x8xf32>) -> ()
//     func.return
//   }
// }
// ==== loops
// module {
//   func.func @main(%arg0: memref<4x8xf32>, %arg1: memref<f32>, %arg2: memref<4x8xf32>) attributes {aot.num_inputs = 2 : i64} {
//     "func.call"(%arg0, %arg1, %arg2) {callee = @main_kernel_0, aot.writes = array<i64: 2>, aot.parallel = 2 : i64, aot.parallel_block = 1 : i64} : (memref<4x8xf32>, memref<f32>, memref<4x8xf32>) -> ()
//     func.return
//   }
//   func.func private @main_kernel_0(%arg0: memref<4x8xf32>, %arg1: memref<f32>, %arg2: memref<4x8xf32>) attributes {aot.kernel = "fusion", aot.parallel = true} {
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
//         %6 = "memref.load"(%arg0, %arg3, %arg4) : (memref<4x8xf32>, index, index) -> f32
//         %7 = "memref.load"(%arg1) : (memref<f32>) -> f32
//         %8 = "arith.mulf"(%6, %7) : (f32, f32) -> f32
//         %9 = "arith.constant"() {value = 89.0 : f64} : () -> f32
//         %10 = "arith.cmpf"(%8, %9) {predicate = "ogt"} : (f32, f32) -> i1
//         %11 = "arith.constant"() {value = 89.0 : f64} : () -> f32
//         %12 = "arith.select"(%10, %11, %8) : (i1, f32, f32) -> f32
//         %13 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %14 = "arith.cmpf"(%12, %13) {predicate = "olt"} : (f32, f32) -> i1
//         %15 = "arith.constant"() {value = -104.0 : f64} : () -> f32
//         %16 = "arith.select"(%14, %15, %12) : (i1, f32, f32) -> f32
//         %17 = "arith.constant"() {value = 1.4426950408889634 : f64} : () -> f32
//         %18 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %19 = "arith.mulf"(%16, %17) {fastmath = "contract"} : (f32, f32) -> f32
//         %20 = "arith.addf"(%19, %18) {fastmath = "contract"} : (f32, f32) -> f32
//         %21 = "arith.constant"() {value = 12582912.0 : f64} : () -> f32
//         %22 = "arith.subf"(%20, %21) : (f32, f32) -> f32
//         %23 = "arith.constant"() {value = -0.693359375 : f64} : () -> f32
//         %24 = "arith.mulf"(%22, %23) {fastmath = "contract"} : (f32, f32) -> f32
//         %25 = "arith.addf"(%24, %16) {fastmath = "contract"} : (f32, f32) -> f32
//         %26 = "arith.bitcast"(%20) : (f32) -> i32
//         %27 = "arith.constant"() {value = 1262485504 : i64} : () -> i32
//         %28 = "arith.subi"(%26, %27) : (i32, i32) -> i32
//         %29 = "arith.constant"() {value = 0.00021219444 : f64} : () -> f32
//         %30 = "arith.mulf"(%22, %29) {fastmath = "contract"} : (f32, f32) -> f32
//         %31 = "arith.addf"(%30, %25) {fastmath = "contract"} : (f32, f32) -> f32
//         %32 = "arith.mulf"(%31, %31) : (f32, f32) -> f32
//         %33 = "arith.constant"() {value = 0.0013814490521326661 : f64} : () -> f32
//         %34 = "arith.constant"() {value = 0.008368736132979393 : f64} : () -> f32
//         %35 = "arith.mulf"(%33, %31) {fastmath = "contract"} : (f32, f32) -> f32
//         %36 = "arith.addf"(%35, %34) {fastmath = "contract"} : (f32, f32) -> f32
//         %37 = "arith.constant"() {value = 0.04166838899254799 : f64} : () -> f32
//         %38 = "arith.mulf"(%36, %31) {fastmath = "contract"} : (f32, f32) -> f32
//         %39 = "arith.addf"(%38, %37) {fastmath = "contract"} : (f32, f32) -> f32
//         %40 = "arith.constant"() {value = 0.1666652113199234 : f64} : () -> f32
//         %41 = "arith.mulf"(%39, %31) {fastmath = "contract"} : (f32, f32) -> f32
//         %42 = "arith.addf"(%41, %40) {fastmath = "contract"} : (f32, f32) -> f32
//         %43 = "arith.constant"() {value = 0.4999999403953552 : f64} : () -> f32
//         %44 = "arith.mulf"(%42, %31) {fastmath = "contract"} : (f32, f32) -> f32
//         %45 = "arith.addf"(%44, %43) {fastmath = "contract"} : (f32, f32) -> f32
//         %46 = "arith.mulf"(%32, %45) {fastmath = "contract"} : (f32, f32) -> f32
//         %47 = "arith.addf"(%46, %31) {fastmath = "contract"} : (f32, f32) -> f32
//         %48 = "arith.constant"() {value = 1.0 : f64} : () -> f32
//         %49 = "arith.addf"(%47, %48) : (f32, f32) -> f32
//         %50 = "arith.constant"() {value = 1 : i64} : () -> i32
//         %51 = "arith.shrsi"(%28, %50) : (i32, i32) -> i32
//         %52 = "arith.subi"(%28, %51) : (i32, i32) -> i32
//         %53 = "arith.constant"() {value = 127 : i64} : () -> i32
//         %54 = "arith.addi"(%51, %53) : (i32, i32) -> i32
//         %55 = "arith.constant"() {value = 23 : i64} : () -> i32
//         %56 = "arith.shli"(%54, %55) : (i32, i32) -> i32
//         %57 = "arith.bitcast"(%56) : (i32) -> f32
//         %58 = "arith.mulf"(%49, %57) : (f32, f32) -> f32
//         %59 = "arith.constant"() {value = 127 : i64} : () -> i32
//         %60 = "arith.addi"(%52, %59) : (i32, i32) -> i32
//         %61 = "arith.constant"() {value = 23 : i64} : () -> i32
//         %62 = "arith.shli"(%60, %61) : (i32, i32) -> i32
//         %63 = "arith.bitcast"(%62) : (i32) -> f32
//         %64 = "arith.mulf"(%58, %63) : (f32, f32) -> f32
//         %65 = "arith.addf"(%64, %6) : (f32, f32) -> f32
//         "memref.store"(%65, %arg2, %arg3, %arg4) : (f32, memref<4x8xf32>, index, index) -> ()
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
