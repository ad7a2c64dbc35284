module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xi32>) -> (tensor<3x4xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<-3> : tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %2 = stablehlo.clamp %0, %arg0, %1 : tensor<3x4xi32>
    return %2 : tensor<3x4xi32>
  }
}
