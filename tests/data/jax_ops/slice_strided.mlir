module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x7xf32>) -> (tensor<3x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [0:5:2, 1:6:3] : (tensor<5x7xf32>) -> tensor<3x2xf32>
    return %0 : tensor<3x2xf32>
  }
}
