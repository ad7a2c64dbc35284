module {
  func.func @__inference_pruned_767(%arg0: tensor<?x?x3xf32>) -> tensor<?x4xf32> attributes {allow_soft_placement = false} {
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %cst_2 = stablehlo.constant dense<[[0.443056107, 0.0113275526, 0.476243705, -0.419163972], [0.107355833, -0.123513415, 0.301901221, -0.325472176], [0.371635288, 4.394140e-02, 0.402215093, -0.0228464752]]> : tensor<3x4xf32>
    %cst_3 = stablehlo.constant dense<[[0.305002928, 0.307940781, 0.0153255612, -0.214198619], [-0.4460693, -0.11663112, -0.0915267915, -0.454724818], [-0.451242298, 0.499176115, 0.152369112, -0.265489787], [-0.0650524497, 0.474186182, 0.3976776, 0.344231039]]> : tensor<4x4xf32>
    %0 = stablehlo.transpose %arg0, dims = [1, 0, 2] : (tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    %1 = shape.shape_of %arg0 : tensor<?x?x3xf32> -> tensor<3xindex>
    %2 = shape.shape_of %0 : tensor<?x?x3xf32> -> tensor<3xindex>
    %3 = arith.index_cast %1 : tensor<3xindex> to tensor<3xi32>
    %4 = arith.index_cast %2 : tensor<3xindex> to tensor<3xi32>
    %5 = stablehlo.slice %3 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %6 = stablehlo.slice %4 [0:1] : (tensor<3xi32>) -> tensor<1xi32>
    %7 = stablehlo.reshape %6 : (tensor<1xi32>) -> tensor<i32>
    %8 = stablehlo.concatenate %5, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.dynamic_broadcast_in_dim %cst, %8, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x4xf32>
    %10:3 = stablehlo.while(%iterArg = %c_1, %iterArg_4 = %c_1, %iterArg_5 = %9) : tensor<i32>, tensor<i32>, tensor<?x4xf32>
    cond {
      %11 = stablehlo.compare  LT, %iterArg_4, %7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %11 = "stablehlo.torch_index_select"(%0, %iterArg_4) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<?x?x3xf32>, tensor<i32>) -> tensor<?x3xf32>
      %12 = stablehlo.dot %11, %cst_2, precision = [DEFAULT, DEFAULT] : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<?x4xf32>
      %13 = stablehlo.add %iterArg_4, %c_0 : tensor<i32>
      %14 = stablehlo.dot %iterArg_5, %cst_3, precision = [DEFAULT, DEFAULT] : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
      %15 = stablehlo.add %iterArg, %c_0 : tensor<i32>
      %16 = shape.shape_of %12 : tensor<?x4xf32> -> tensor<2xindex>
      %17 = shape.shape_of %14 : tensor<?x4xf32> -> tensor<2xindex>
      %18 = shape.cstr_broadcastable %16, %17 : tensor<2xindex>, tensor<2xindex>
      %19 = shape.assuming %18 -> (tensor<?x4xf32>) {
        %21 = shape.shape_of %12 : tensor<?x4xf32> -> tensor<2xindex>
        %22 = shape.shape_of %14 : tensor<?x4xf32> -> tensor<2xindex>
        %23 = shape.broadcast %21, %22 : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
        %24 = stablehlo.dynamic_broadcast_in_dim %12, %23, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
        %25 = stablehlo.dynamic_broadcast_in_dim %14, %23, dims = [0, 1] : (tensor<?x4xf32>, tensor<2xindex>) -> tensor<?x4xf32>
        %26 = stablehlo.add %24, %25 : tensor<?x4xf32>
        shape.assuming_yield %26 : tensor<?x4xf32>
      }
      %20 = stablehlo.tanh %19 : tensor<?x4xf32>
      stablehlo.return %15, %13, %20 : tensor<i32>, tensor<i32>, tensor<?x4xf32>
    }
    return %10#2 : tensor<?x4xf32>
  }
}
