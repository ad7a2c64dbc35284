module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xi32>) -> (tensor<6x5xf32> {jax.result_info = "result"}) {
    %0 = call @_one_hot(%arg0) : (tensor<6xi32>) -> tensor<6x5xf32>
    return %0 : tensor<6x5xf32>
  }
  func.func private @_one_hot(%arg0: tensor<6xi32>) -> tensor<6x5xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0] : (tensor<6xi32>) -> tensor<6x1xi32>
    %1 = stablehlo.iota dim = 1 : tensor<1x5xi32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1] : (tensor<6x1xi32>) -> tensor<6x5xi32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x5xi32>) -> tensor<6x5xi32>
    %4 = stablehlo.compare EQ, %2, %3, SIGNED : (tensor<6x5xi32>, tensor<6x5xi32>) -> tensor<6x5xi1>
    %5 = stablehlo.convert %4 : (tensor<6x5xi1>) -> tensor<6x5xf32>
    return %5 : tensor<6x5xf32>
  }
}
