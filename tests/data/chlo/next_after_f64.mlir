module @jit_nextafter attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<52xf64>, %arg1: tensor<52xf64>) -> (tensor<52xf64> {jax.result_info = "result"}) {
    %0 = chlo.next_after %arg0, %arg1 : tensor<52xf64>, tensor<52xf64> -> tensor<52xf64>
    return %0 : tensor<52xf64>
  }
}
