module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f32>>, %arg1: tensor<2xi32>) -> (tensor<4x3xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<4x3xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<6x4xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<4x6xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<2x2xcomplex<f32>> {jax.result_info = "result[4]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[5]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[6]"}, tensor<2x4xcomplex<f32>> {jax.result_info = "result[7]"}, tensor<2x2xcomplex<f32>> {jax.result_info = "result[8]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[9]"}) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<3x4xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
    %1 = stablehlo.reshape %arg0 : (tensor<3x4xcomplex<f32>>) -> tensor<4x3xcomplex<f32>>
    %cst = stablehlo.constant dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3x4xcomplex<f32>>
    %3 = stablehlo.multiply %arg0, %2 : tensor<3x4xcomplex<f32>>
    %4 = stablehlo.concatenate %arg0, %3, dim = 0 : (tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<6x4xcomplex<f32>>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = call @_pad(%arg0, %c) : (tensor<3x4xcomplex<f32>>, tensor<i32>) -> tensor<4x6xcomplex<f32>>
    %6 = stablehlo.slice %arg0 [1:3, 0:4:2] : (tensor<3x4xcomplex<f32>>) -> tensor<2x2xcomplex<f32>>
    %7 = call @_flip(%arg0) : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    %8 = stablehlo.slice %arg0 [0:3, 0:1] : (tensor<3x4xcomplex<f32>>) -> tensor<3x1xcomplex<f32>>
    %9 = stablehlo.broadcast_in_dim %8, dims = [0, 1] : (tensor<3x1xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %11 = stablehlo.compare LT, %arg1, %10, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %c_1 = stablehlo.constant dense<3> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %13 = stablehlo.add %arg1, %12 : tensor<2xi32>
    %14 = stablehlo.select %11, %13, %arg1 : tensor<2xi1>, tensor<2xi32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<2xi32>) -> tensor<2x1xi32>
    %16 = "stablehlo.gather"(%arg0, %15) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1, 4>}> : (tensor<3x4xcomplex<f32>>, tensor<2x1xi32>) -> tensor<2x4xcomplex<f32>>
    %17 = stablehlo.slice %arg1 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %18 = stablehlo.reshape %17 : (tensor<1xi32>) -> tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.compare LT, %18, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_3 = stablehlo.constant dense<3> : tensor<i32>
    %20 = stablehlo.add %18, %c_3 : tensor<i32>
    %21 = stablehlo.select %19, %20, %18 : tensor<i1>, tensor<i32>
    %c_4 = stablehlo.constant dense<1> : tensor<i32>
    %22 = stablehlo.dynamic_slice %arg0, %21, %c_4, sizes = [2, 2] : (tensor<3x4xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<2x2xcomplex<f32>>
    %cst_5 = stablehlo.constant dense<(1.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %23 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<complex<f32>>) -> tensor<1x2xcomplex<f32>>
    %24 = stablehlo.slice %arg1 [1:2] : (tensor<2xi32>) -> tensor<1xi32>
    %25 = stablehlo.reshape %24 : (tensor<1xi32>) -> tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %26 = stablehlo.compare LT, %25, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %27 = stablehlo.add %25, %c_7 : tensor<i32>
    %28 = stablehlo.select %26, %27, %25 : tensor<i1>, tensor<i32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %29 = stablehlo.dynamic_update_slice %arg0, %23, %c_8, %28 : (tensor<3x4xcomplex<f32>>, tensor<1x2xcomplex<f32>>, tensor<i32>, tensor<i32>) -> tensor<3x4xcomplex<f32>>
    return %0, %1, %4, %5, %6, %7, %9, %16, %22, %29 : tensor<4x3xcomplex<f32>>, tensor<4x3xcomplex<f32>>, tensor<6x4xcomplex<f32>>, tensor<4x6xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>, tensor<2x4xcomplex<f32>>, tensor<2x2xcomplex<f32>>, tensor<3x4xcomplex<f32>>
  }
  func.func private @_pad(%arg0: tensor<3x4xcomplex<f32>>, %arg1: tensor<i32>) -> tensor<4x6xcomplex<f32>> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<complex<f32>>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<3x4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<4x6xcomplex<f32>>
    return %1 : tensor<4x6xcomplex<f32>>
  }
  func.func private @_flip(%arg0: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
    %0 = stablehlo.reverse %arg0, dims = [1] : tensor<3x4xcomplex<f32>>
    return %0 : tensor<3x4xcomplex<f32>>
  }
}
