// fuzz seed 11 index 18869 (from tf/elementwise.executor.mlir): `-1 : f32` was read as a
// hex bit pattern and -1 does not fit one (OverflowError); MLIR reads a decimal integer as
// the float -1.0, and only a hex literal as bits.
// expect: compiled
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "stablehlo.reduce_precision"(%x) {exponent_bits = 8 : i32, mantissa_bits = 23 : i32} : (tensor<3xf32>) -> tensor<3xf32>
  %c = stablehlo.constant dense<2.0> : tensor<f32>
  %1 = "stablehlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64>, aot.note = -1 : f32, aot.bits = 0x3F800000 : f32} : (tensor<f32>) -> tensor<3xf32>
  %2 = stablehlo.add %0, %1 : tensor<3xf32>
  return %2 : tensor<3xf32>
}
