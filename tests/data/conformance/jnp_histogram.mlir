module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<20xf32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[-2.000000e+00, 2.000000e+00]> : tensor<2xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %1 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.compare EQ, %1, %cst_1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %3 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %5 = stablehlo.subtract %4, %cst_2 : tensor<f32>
    %6 = stablehlo.slice %cst [0:1] : (tensor<2xf32>) -> tensor<1xf32>
    %7 = stablehlo.reshape %6 : (tensor<1xf32>) -> tensor<f32>
    %8 = call @_where(%2, %5, %7) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %9 = call @_ptp(%cst) : (tensor<2xf32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = stablehlo.compare EQ, %9, %cst_3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %11 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %12 = stablehlo.reshape %11 : (tensor<1xf32>) -> tensor<f32>
    %cst_4 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %13 = stablehlo.add %12, %cst_4 : tensor<f32>
    %14 = stablehlo.slice %cst [1:2] : (tensor<2xf32>) -> tensor<1xf32>
    %15 = stablehlo.reshape %14 : (tensor<1xf32>) -> tensor<f32>
    %16 = call @_where(%10, %13, %15) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
    %17 = call @_linspace(%8, %16) : (tensor<f32>, tensor<f32>) -> tensor<6xf32>
    %18 = call @searchsorted(%17, %arg0) : (tensor<6xf32>, tensor<20xf32>) -> tensor<20xi32>
    %19 = stablehlo.slice %17 [5:6] : (tensor<6xf32>) -> tensor<1xf32>
    %20 = stablehlo.reshape %19 : (tensor<1xf32>) -> tensor<f32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %22 = stablehlo.compare EQ, %arg0, %21, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %c = stablehlo.constant dense<5> : tensor<i32>
    %23 = call @_where_1(%22, %c, %18) : (tensor<20xi1>, tensor<i32>, tensor<20xi32>) -> tensor<20xi32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %26 = stablehlo.compare LT, %23, %25, SIGNED : (tensor<20xi32>, tensor<20xi32>) -> tensor<20xi1>
    %c_7 = stablehlo.constant dense<6> : tensor<i32>
    %27 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %28 = stablehlo.add %23, %27 : tensor<20xi32>
    %29 = stablehlo.select %26, %28, %23 : tensor<20xi1>, tensor<20xi32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [0] : (tensor<20xi32>) -> tensor<20x1xi32>
    %31 = "stablehlo.scatter"(%24, %30, %0) <{indices_are_sorted = false, scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>, unique_indices = false}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %33 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %33 : tensor<f32>
    }) : (tensor<6xf32>, tensor<20x1xi32>, tensor<20xf32>) -> tensor<6xf32>
    %32 = stablehlo.slice %31 [1:6] : (tensor<6xf32>) -> tensor<5xf32>
    return %32 : tensor<5xf32>
  }
  func.func private @_ptp(%arg0: tensor<2xf32>) -> tensor<f32> {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst_0) applies stablehlo.minimum across dimensions = [0] : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
    %2 = stablehlo.subtract %0, %1 : tensor<f32>
    return %2 : tensor<f32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<f32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<f32>
    return %0 : tensor<f32>
  }
  func.func private @_linspace(%arg0: tensor<f32>, %arg1: tensor<f32>) -> tensor<6xf32> {
    %0 = stablehlo.subtract %arg1, %arg0 : tensor<f32>
    %cst = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %1 = stablehlo.divide %0, %cst : tensor<f32>
    %2 = stablehlo.iota dim = 0 : tensor<5xf32>
    %cst_0 = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %4 = stablehlo.divide %2, %3 : tensor<5xf32>
    %5 = stablehlo.reshape %arg0 : (tensor<f32>) -> tensor<1xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %7 = stablehlo.subtract %6, %4 : tensor<5xf32>
    %8 = stablehlo.broadcast_in_dim %5, dims = [0] : (tensor<1xf32>) -> tensor<5xf32>
    %9 = stablehlo.multiply %8, %7 : tensor<5xf32>
    %10 = stablehlo.reshape %arg1 : (tensor<f32>) -> tensor<1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<1xf32>) -> tensor<5xf32>
    %12 = stablehlo.multiply %11, %4 : tensor<5xf32>
    %13 = stablehlo.add %9, %12 : tensor<5xf32>
    %14 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<5xf32>, tensor<1xf32>) -> tensor<6xf32>
    return %15 : tensor<6xf32>
  }
  func.func private @searchsorted(%arg0: tensor<6xf32>, %arg1: tensor<20xf32>) -> tensor<20xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<6xf32>, tensor<20xf32>) -> tensor<20xi32>
    return %0 : tensor<20xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<6xf32>, %arg1: tensor<20xf32>) -> tensor<20xi32> {
    %0 = call @_searchsorted_scan_impl_0(%arg0, %arg1) : (tensor<6xf32>, tensor<20xf32>) -> tensor<20xi32>
    return %0 : tensor<20xi32>
  }
  func.func private @_searchsorted_scan_impl_0(%arg0: tensor<6xf32>, %arg1: tensor<20xf32>) -> tensor<20xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<20xui32>
    %c_0 = stablehlo.constant dense<6> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<20xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<6xf32>, tensor<20xf32>, tensor<i32>, tensor<20xui32>, tensor<20xui32>
    cond {
      %c_6 = stablehlo.constant dense<3> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5) : (tensor<6xf32>, tensor<20xf32>, tensor<20xui32>, tensor<20xui32>) -> (tensor<20xui32>, tensor<20xui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %5, %4#0, %4#1 : tensor<6xf32>, tensor<20xf32>, tensor<i32>, tensor<20xui32>, tensor<20xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<20xui32>) -> tensor<20xi32>
    return %3 : tensor<20xi32>
  }
  func.func private @closed_call(%arg0: tensor<6xf32>, %arg1: tensor<20xf32>, %arg2: tensor<20xui32>, %arg3: tensor<20xui32>) -> (tensor<20xui32>, tensor<20xui32>) {
    %0 = stablehlo.subtract %arg3, %arg2 : tensor<20xui32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = call @floor_divide(%0, %c) : (tensor<20xui32>, tensor<i32>) -> tensor<20xui32>
    %2 = stablehlo.add %arg2, %1 : tensor<20xui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<20xui32>) -> tensor<20x1xui32>
    %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<6xf32>, tensor<20x1xui32>) -> tensor<20x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<20x1xf32>) -> tensor<20xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %7 = stablehlo.compare EQ, %arg1, %6, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %9 = stablehlo.select %7, %8, %arg1 : tensor<20xi1>, tensor<20xf32>
    %10 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %12 = stablehlo.select %10, %11, %9 : tensor<20xi1>, tensor<20xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %14 = stablehlo.compare EQ, %5, %13, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %16 = stablehlo.select %14, %15, %5 : tensor<20xi1>, tensor<20xf32>
    %17 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<20xf32>
    %19 = stablehlo.select %17, %18, %16 : tensor<20xi1>, tensor<20xf32>
    %20 = stablehlo.compare LT, %12, %19, TOTALORDER : (tensor<20xf32>, tensor<20xf32>) -> tensor<20xi1>
    %21 = stablehlo.select %20, %arg2, %2 : tensor<20xi1>, tensor<20xui32>
    %22 = stablehlo.select %20, %2, %arg3 : tensor<20xi1>, tensor<20xui32>
    return %21, %22 : tensor<20xui32>, tensor<20xui32>
  }
  func.func private @floor_divide(%arg0: tensor<20xui32>, %arg1: tensor<i32>) -> tensor<20xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<20xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<20xui32>
    return %2 : tensor<20xui32>
  }
  func.func private @_where_1(%arg0: tensor<20xi1>, %arg1: tensor<i32>, %arg2: tensor<20xi32>) -> tensor<20xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<20xi32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<20xi1>, tensor<20xi32>
    return %2 : tensor<20xi32>
  }
}
