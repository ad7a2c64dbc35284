module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5x4xf32>, %arg1: tensor<3x3x2x6xf32>) -> (tensor<2x3x3x6xf32> {jax.result_info = "result"}) {
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, lhs_dilation = array<i64: 1, 1>, rhs_dilation = array<i64: 1, 1>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>, window_reversal = array<i1: false, false>, batch_group_count = 1 : i64, feature_group_count = 2 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x5x5x4xf32>, tensor<3x3x2x6xf32>) -> tensor<2x3x3x6xf32>
    return %0 : tensor<2x3x3x6xf32>
  }
}
