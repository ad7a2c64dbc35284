// fuzz seed 3 #30441: ValueError from numpy in ir/attrs.py decode_dense: a splat whose type
// holds more bytes than an address space
// expect: error "dense attribute of type 'tensor<9223372036854775807xi32>' is too large to hold"
func.func @main() -> tensor<9223372036854775807xi32> {
  %c = stablehlo.constant dense<4> : tensor<9223372036854775807xi32>
  return %c : tensor<9223372036854775807xi32>
}
