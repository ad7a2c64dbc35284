func.func @main(%k: memref<3x6xf32>, %v: memref<3x6xi32>, %ko: memref<3x6xf32>, %vo: memref<3x6xi32>) {
  "lmhlo.sort"(%k, %v, %ko, %vo) ({
  ^bb0(%a: memref<f32>, %b: memref<f32>, %c: memref<i32>, %d: memref<i32>, %r: memref<i1>):
    "lmhlo.compare"(%a, %b, %r) {comparison_direction = #mhlo<comparison_direction LT>} : (memref<f32>, memref<f32>, memref<i1>) -> ()
    "lmhlo.terminator"() : () -> ()
  }) {dimension = 1 : i64, is_stable = true} : (memref<3x6xf32>, memref<3x6xi32>, memref<3x6xf32>, memref<3x6xi32>) -> ()
  return
}
