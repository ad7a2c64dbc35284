module {
  func.func @__inference_pruned_983(%arg0: tensor<1x5x5x2xf32>, %arg1: tensor<2x3x3xf32>, %arg2: tensor<4xi32>) -> (tensor<1x5x5x4xf32>, tensor<1x3x3x2xf32>, tensor<2x3x3xf32>, tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<4x7xf32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<2x2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<3xf32>, tensor<3xi32>) attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<[[[[7.632870e-02, -0.313458264, -0.261865526, -0.251006454]], [[0.974889993, 0.265512556, 0.348647863, -0.340073079]], [[0.359835327, -0.754055262, -0.896541535, 0.700382709]]], [[[-0.982208371, 0.957535147, 0.654006063, 0.570421934]], [[-0.903833031, -0.585121453, 0.69973129, -0.135010377]], [[0.254935861, -0.755435228, -0.627327382, -0.00546417432]]], [[[0.518933177, 0.07971441, -0.786239862, 0.732372165]], [[-0.720682203, -0.120684482, 0.173698947, -0.361700982]], [[-0.163891673, 0.773928999, -0.0917285978, 0.0784942284]]]]> : tensor<3x3x1x4xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+00> : tensor<4x7xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<4x7xf32>
    %cst_2 = stablehlo.constant dense<1.75809932> : tensor<2x3x3xf32>
    %cst_3 = stablehlo.constant dense<1.05070102> : tensor<2x3x3xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<2x3x3xf32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<1x5x5x2xf32>
    %cst_6 = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<3> : tensor<4xi32>
    %cst_9 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_10 = stablehlo.constant dense<[[0.940978289, -0.44803372, 0.789580404], [-0.276288956, -0.375917971, 0.762578368], [-0.869006514, 0.733310222, 0.655535221], [0.789429664, -0.880485475, -0.522388816], [0.550307214, -0.126299828, -0.989373683], [0.385239244, 0.59953934, 0.947249889], [-0.698671758, -0.496090055, 0.682721197]]> : tensor<7x3xf32>
    %cst_11 = stablehlo.constant dense<[[1.000000e+00, 2.000000e+00, 3.000000e+00], [1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<2x3xf32>
    %0 = "stablehlo.torch_index_select"(%cst_10, %arg2) <{batch_dims = 0 : i64, dim = 0 : i64}> : (tensor<7x3xf32>, tensor<4xi32>) -> tensor<4x3xf32>
    %1 = "stablehlo.reduce_window"(%arg1, %cst_8) <{padding = dense<[[0, 0], [0, 0], [2, 0]]> : tensor<3x2xi64>, window_dimensions = array<i64: 1, 1, 3>, window_strides = array<i64: 1, 1, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %41 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %41 : tensor<f32>
    }) : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3x3xf32>
    %2 = stablehlo.reduce(%arg1 init: %cst_7) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %3 = stablehlo.reshape %2 : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x3xf32>
    %5 = stablehlo.subtract %arg1, %4 : tensor<2x3x3xf32>
    %6 = stablehlo.exponential %5 : tensor<2x3x3xf32>
    %7 = stablehlo.reduce(%6 init: %cst_6) applies stablehlo.add across dimensions = [2] : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3xf32>
    %8 = stablehlo.reshape %7 : (tensor<2x3xf32>) -> tensor<2x3x1xf32>
    %9 = stablehlo.log %8 : tensor<2x3x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1, 2] : (tensor<2x3x1xf32>) -> tensor<2x3x3xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<2x3x3xf32>
    %12 = stablehlo.pad %arg1, %cst_9, low = [0, 1, 0], high = [0, 2, 1], interior = [0, 0, 0] : (tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x6x4xf32>
    %13 = stablehlo.reshape %arg1 : (tensor<2x3x3xf32>) -> tensor<18xf32>
    %14:2 = stablehlo.custom_call @mhlo.topk(%13) {mhlo.attributes = {k = 3 : i64, largest = true}, mhlo.version = 1 : i64} : (tensor<18xf32>) -> (tensor<3xf32>, tensor<3xi32>)
    %15 = stablehlo.compare  GT, %arg1, %cst_4 : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xi1>
    %16 = stablehlo.multiply %arg1, %cst_3 : tensor<2x3x3xf32>
    %17 = stablehlo.exponential_minus_one %arg1 : tensor<2x3x3xf32>
    %18 = stablehlo.multiply %17, %cst_2 : tensor<2x3x3xf32>
    %19 = stablehlo.select %15, %16, %18 : tensor<2x3x3xi1>, tensor<2x3x3xf32>
    %20 = stablehlo.broadcast_in_dim %arg1, dims = [0, 2, 3] : (tensor<2x3x3xf32>) -> tensor<2x2x3x3xf32>
    %21 = stablehlo.reshape %20 : (tensor<2x2x3x3xf32>) -> tensor<2x6x3xf32>
    %22 = stablehlo.iota dim = 0 : tensor<7xi32>
    %23 = stablehlo.broadcast_in_dim %22, dims = [1] : (tensor<7xi32>) -> tensor<4x7xi32>
    %24 = stablehlo.broadcast_in_dim %arg2, dims = [0] : (tensor<4xi32>) -> tensor<4x7xi32>
    %25 = stablehlo.compare  EQ, %24, %23 : (tensor<4x7xi32>, tensor<4x7xi32>) -> tensor<4x7xi1>
    %26 = stablehlo.select %25, %cst_1, %cst_0 : tensor<4x7xi1>, tensor<4x7xf32>
    %27 = stablehlo.slice %arg1 [0:2, 0:1, 0:3] : (tensor<2x3x3xf32>) -> tensor<2x1x3xf32>
    %28 = stablehlo.slice %arg1 [0:2, 1:3, 0:3] : (tensor<2x3x3xf32>) -> tensor<2x2x3xf32>
    %29 = stablehlo.slice %arg1 [0:2, 0:2, 0:3] : (tensor<2x3x3xf32>) -> tensor<2x2x3xf32>
    %30 = stablehlo.slice %29 [0:2, 0:1, 0:3] : (tensor<2x2x3xf32>) -> tensor<2x1x3xf32>
    %31 = stablehlo.reshape %30 : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
    %32 = stablehlo.slice %29 [0:2, 1:2, 0:3] : (tensor<2x2x3xf32>) -> tensor<2x1x3xf32>
    %33 = stablehlo.reshape %32 : (tensor<2x1x3xf32>) -> tensor<2x3xf32>
    %34 = stablehlo.add %31, %33 : tensor<2x3xf32>
    %35 = stablehlo.transpose %arg1, dims = [0, 2, 1] : (tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %36 = stablehlo.dot_general %arg1, %35, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] {mhlo.frontend_attributes = {grad_x = "false", grad_y = "false"}} : (tensor<2x3x3xf32>, tensor<2x3x3xf32>) -> tensor<2x3x3xf32>
    %37 = "stablehlo.reduce_window"(%arg0, %cst_8) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %41 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %41 : tensor<f32>
    }) : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
    %38 = "stablehlo.reduce_window"(%cst_5, %cst_8) <{padding = dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 3, 3, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %41 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %41 : tensor<f32>
    }) : (tensor<1x5x5x2xf32>, tensor<f32>) -> tensor<1x3x3x2xf32>
    %39 = stablehlo.divide %37, %38 : tensor<1x3x3x2xf32>
    %40 = stablehlo.convolution(%arg0, %cst) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x5x5x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x5x5x4xf32>
    return %40, %39, %36, %21, %12, %26, %c, %34, %cst_11, %0, %27, %28, %11, %19, %1, %14#0, %14#1 : tensor<1x5x5x4xf32>, tensor<1x3x3x2xf32>, tensor<2x3x3xf32>, tensor<2x6x3xf32>, tensor<2x6x4xf32>, tensor<4x7xf32>, tensor<4xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<4x3xf32>, tensor<2x1x3xf32>, tensor<2x2x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<3xf32>, tensor<3xi32>
  }
}
