module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x8xf32>, %arg1: tensor<4xi64>) -> (tensor<4x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<10> : tensor<i64>
    %c_0 = stablehlo.constant dense<0> : tensor<i64>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<4xi64>
    %3 = stablehlo.add %arg1, %2 : tensor<4xi64>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<4xi1>, tensor<4xi64>
    %5 = stablehlo.convert %4 : (tensor<4xi64>) -> tensor<4xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %7 = "stablehlo.gather"(%arg0, %6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    return %7 : tensor<4x8xf32>
  }
}
