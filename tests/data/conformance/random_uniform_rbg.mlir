module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xui32>) -> (tensor<3x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %cst, %cst_0) : (tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
    return %0 : tensor<3x5xf32>
  }
  func.func private @_uniform(%arg0: tensor<4xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<3x5xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.convert %arg2 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %5 = stablehlo.bitcast_convert %4 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %5, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
    %6 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %7 = stablehlo.reshape %6 : (tensor<2x2xui32>) -> tensor<4xui32>
    %c = stablehlo.constant dense<9> : tensor<ui32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %9 = stablehlo.shift_right_logical %output, %8 : tensor<3x5xui32>
    %c_0 = stablehlo.constant dense<1065353216> : tensor<ui32>
    %10 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<3x5xui32>
    %11 = stablehlo.or %9, %10 : tensor<3x5xui32>
    %12 = stablehlo.bitcast_convert %11 : (tensor<3x5xui32>) -> tensor<3x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %14 = stablehlo.subtract %12, %13 : tensor<3x5xf32>
    %15 = stablehlo.subtract %3, %2 : tensor<1x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %17 = stablehlo.multiply %14, %16 : tensor<3x5xf32>
    %18 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %19 = stablehlo.add %17, %18 : tensor<3x5xf32>
    %20 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %21 = stablehlo.maximum %20, %19 : tensor<3x5xf32>
    return %21 : tensor<3x5xf32>
  }
}
