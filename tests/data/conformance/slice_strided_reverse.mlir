module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x7xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [1:5:2, 0:7:3] : (tensor<6x7xf32>) -> tensor<2x3xf32>
    %1 = call @_flip(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
  func.func private @_flip(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %0 = stablehlo.reverse %arg0, dims = [0] : tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
