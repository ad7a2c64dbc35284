module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<15xi32>) -> (tensor<6xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = call @clip(%arg0, %c_0) : (tensor<15xi32>, tensor<i32>) -> tensor<15xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<15xi32>
    %3 = stablehlo.compare LT, %1, %2, SIGNED : (tensor<15xi32>, tensor<15xi32>) -> tensor<15xi1>
    %c_2 = stablehlo.constant dense<6> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<15xi32>
    %5 = stablehlo.add %1, %4 : tensor<15xi32>
    %6 = stablehlo.select %3, %5, %1 : tensor<15xi1>, tensor<15xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<15xi32>) -> tensor<15x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<15xi32>
    %9 = "stablehlo.scatter"(%0, %7, %8) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<i32>, %arg2: tensor<i32>):
      %10 = stablehlo.add %arg1, %arg2 : tensor<i32>
      stablehlo.return %10 : tensor<i32>
    }) : (tensor<6xi32>, tensor<15x1xi32>, tensor<15xi32>) -> tensor<6xi32>
    return %9 : tensor<6xi32>
  }
  func.func private @clip(%arg0: tensor<15xi32>, %arg1: tensor<i32>) -> tensor<15xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<15xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<15xi32>
    return %2 : tensor<15xi32>
  }
}
