module @jit__kmeans_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<10x2xf32>, %arg1: tensor<3x2xf32>) -> (tensor<10xi32> {jax.result_info = "result[0]"}, tensor<3x2xf32> {jax.result_info = "result[1]"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 2] : (tensor<10x2xf32>) -> tensor<10x1x2xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<3x2xf32>) -> tensor<1x3x2xf32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 2] : (tensor<10x1x2xf32>) -> tensor<10x3x2xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [0, 1, 2] : (tensor<1x3x2xf32>) -> tensor<10x3x2xf32>
    %4 = stablehlo.subtract %2, %3 : tensor<10x3x2xf32>
    %5 = stablehlo.multiply %4, %4 : tensor<10x3x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.reduce(%5 init: %cst) applies stablehlo.add across dimensions = [2] : (tensor<10x3x2xf32>, tensor<f32>) -> tensor<10x3xf32>
    %7 = call @argmin(%6) : (tensor<10x3xf32>) -> tensor<10xi32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %10 = "stablehlo.scatter"(%8, %9, %arg0) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %24 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %24 : tensor<f32>
    }) : (tensor<3x2xf32>, tensor<10x1xi32>, tensor<10x2xf32>) -> tensor<3x2xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<10xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %13 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<10xi32>) -> tensor<10x1xi32>
    %14 = "stablehlo.scatter"(%12, %13, %11) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %24 = stablehlo.add %arg2, %arg3 : tensor<f32>
      stablehlo.return %24 : tensor<f32>
    }) : (tensor<3xf32>, tensor<10x1xi32>, tensor<10xf32>) -> tensor<3xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x1xf32>
    %17 = stablehlo.compare GT, %15, %16, FLOAT : (tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x1xi1>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %19 = stablehlo.maximum %14, %18 : tensor<3xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x2xf32>
    %22 = stablehlo.divide %10, %21 : tensor<3x2xf32>
    %23 = call @_where(%17, %22, %arg1) : (tensor<3x1xi1>, tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    return %7, %23 : tensor<10xi32>, tensor<3x2xf32>
  }
  func.func private @argmin(%arg0: tensor<10x3xf32>) -> tensor<10xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<10x3xi32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<10x3xf32>, tensor<10x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<10xf32>, tensor<10xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare LT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<10xi32>
  }
  func.func private @_where(%arg0: tensor<3x1xi1>, %arg1: tensor<3x2xf32>, %arg2: tensor<3x2xf32>) -> tensor<3x2xf32> {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xi1>) -> tensor<3x2xi1>
    %1 = stablehlo.select %0, %arg1, %arg2 : tensor<3x2xi1>, tensor<3x2xf32>
    return %1 : tensor<3x2xf32>
  }
}
