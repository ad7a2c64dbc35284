module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x7xf32>) -> (tensor<3x3xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[1.000000e-01, 5.000000e-01, 0.899999976]> : tensor<3xf32>
    %0 = call @quantile(%arg0, %cst) : (tensor<3x7xf32>, tensor<3xf32>) -> tensor<3x3xf32>
    return %0 : tensor<3x3xf32>
  }
  func.func private @quantile(%arg0: tensor<3x7xf32>, %arg1: tensor<3xf32>) -> tensor<3x3xf32> {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<3x7xf32>, tensor<3x7xf32>) -> tensor<3x7xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %1 = stablehlo.reduce(%0 init: %c) applies stablehlo.or across dimensions = [1] : (tensor<3x7xi1>, tensor<i1>) -> tensor<3xi1>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0] : (tensor<3xi1>) -> tensor<3x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %3 = call @_where(%2, %cst, %arg0) : (tensor<3x1xi1>, tensor<f32>, tensor<3x7xf32>) -> tensor<3x7xf32>
    %4 = "stablehlo.sort"(%3) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %32 = stablehlo.compare EQ, %arg2, %cst_9, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %33 = stablehlo.select %32, %cst_10, %arg2 : tensor<i1>, tensor<f32>
      %34 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_11 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %35 = stablehlo.select %34, %cst_11, %33 : tensor<i1>, tensor<f32>
      %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %36 = stablehlo.compare EQ, %arg3, %cst_12, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %37 = stablehlo.select %36, %cst_13, %arg3 : tensor<i1>, tensor<f32>
      %38 = stablehlo.compare NE, %arg3, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_14 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %39 = stablehlo.select %38, %cst_14, %37 : tensor<i1>, tensor<f32>
      %40 = stablehlo.compare LT, %35, %39, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %40 : tensor<i1>
    }) : (tensor<3x7xf32>) -> tensor<3x7xf32>
    %cst_0 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.subtract %cst_0, %cst_1 : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %7 = stablehlo.multiply %arg1, %6 : tensor<3xf32>
    %8 = stablehlo.floor %7 : tensor<3xf32>
    %9 = stablehlo.ceil %7 : tensor<3xf32>
    %10 = stablehlo.subtract %7, %8 : tensor<3xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %12 = stablehlo.subtract %11, %10 : tensor<3xf32>
    %cst_3 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %13 = stablehlo.subtract %cst_3, %cst_4 : tensor<f32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %16 = stablehlo.clamp %14, %8, %15 : tensor<3xf32>
    %cst_6 = stablehlo.constant dense<7.000000e+00> : tensor<f32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.subtract %cst_6, %cst_7 : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %19 = stablehlo.broadcast_in_dim %17, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %20 = stablehlo.clamp %18, %9, %19 : tensor<3xf32>
    %21 = stablehlo.convert %16 : (tensor<3xf32>) -> tensor<3xi32>
    %22 = stablehlo.convert %20 : (tensor<3xf32>) -> tensor<3xi32>
    %23 = stablehlo.broadcast_in_dim %21, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %24 = "stablehlo.gather"(%4, %23) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1>}> : (tensor<3x7xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
    %25 = stablehlo.broadcast_in_dim %22, dims = [0] : (tensor<3xi32>) -> tensor<3x1xi32>
    %26 = "stablehlo.gather"(%4, %25) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [1], start_index_map = [1], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 3, 1>}> : (tensor<3x7xf32>, tensor<3x1xi32>) -> tensor<3x3xf32>
    %27 = stablehlo.broadcast_in_dim %12, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
    %28 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<3xf32>) -> tensor<3x3xf32>
    %29 = stablehlo.multiply %24, %27 : tensor<3x3xf32>
    %30 = stablehlo.multiply %26, %28 : tensor<3x3xf32>
    %31 = stablehlo.add %29, %30 : tensor<3x3xf32>
    return %31 : tensor<3x3xf32>
  }
  func.func private @_where(%arg0: tensor<3x1xi1>, %arg1: tensor<f32>, %arg2: tensor<3x7xf32>) -> tensor<3x7xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<3x1xi1>) -> tensor<3x7xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3x7xf32>
    %3 = stablehlo.select %1, %2, %arg2 : tensor<3x7xi1>, tensor<3x7xf32>
    return %3 : tensor<3x7xf32>
  }
}
