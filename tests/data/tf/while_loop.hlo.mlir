module {
  func.func @__inference_f_569(%arg0: tensor<?xf32>) -> tensor<?xf32> attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_1 = stablehlo.constant dense<5> : tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %c_2, %iterArg_3 = %c_2, %iterArg_4 = %arg0) : tensor<i32>, tensor<i32>, tensor<?xf32>
    cond {
      %1 = stablehlo.compare  LT, %iterArg_3, %c_1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1 = stablehlo.add %iterArg_3, %c : tensor<i32>
      %2 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<?xf32>, tensor<f32>) -> tensor<f32>
      %3 = stablehlo.add %iterArg, %c : tensor<i32>
      %4 = shape.shape_of %iterArg_4 : tensor<?xf32> -> tensor<1xindex>
      %5 = stablehlo.dynamic_broadcast_in_dim %cst_0, %4, dims = [] : (tensor<f32>, tensor<1xindex>) -> tensor<?xf32>
      %6 = stablehlo.multiply %iterArg_4, %5 : tensor<?xf32>
      %7 = shape.shape_of %6 : tensor<?xf32> -> tensor<1xindex>
      %8 = stablehlo.dynamic_broadcast_in_dim %2, %7, dims = [] : (tensor<f32>, tensor<1xindex>) -> tensor<?xf32>
      %9 = stablehlo.add %6, %8 : tensor<?xf32>
      stablehlo.return %3, %1, %9 : tensor<i32>, tensor<i32>, tensor<?xf32>
    }
    return %0#2 : tensor<?xf32>
  }
}
