module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>, %arg1: tensor<9xi32>, %arg2: tensor<9xi32>, %arg3: tensor<9xf32>) -> (tensor<4x5xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<5> : tensor<i32>
    %c_0 = stablehlo.constant dense<4> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %1 = stablehlo.compare LT, %arg1, %0, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<9xi32>
    %4 = stablehlo.select %1, %3, %arg1 : tensor<9xi1>, tensor<9xi32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %6 = stablehlo.compare LT, %arg2, %5, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %7 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %8 = stablehlo.add %arg2, %7 : tensor<9xi32>
    %9 = stablehlo.select %6, %8, %arg2 : tensor<9xi1>, tensor<9xi32>
    %10 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %11 = stablehlo.broadcast_in_dim %9, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %12 = stablehlo.concatenate %10, %11, dim = 1 : (tensor<9x1xi32>, tensor<9x1xi32>) -> tensor<9x2xi32>
    %13 = "stablehlo.scatter"(%arg0, %12, %arg3) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0, 1], index_vector_dim = 1>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %14 = stablehlo.add %arg4, %arg5 : tensor<f32>
      stablehlo.return %14 : tensor<f32>
    }) : (tensor<4x5xf32>, tensor<9x2xi32>, tensor<9xf32>) -> tensor<4x5xf32>
    return %13 : tensor<4x5xf32>
  }
}
