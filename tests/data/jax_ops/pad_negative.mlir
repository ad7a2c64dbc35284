module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<4x6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<9.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [-1, 1], high = [2, -2], interior = [0, 1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<4x6xf32>
    return %0 : tensor<4x6xf32>
  }
}
