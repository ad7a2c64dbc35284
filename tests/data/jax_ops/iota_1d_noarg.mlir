module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main() -> (tensor<6xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.iota dim = 0 : tensor<6xi32>
    return %0 : tensor<6xi32>
  }
}
