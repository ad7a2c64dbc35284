module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xi32>) -> (tensor<4x5xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = call @_pad(%arg0, %c) : (tensor<2x3xi32>, tensor<i32>) -> tensor<4x5xi32>
    return %0 : tensor<4x5xi32>
  }
  func.func private @_pad(%arg0: tensor<2x3xi32>, %arg1: tensor<i32>) -> tensor<4x5xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 2], high = [1, 0], interior = [0, 0] : (tensor<2x3xi32>, tensor<i32>) -> tensor<4x5xi32>
    return %1 : tensor<4x5xi32>
  }
}
