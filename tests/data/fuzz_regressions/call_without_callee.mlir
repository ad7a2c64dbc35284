// fuzz seed 2 #4673: KeyError in passes/legalize.py inline_calls: a generic func.call with
// no callee attribute
// expect: error "'func.call': needs a 'callee = @function' attribute"
func.func @main(%arg0: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "func.call"(%arg0) : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
