module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x10x3xf32>, %arg1: tensor<4x3x5xf32>) -> (tensor<2x5x5xf32> {jax.result_info = "result"}) {
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{dimension_numbers = #stablehlo.conv<[b, 0, f]x[0, i, o]->[b, 0, f]>, window_strides = array<i64: 2>, lhs_dilation = array<i64: 1>, rhs_dilation = array<i64: 1>, padding = dense<[[2, 1]]> : tensor<1x2xi64>, window_reversal = array<i1: false>, batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<2x10x3xf32>, tensor<4x3x5xf32>) -> tensor<2x5x5xf32>
    return %0 : tensor<2x5x5xf32>
  }
}
