// found while fixing the one above: a dynamic_iota's iota_dimension past its rank
// expect: error 'iota_dimension out of range'
func.func @main(%arg0: tensor<2xi32>) -> tensor<?x16xi32> {
  %0 = stablehlo.dynamic_iota %arg0, dim = 2 : (tensor<2xi32>) -> tensor<?x16xi32>
  return %0 : tensor<?x16xi32>
}
