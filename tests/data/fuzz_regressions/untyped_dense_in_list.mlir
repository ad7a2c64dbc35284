// fuzz seed 11 #7290: a dense<...> (or array<...>) inside a pretty list reached legalize as a
// raw parser object ("got [<lowering.frontend.raw._Angle object at 0x...>, 0, 1]")
// expect: error "dense attribute needs a ': tensor<...>' type"
func.func @main(%arg0: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = stablehlo.transpose %arg0, dims = [dense<2>, 0, 1] : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}
