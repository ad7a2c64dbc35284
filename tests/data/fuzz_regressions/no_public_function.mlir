// fuzz seed 2 (38 inputs, e.g. 'public' swapped for 'private'): "module has no public
// function with a body" was an error without a location
// expect: error "no_public_function.mlir:5:3: error: module has no public function with a body"
module {
  func.func private @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    return %arg0 : tensor<4xf32>
  }
}
