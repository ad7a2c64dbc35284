// fuzz seed 2 #18861: KeyError in ops/data_movement.py _iota_at: a dynamic_iota without its
// iota_dimension
// expect: error "'mhlo.dynamic_iota': missing attribute 'iota_dimension'"
func.func @main(%arg0: tensor<2xi32>) -> tensor<?x16xi32> {
  %0 = stablehlo.dynamic_iota %arg0 : (tensor<2xi32>) -> tensor<?x16xi32>
  return %0 : tensor<?x16xi32>
}
