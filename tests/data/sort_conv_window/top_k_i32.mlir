module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x7x9xi32>) -> (tensor<3x7x5xi32> {jax.result_info = "result[0]"}, tensor<3x7x5xi32> {jax.result_info = "result[1]"}) {
    %values, %indices = chlo.top_k(%arg0, k = 5) : tensor<3x7x9xi32> -> (tensor<3x7x5xi32>, tensor<3x7x5xi32>)
    return %values, %indices : tensor<3x7x5xi32>, tensor<3x7x5xi32>
  }
}
