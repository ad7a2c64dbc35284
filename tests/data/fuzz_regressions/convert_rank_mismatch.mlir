// fuzz seed 2 #10164: IndexError in ops/elementwise.py same_as_operands (bufferize): a convert
// whose result rank differs from its operand's was not checked
// expect: error 'result type tensor<3x4xui8> does not match the inferred type tensor<3x4x0xui8>'
func.func @main(%arg0: tensor<3x4x0xi32>) -> tensor<3x4xui8> {
  %0 = stablehlo.convert %arg0 : (tensor<3x4x0xi32>) -> tensor<3x4xui8>
  return %0 : tensor<3x4xui8>
}
