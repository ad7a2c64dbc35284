module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<6x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %0 = stablehlo.pad %arg0, %cst, low = [1, 0], high = [2, 1], interior = [1, 2] : (tensor<2x3xf32>, tensor<f32>) -> tensor<6x8xf32>
    return %0 : tensor<6x8xf32>
  }
}
