func.func @main(%a: tensor<5xcomplex<f32>>, %b: tensor<5xcomplex<f32>>, %i: tensor<5xi32>)
    -> (tensor<5xi1>, tensor<5xi1>, tensor<5xcomplex<f32>>, tensor<5xf32>, tensor<5xi32>, tensor<5xcomplex<f64>>,
        tensor<5xcomplex<f32>>, tensor<5xi1>) {
  %0 = stablehlo.compare EQ, %a, %b : (tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<5xi1>
  %1 = stablehlo.compare NE, %a, %b : (tensor<5xcomplex<f32>>, tensor<5xcomplex<f32>>) -> tensor<5xi1>
  %2 = stablehlo.select %0, %a, %b : tensor<5xi1>, tensor<5xcomplex<f32>>
  %3 = stablehlo.convert %a : (tensor<5xcomplex<f32>>) -> tensor<5xf32>
  %4 = stablehlo.convert %a : (tensor<5xcomplex<f32>>) -> tensor<5xi32>
  %5 = stablehlo.convert %a : (tensor<5xcomplex<f32>>) -> tensor<5xcomplex<f64>>
  %6 = stablehlo.convert %i : (tensor<5xi32>) -> tensor<5xcomplex<f32>>
  %7 = stablehlo.convert %a : (tensor<5xcomplex<f32>>) -> tensor<5xi1>
  return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<5xi1>, tensor<5xi1>, tensor<5xcomplex<f32>>, tensor<5xf32>, tensor<5xi32>, tensor<5xcomplex<f64>>, tensor<5xcomplex<f32>>, tensor<5xi1>
}
