func.func @main(%a: tensor<3xf32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xf32>) {
  %t = stablehlo.tuple %a, %b : tuple<tensor<3xf32>, tensor<3xi32>>
  %x = stablehlo.get_tuple_element %t[1] : (tuple<tensor<3xf32>, tensor<3xi32>>) -> tensor<3xi32>
  %y = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<3xf32>, tensor<3xi32>>) -> tensor<3xf32>
  %z = stablehlo.add %y, %y : tensor<3xf32>
  return %x, %z : tensor<3xi32>, tensor<3xf32>
}
