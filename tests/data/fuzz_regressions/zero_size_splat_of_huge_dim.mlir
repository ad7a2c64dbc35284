// fuzz seed 7 #59861 and #94289 (from splat_too_large.mlir): ValueError from numpy in
// ir/attrs.py decode_dense: a zero-size splat with a dim numpy cannot stride over
// expect: error "dense attribute of type 'tensor<9223372036854775807x0xi32>' is too large to hold"
func.func @main() -> tensor<9223372036854775807x0xi32> {
  %c = stablehlo.constant dense<4> : tensor<9223372036854775807x0xi32>
  return %c : tensor<9223372036854775807x0xi32>
}
