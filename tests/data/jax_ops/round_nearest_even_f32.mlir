module @jit_round attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = call @round(%arg0) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
  func.func private @round(%arg0: tensor<3x4xf32>) -> tensor<3x4xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
}
