module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x32x32xf32>, %arg1: tensor<3x3x32x32xf32>, %arg2: tensor<3x3x32x32xf32>, %arg3: tensor<3x3x32x32xf32>, %arg4: tensor<3x3x64x64xf32>, %arg5: tensor<3x3x64x64xf32>, %arg6: tensor<3x3x64x64xf32>, %arg7: tensor<3x3x64x64xf32>, %arg8: tensor<64x10xf32>, %arg9: tensor<1x1x32x64xf32>, %arg10: tensor<3x3x3x32xf32>, %arg11: tensor<8x32x32x3xf32>) -> (tensor<8x10xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.convolution(%arg11, %arg10) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x3xf32>, tensor<3x3x3x32xf32>) -> tensor<8x32x32x32xf32>
    %1 = call @relu(%0) : (tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
    %2 = stablehlo.convolution(%1, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x32xf32>, tensor<3x3x32x32xf32>) -> tensor<8x32x32x32xf32>
    %3 = call @relu(%2) : (tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
    %4 = stablehlo.convolution(%3, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x32xf32>, tensor<3x3x32x32xf32>) -> tensor<8x32x32x32xf32>
    %5 = stablehlo.add %1, %4 : tensor<8x32x32x32xf32>
    %6 = call @relu(%5) : (tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
    %7 = stablehlo.convolution(%6, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x32xf32>, tensor<3x3x32x32xf32>) -> tensor<8x32x32x32xf32>
    %8 = call @relu(%7) : (tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
    %9 = stablehlo.convolution(%8, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x32x32x32xf32>, tensor<3x3x32x32xf32>) -> tensor<8x32x32x32xf32>
    %10 = stablehlo.add %6, %9 : tensor<8x32x32x32xf32>
    %11 = call @relu(%10) : (tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<f32>
    %13 = "stablehlo.reduce_window"(%11, %12) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %30 = stablehlo.maximum %arg12, %arg13 : tensor<f32>
      stablehlo.return %30 : tensor<f32>
    }) : (tensor<8x32x32x32xf32>, tensor<f32>) -> tensor<8x16x16x32xf32>
    %14 = stablehlo.convolution(%13, %arg9) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x32xf32>, tensor<1x1x32x64xf32>) -> tensor<8x16x16x64xf32>
    %15 = stablehlo.convolution(%14, %arg4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x16x16x64xf32>
    %16 = call @relu_0(%15) : (tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
    %17 = stablehlo.convolution(%16, %arg5) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x16x16x64xf32>
    %18 = stablehlo.add %14, %17 : tensor<8x16x16x64xf32>
    %19 = call @relu_0(%18) : (tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
    %20 = stablehlo.convolution(%19, %arg6) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x16x16x64xf32>
    %21 = call @relu_0(%20) : (tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
    %22 = stablehlo.convolution(%21, %arg7) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<8x16x16x64xf32>, tensor<3x3x64x64xf32>) -> tensor<8x16x16x64xf32>
    %23 = stablehlo.add %19, %22 : tensor<8x16x16x64xf32>
    %24 = call @relu_0(%23) : (tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32>
    %25 = stablehlo.reduce(%24 init: %cst_0) applies stablehlo.add across dimensions = [1, 2] : (tensor<8x16x16x64xf32>, tensor<f32>) -> tensor<8x64xf32>
    %26 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x64xf32>
    %27 = stablehlo.divide %25, %26 : tensor<8x64xf32>
    %28 = stablehlo.dot_general %27, %arg8, contracting_dims = [1] x [0] : (tensor<8x64xf32>, tensor<64x10xf32>) -> tensor<8x10xf32>
    %29 = call @log_softmax(%28) : (tensor<8x10xf32>) -> tensor<8x10xf32>
    return %29 : tensor<8x10xf32>
  }
  func.func private @relu(%arg0: tensor<8x32x32x32xf32>) -> tensor<8x32x32x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x32x32x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x32x32x32xf32>
    return %1 : tensor<8x32x32x32xf32>
  }
  func.func private @relu_0(%arg0: tensor<8x16x16x64xf32>) -> tensor<8x16x16x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8x16x16x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<8x16x16x64xf32>
    return %1 : tensor<8x16x16x64xf32>
  }
  func.func private @log_softmax(%arg0: tensor<8x10xf32>) -> tensor<8x10xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.maximum %1, %0 : tensor<8xf32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<8x10xf32>
    %6 = stablehlo.exponential %5 : tensor<8x10xf32>
    %7 = stablehlo.reduce(%6 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<8x10xf32>, tensor<f32>) -> tensor<8xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xf32>) -> tensor<8x1xf32>
    %9 = stablehlo.log %8 : tensor<8x1xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<8x1xf32>) -> tensor<8x10xf32>
    %11 = stablehlo.subtract %5, %10 : tensor<8x10xf32>
    return %11 : tensor<8x10xf32>
  }
}
