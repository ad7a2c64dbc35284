// fuzz seed 3 #26837: AssertionError in ir/core.py Operation.result (passes/legalize.py
// forward_tuples): a get_tuple_element with two results
// expect: error "'mhlo.get_tuple_element': a tuple that is not taken apart in the same function"
func.func @main(%arg0: tensor<3x7x9xi32>) -> (tensor<3x7x5xi32>, tensor<3x7x5xi32>) {
  %values, %indices = "stablehlo.get_tuple_element"(%arg0) {index = 0 : i32} : (tensor<3x7x9xi32>) -> (tensor<3x7x5xi32>, tensor<3x7x5xi32>)
  return %values, %indices : tensor<3x7x5xi32>, tensor<3x7x5xi32>
}
