module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xcomplex<f32>>, %arg1: tensor<4xi32>, %arg2: tensor<4x5xcomplex<f32>>) -> (tensor<3x5xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<3x5xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %0 = call @cumsum(%arg0) : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %2 = stablehlo.compare LT, %arg1, %1, SIGNED : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %3 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<4xi32>
    %4 = stablehlo.add %arg1, %3 : tensor<4xi32>
    %5 = stablehlo.select %2, %4, %arg1 : tensor<4xi1>, tensor<4xi32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<4xi32>) -> tensor<4x1xi32>
    %7 = "stablehlo.scatter"(%arg0, %6, %arg2) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg3: tensor<complex<f32>>, %arg4: tensor<complex<f32>>):
      %9 = stablehlo.add %arg3, %arg4 : tensor<complex<f32>>
      stablehlo.return %9 : tensor<complex<f32>>
    }) : (tensor<3x5xcomplex<f32>>, tensor<4x1xi32>, tensor<4x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
    %cst = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %8 = "stablehlo.reduce_window"(%arg0, %cst) <{base_dilations = array<i64: 1, 1>, padding = dense<0> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 2>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg3: tensor<complex<f32>>, %arg4: tensor<complex<f32>>):
      %9 = stablehlo.multiply %arg3, %arg4 : tensor<complex<f32>>
      stablehlo.return %9 : tensor<complex<f32>>
    }) : (tensor<3x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x4xcomplex<f32>>
    return %0, %7, %8 : tensor<3x5xcomplex<f32>>, tensor<3x5xcomplex<f32>>, tensor<3x4xcomplex<f32>>
  }
  func.func private @cumsum(%arg0: tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>> {
    %0 = call @cumsum_0(%arg0) : (tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>>
    return %0 : tensor<3x5xcomplex<f32>>
  }
  func.func private @cumsum_0(%arg0: tensor<3x5xcomplex<f32>>) -> tensor<3x5xcomplex<f32>> {
    %cst = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<complex<f32>>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{base_dilations = array<i64: 1, 1>, padding = dense<[[0, 0], [4, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 1, 5>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<complex<f32>>, %arg2: tensor<complex<f32>>):
      %2 = stablehlo.add %arg1, %arg2 : tensor<complex<f32>>
      stablehlo.return %2 : tensor<complex<f32>>
    }) : (tensor<3x5xcomplex<f32>>, tensor<complex<f32>>) -> tensor<3x5xcomplex<f32>>
    return %1 : tensor<3x5xcomplex<f32>>
  }
}
