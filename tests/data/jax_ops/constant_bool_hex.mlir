module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<12x12xf32>) -> (tensor<12x12xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<"0x000101000000000001000000010100010001000100000001010100010001000000000001010100000100010001000000000000000000010101010001000100000000000001000101000001000001010101000101010101000100010000000101000100010100010100000100000001000000000000000100010100000001010001010101000100010101010001000100"> : tensor<12x12xi1>
    %0 = stablehlo.negate %arg0 : tensor<12x12xf32>
    %1 = call @_where(%c, %arg0, %0) : (tensor<12x12xi1>, tensor<12x12xf32>, tensor<12x12xf32>) -> tensor<12x12xf32>
    return %1 : tensor<12x12xf32>
  }
  func.func private @_where(%arg0: tensor<12x12xi1>, %arg1: tensor<12x12xf32>, %arg2: tensor<12x12xf32>) -> tensor<12x12xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<12x12xi1>, tensor<12x12xf32>
    return %0 : tensor<12x12xf32>
  }
}
