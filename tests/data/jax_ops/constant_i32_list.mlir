module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xi32>) -> (tensor<3x4xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<[[-171, -336, -800, -951], [671, -916, -701, -221], [-155, 886, 707, 837]]> : tensor<3x4xi32>
    %0 = stablehlo.multiply %arg0, %c : tensor<3x4xi32>
    return %0 : tensor<3x4xi32>
  }
}
