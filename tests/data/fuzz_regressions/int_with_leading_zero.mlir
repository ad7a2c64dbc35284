// fuzz seed 7 (7 inputs, e.g. #44973, #20219): "malformed int_attr (ValueError: invalid literal
// for int() with base 0: '01')": an integer with a leading zero, which the grammar's INT allows
// expect: compiled
func.func @main(%arg0: tensor<6x7xf32>) -> tensor<3x7xf32> {
  %0 = stablehlo.slice %arg0 [01:04, 0:07] : (tensor<6x7xf32>) -> tensor<3x7xf32>
  %1 = "stablehlo.reduce_precision"(%0) {exponent_bits = 08 : i32, mantissa_bits = 023 : i32} : (tensor<3x7xf32>) -> tensor<3x7xf32>
  return %1 : tensor<3x7xf32>
}
