module @jit__cnn_grad attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x4x4x1xf32>, %arg1: tensor<3x3x1x2xf32>, %arg2: tensor<8x3xf32>) -> (tensor<3x3x1x2xf32> {jax.result_info = "result[0]"}, tensor<8x3xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x1xf32>, tensor<3x3x1x2xf32>) -> tensor<2x4x4x2xf32>
    %1 = call @relu(%0) : (tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4x2xf32>
    %3 = stablehlo.compare GT, %0, %2, FLOAT : (tensor<2x4x4x2xf32>, tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x4x4x2xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %6 = "stablehlo.reduce_window"(%1, %5) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.maximum %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<2x4x4x2xf32>, tensor<f32>) -> tensor<2x2x2x2xf32>
    %7 = stablehlo.reshape %6 : (tensor<2x2x2x2xf32>) -> tensor<2x8xf32>
    %8 = stablehlo.dot_general %7, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x8xf32>, tensor<8x3xf32>) -> tensor<2x3xf32>
    %9 = stablehlo.tanh %8 : tensor<2x3xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %11 = stablehlo.subtract %10, %9 : tensor<2x3xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.reduce(%9 init: %cst_3) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %14 = stablehlo.multiply %13, %11 : tensor<2x3xf32>
    %15 = stablehlo.multiply %14, %9 : tensor<2x3xf32>
    %16 = stablehlo.add %14, %15 : tensor<2x3xf32>
    %17 = stablehlo.dot_general %16, %7, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<2x8xf32>) -> tensor<3x8xf32>
    %18 = stablehlo.transpose %17, dims = [1, 0] : (tensor<3x8xf32>) -> tensor<8x3xf32>
    %19 = stablehlo.dot_general %16, %arg2, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3xf32>, tensor<8x3xf32>) -> tensor<2x8xf32>
    %20 = stablehlo.reshape %19 : (tensor<2x8xf32>) -> tensor<2x2x2x2xf32>
    %cst_5 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %21 = stablehlo.pad %1, %cst_5, low = [0, 0, 0, 0], high = [0, 0, 0, 0], interior = [0, 0, 0, 0] : (tensor<2x4x4x2xf32>, tensor<f32>) -> tensor<2x4x4x2xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %22 = "stablehlo.select_and_scatter"(%21, %20, %cst_6) <{padding = dense<0> : tensor<4x2xi64>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.compare GE, %arg3, %arg4, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %27 : tensor<i1>
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %27 = stablehlo.add %arg3, %arg4 : tensor<f32>
      stablehlo.return %27 : tensor<f32>
    }) : (tensor<2x4x4x2xf32>, tensor<2x2x2x2xf32>, tensor<f32>) -> tensor<2x4x4x2xf32>
    %23 = stablehlo.slice %22 [0:2, 0:4, 0:4, 0:2] : (tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x4x4x2xf32>
    %25 = stablehlo.select %3, %23, %24 : tensor<2x4x4x2xi1>, tensor<2x4x4x2xf32>
    %26 = stablehlo.convolution(%arg0, %25) dim_numbers = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x4x4x1xf32>, tensor<2x4x4x2xf32>) -> tensor<3x3x1x2xf32>
    return %26, %18 : tensor<3x3x1x2xf32>, tensor<8x3xf32>
  }
  func.func private @relu(%arg0: tensor<2x4x4x2xf32>) -> tensor<2x4x4x2xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x4x4x2xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x4x4x2xf32>
    return %1 : tensor<2x4x4x2xf32>
  }
}
