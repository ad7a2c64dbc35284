// fuzz seed 2 #10676: TypeError in ir/attrs.py dense_to_ints (legalize): a dims list whose
// element is not an integer
// expect: error 'bad attribute: expected a list of integers'
func.func @main(%arg0: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %0 = stablehlo.broadcast_in_dim %arg0, dims = [0:1] : (tensor<4x1xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
