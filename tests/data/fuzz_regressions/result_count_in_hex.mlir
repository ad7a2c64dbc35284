// fuzz seed 11 #344: "malformed result (ValueError: invalid literal for int() ...)": a result
// group's count written in hex (`%1:0x2`), which the grammar's INT allows
// expect: error "'stablehlo.add' has 1 results, 4294967295 named"
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %1:0xFFFFFFFF = stablehlo.add %arg0, %arg0 : tensor<4xf32>
  return %1#0 : tensor<4xf32>
}
