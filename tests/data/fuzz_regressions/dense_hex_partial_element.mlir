// fuzz seed 2 #12511: ValueError in ir/attrs.py decode_dense: hex data that is not a whole
// number of elements (3 bytes of bf16)
// expect: error 'dense hex data has 3 bytes, not a whole number of bf16 elements'
func.func @main() -> tensor<2xbf16> {
  %cst = stablehlo.constant dense<"0x4B3EEC"> : tensor<2xbf16>
  return %cst : tensor<2xbf16>
}
