module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1x6x6x3xf32>, %arg1: tensor<3x3x1x3xf32>, %arg2: tensor<1x1x3x4xf32>) -> (tensor<1x6x6x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 3 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x3xf32>, tensor<3x3x1x3xf32>) -> tensor<1x6x6x3xf32>
    %1 = stablehlo.convolution(%0, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 0], [0, 0]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x6x6x3xf32>, tensor<1x1x3x4xf32>) -> tensor<1x6x6x4xf32>
    %2 = call @relu6(%1) : (tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
    return %2 : tensor<1x6x6x4xf32>
  }
  func.func private @relu6(%arg0: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<1x6x6x4xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<1x6x6x4xf32>
    %cst_0 = stablehlo.constant dense<6.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x6x6x4xf32>
    %3 = stablehlo.minimum %1, %2 : tensor<1x6x6x4xf32>
    return %3 : tensor<1x6x6x4xf32>
  }
}
