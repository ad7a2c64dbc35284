// fuzz seed 3 #19930: TypeError in frontend/parser.py Builder.error: the error for a nested
// module had no position (the `module` keyword was not kept as a token)
// (nested modules are flattened since issue 31: the inner @main compiles)
// expect: compiled
module {
  module {
    func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      return %arg0 : tensor<4xf32>
    }
  }
}
