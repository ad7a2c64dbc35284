module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = call @_inner_scale(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %1 = stablehlo.multiply %arg0, %arg0 : tensor<3x4xf32>
    %2 = call @_inner_scale(%1) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    %3 = stablehlo.subtract %0, %2 : tensor<3x4xf32>
    return %3 : tensor<3x4xf32>
  }
  func.func private @_inner_scale(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<3x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %3 = stablehlo.add %1, %2 : tensor<3x4xf32>
    return %3 : tensor<3x4xf32>
  }
}
