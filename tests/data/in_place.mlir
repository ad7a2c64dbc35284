func.func @main(%x: tensor<64x128xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %t = stablehlo.exponential %x : tensor<64x128xf32>
  %z = stablehlo.constant dense<0.0> : tensor<f32>
  %s = stablehlo.reduce(%t init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %two = stablehlo.constant dense<2.0> : tensor<64x128xf32>
  %y = stablehlo.multiply %t, %two : tensor<64x128xf32>
  %w = stablehlo.tanh %y : tensor<64x128xf32>
  %v = stablehlo.add %w, %t : tensor<64x128xf32>
  %m = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %r = stablehlo.reduce(%v init: %m) applies stablehlo.maximum across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %r2 = stablehlo.reduce(%v init: %z) applies stablehlo.add across dimensions = [1] : (tensor<64x128xf32>, tensor<f32>) -> tensor<64xf32>
  %o = stablehlo.add %r, %r2 : tensor<64xf32>
  return %s, %o : tensor<64xf32>, tensor<64xf32>
}
