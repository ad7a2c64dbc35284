module {
  func.func @__inference_f_597(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.compare  GT, %0, %cst_2 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = "stablehlo.if"(%1) ({
      %3 = shape.shape_of %arg0 : tensor<?xf32> -> tensor<1xindex>
      %4 = stablehlo.dynamic_broadcast_in_dim %cst_1, %3, dims = [] : (tensor<f32>, tensor<1xindex>) -> tensor<?xf32>
      %5 = stablehlo.multiply %arg0, %4 : tensor<?xf32>
      stablehlo.return %5 : tensor<?xf32>
    }, {
      %3 = shape.shape_of %arg0 : tensor<?xf32> -> tensor<1xindex>
      %4 = stablehlo.dynamic_broadcast_in_dim %cst_0, %3, dims = [] : (tensor<f32>, tensor<1xindex>) -> tensor<?xf32>
      %5 = stablehlo.subtract %arg0, %4 : tensor<?xf32>
      stablehlo.return %5 : tensor<?xf32>
    }) : (tensor<i1>) -> tensor<?xf32>
    return %2 : tensor<?xf32>
  }
}
