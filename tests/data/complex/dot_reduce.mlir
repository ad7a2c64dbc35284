func.func @main(%a: tensor<?x5xcomplex<f64>>, %b: tensor<5x3xcomplex<f64>>)
    -> (tensor<?x3xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<complex<f64>>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<?x5xcomplex<f64>>, tensor<5x3xcomplex<f64>>) -> tensor<?x3xcomplex<f64>>
  %z = stablehlo.constant dense<(0.0,0.0)> : tensor<complex<f64>>
  %one = stablehlo.constant dense<(1.0,0.0)> : tensor<complex<f64>>
  %1 = stablehlo.reduce(%a init: %z) applies stablehlo.add across dimensions = [0] : (tensor<?x5xcomplex<f64>>, tensor<complex<f64>>) -> tensor<5xcomplex<f64>>
  %2 = stablehlo.reduce(%0 init: %one) applies stablehlo.multiply across dimensions = [0, 1] : (tensor<?x3xcomplex<f64>>, tensor<complex<f64>>) -> tensor<complex<f64>>
  return %0, %1, %2 : tensor<?x3xcomplex<f64>>, tensor<5xcomplex<f64>>, tensor<complex<f64>>
}
