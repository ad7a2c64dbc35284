module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9xcomplex<f64>>, %arg1: tensor<4xcomplex<f64>>) -> (tensor<12xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = call @convolve(%arg0, %arg1) : (tensor<9xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %0 : tensor<12xcomplex<f64>>
  }
  func.func private @convolve(%arg0: tensor<9xcomplex<f64>>, %arg1: tensor<4xcomplex<f64>>) -> tensor<12xcomplex<f64>> {
    %0 = call @_conv(%arg0, %arg1) : (tensor<9xcomplex<f64>>, tensor<4xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %0 : tensor<12xcomplex<f64>>
  }
  func.func private @_conv(%arg0: tensor<9xcomplex<f64>>, %arg1: tensor<4xcomplex<f64>>) -> tensor<12xcomplex<f64>> {
    %0 = call @_flip(%arg1) : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [2] : (tensor<9xcomplex<f64>>) -> tensor<1x1x9xcomplex<f64>>
    %2 = stablehlo.broadcast_in_dim %0, dims = [2] : (tensor<4xcomplex<f64>>) -> tensor<1x1x4xcomplex<f64>>
    %3 = stablehlo.real %1 : (tensor<1x1x9xcomplex<f64>>) -> tensor<1x1x9xf64>
    %4 = stablehlo.imag %1 : (tensor<1x1x9xcomplex<f64>>) -> tensor<1x1x9xf64>
    %5 = stablehlo.real %2 : (tensor<1x1x4xcomplex<f64>>) -> tensor<1x1x4xf64>
    %6 = stablehlo.imag %2 : (tensor<1x1x4xcomplex<f64>>) -> tensor<1x1x4xf64>
    %7 = stablehlo.add %3, %4 : tensor<1x1x9xf64>
    %8 = stablehlo.convolution(%7, %5) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[3, 3]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x9xf64>, tensor<1x1x4xf64>) -> tensor<1x1x12xf64>
    %9 = stablehlo.subtract %6, %5 : tensor<1x1x4xf64>
    %10 = stablehlo.convolution(%3, %9) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[3, 3]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x9xf64>, tensor<1x1x4xf64>) -> tensor<1x1x12xf64>
    %11 = stablehlo.add %5, %6 : tensor<1x1x4xf64>
    %12 = stablehlo.convolution(%4, %11) dim_numbers = [b, f, 0]x[o, i, 0]->[b, f, 0], window = {stride = [1], pad = [[3, 3]], lhs_dilate = [1], rhs_dilate = [1], reverse = [false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<1x1x9xf64>, tensor<1x1x4xf64>) -> tensor<1x1x12xf64>
    %13 = stablehlo.subtract %8, %12 : tensor<1x1x12xf64>
    %14 = stablehlo.add %8, %10 : tensor<1x1x12xf64>
    %15 = stablehlo.complex %13, %14 : tensor<1x1x12xcomplex<f64>>
    %16 = stablehlo.reshape %15 : (tensor<1x1x12xcomplex<f64>>) -> tensor<12xcomplex<f64>>
    return %16 : tensor<12xcomplex<f64>>
  }
  func.func private @_flip(%arg0: tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<4xcomplex<f64>>
    return %0 : tensor<4xcomplex<f64>>
  }
}
