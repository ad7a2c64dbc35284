module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<8xi32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convert %arg1 : (tensor<8xi32>) -> tensor<8xf32>
    %cst = stablehlo.constant dense<1.000000e+01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<8xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %4 = stablehlo.compare LT, %arg1, %3, SIGNED : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi1>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<8xi32>
    %6 = stablehlo.add %arg1, %5 : tensor<8xi32>
    %7 = stablehlo.select %4, %6, %arg1 : tensor<8xi1>, tensor<8xi32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<8xi32>) -> tensor<8x1xi32>
    %9 = "stablehlo.scatter"(%arg0, %8, %2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      stablehlo.return %arg3 : tensor<f32>
    }) : (tensor<6xf32>, tensor<8x1xi32>, tensor<8xf32>) -> tensor<6xf32>
    return %9 : tensor<6xf32>
  }
}
