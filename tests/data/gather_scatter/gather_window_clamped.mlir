module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x4xf32>, %arg1: tensor<6x2xi32>) -> (tensor<6x3x2xf32> {jax.result_info = "result"}) {
    %0 = "stablehlo.gather"(%arg0, %arg1) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0, 1], index_vector_dim = 1>, slice_sizes = array<i64: 3, 2>}> : (tensor<5x4xf32>, tensor<6x2xi32>) -> tensor<6x3x2xf32>
    return %0 : tensor<6x3x2xf32>
  }
}
