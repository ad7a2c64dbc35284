module @jit__embed_mean_pool attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xi32>, %arg1: tensor<10x6xf32>, %arg2: tensor<6x2xf32>) -> (tensor<3x2xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi1>
    %c_0 = stablehlo.constant dense<10> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
    %3 = stablehlo.add %arg0, %2 : tensor<3x5xi32>
    %4 = stablehlo.select %1, %3, %arg0 : tensor<3x5xi1>, tensor<3x5xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<3x5xi32>) -> tensor<3x5x1xi32>
    %6 = "stablehlo.gather"(%arg1, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1, 6>}> : (tensor<10x6xf32>, tensor<3x5x1xi32>) -> tensor<3x5x6xf32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<3x5xi32>
    %8 = stablehlo.compare NE, %arg0, %7, SIGNED : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi1>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<3x5xi1>) -> tensor<3x5x1xi1>
    %10 = stablehlo.convert %9 : (tensor<3x5x1xi1>) -> tensor<3x5x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1, 2] : (tensor<3x5x1xf32>) -> tensor<3x5x6xf32>
    %12 = stablehlo.multiply %6, %11 : tensor<3x5x6xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.reduce(%12 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<3x5x6xf32>, tensor<f32>) -> tensor<3x6xf32>
    %14 = stablehlo.convert %9 : (tensor<3x5x1xi1>) -> tensor<3x5x1xi32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %15 = stablehlo.reduce(%14 init: %c_2) applies stablehlo.add across dimensions = [1] : (tensor<3x5x1xi32>, tensor<i32>) -> tensor<3x1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %16 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<3x1xi32>
    %17 = stablehlo.maximum %15, %16 : tensor<3x1xi32>
    %18 = stablehlo.convert %17 : (tensor<3x1xi32>) -> tensor<3x1xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x6xf32>
    %20 = stablehlo.divide %13, %19 : tensor<3x6xf32>
    %21 = stablehlo.dot_general %20, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x6xf32>, tensor<6x2xf32>) -> tensor<3x2xf32>
    return %21 : tensor<3x2xf32>
  }
}
