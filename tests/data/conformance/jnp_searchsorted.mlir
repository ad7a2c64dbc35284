module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xi32> {jax.result_info = "result"}) {
    %0 = call @sort(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
    %1 = call @searchsorted(%0, %arg1) : (tensor<8xf32>, tensor<3x4xf32>) -> tensor<3x4xi32>
    return %1 : tensor<3x4xi32>
  }
  func.func private @sort(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.compare EQ, %arg1, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %2 = stablehlo.select %1, %cst_0, %arg1 : tensor<i1>, tensor<f32>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %4 = stablehlo.select %3, %cst_1, %2 : tensor<i1>, tensor<f32>
      %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %5 = stablehlo.compare EQ, %arg2, %cst_2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %6 = stablehlo.select %5, %cst_3, %arg2 : tensor<i1>, tensor<f32>
      %7 = stablehlo.compare NE, %arg2, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
      %8 = stablehlo.select %7, %cst_4, %6 : tensor<i1>, tensor<f32>
      %9 = stablehlo.compare LT, %4, %8, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %9 : tensor<i1>
    }) : (tensor<8xf32>) -> tensor<8xf32>
    return %0 : tensor<8xf32>
  }
  func.func private @searchsorted(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<8xf32>, tensor<3x4xf32>) -> tensor<3x4xi32>
    return %0 : tensor<3x4xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xi32> {
    %0 = call @_searchsorted_scan_impl_0(%arg0, %arg1) : (tensor<8xf32>, tensor<3x4xf32>) -> tensor<3x4xi32>
    return %0 : tensor<3x4xi32>
  }
  func.func private @_searchsorted_scan_impl_0(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xi32> {
    %0 = call @_searchsorted_scan_impl_1(%arg0, %arg1) : (tensor<8xf32>, tensor<3x4xf32>) -> tensor<3x4xi32>
    return %0 : tensor<3x4xi32>
  }
  func.func private @_searchsorted_scan_impl_1(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>) -> tensor<3x4xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %c_0 = stablehlo.constant dense<8> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<4xui32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [1] : (tensor<4xui32>) -> tensor<3x4xui32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<4xui32>) -> tensor<3x4xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %4:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %2, %iterArg_5 = %3) : tensor<8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<3x4xui32>, tensor<3x4xui32>
    cond {
      %c_6 = stablehlo.constant dense<4> : tensor<i32>
      %6 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    } do {
      %6:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5) : (tensor<8xf32>, tensor<3x4xf32>, tensor<3x4xui32>, tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x4xui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %7, %6#0, %6#1 : tensor<8xf32>, tensor<3x4xf32>, tensor<i32>, tensor<3x4xui32>, tensor<3x4xui32>
    }
    %5 = stablehlo.convert %4#4 : (tensor<3x4xui32>) -> tensor<3x4xi32>
    return %5 : tensor<3x4xi32>
  }
  func.func private @closed_call(%arg0: tensor<8xf32>, %arg1: tensor<3x4xf32>, %arg2: tensor<3x4xui32>, %arg3: tensor<3x4xui32>) -> (tensor<3x4xui32>, tensor<3x4xui32>) {
    %0 = stablehlo.subtract %arg3, %arg2 : tensor<3x4xui32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = call @floor_divide(%0, %c) : (tensor<3x4xui32>, tensor<i32>) -> tensor<3x4xui32>
    %2 = stablehlo.add %arg2, %1 : tensor<3x4xui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0, 1] : (tensor<3x4xui32>) -> tensor<3x4x1xui32>
    %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<8xf32>, tensor<3x4x1xui32>) -> tensor<3x4x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<3x4x1xf32>) -> tensor<3x4xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %7 = stablehlo.compare EQ, %arg1, %6, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
    %10 = stablehlo.select %7, %9, %arg1 : tensor<3x4xi1>, tensor<3x4xf32>
    %11 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
    %14 = stablehlo.select %11, %13, %10 : tensor<3x4xi1>, tensor<3x4xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %16 = stablehlo.compare EQ, %5, %15, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
    %19 = stablehlo.select %16, %18, %5 : tensor<3x4xi1>, tensor<3x4xf32>
    %20 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [1] : (tensor<4xf32>) -> tensor<3x4xf32>
    %23 = stablehlo.select %20, %22, %19 : tensor<3x4xi1>, tensor<3x4xf32>
    %24 = stablehlo.compare LE, %14, %23, TOTALORDER : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %25 = stablehlo.select %24, %arg2, %2 : tensor<3x4xi1>, tensor<3x4xui32>
    %26 = stablehlo.select %24, %2, %arg3 : tensor<3x4xi1>, tensor<3x4xui32>
    return %25, %26 : tensor<3x4xui32>, tensor<3x4xui32>
  }
  func.func private @floor_divide(%arg0: tensor<3x4xui32>, %arg1: tensor<i32>) -> tensor<3x4xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<3x4xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<3x4xui32>
    return %2 : tensor<3x4xui32>
  }
}
