module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9xf32>) -> (tensor<9xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[-2.000000e+00, -5.000000e-01, 5.000000e-01, 2.000000e+00]> : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<[1.000000e+00, -1.000000e+00, 2.000000e+00, 0.000000e+00]> : tensor<4xf32>
    %0 = call @_interp(%arg0, %cst, %cst_0) : (tensor<9xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<9xf32>
    return %0 : tensor<9xf32>
  }
  func.func private @_interp(%arg0: tensor<9xf32>, %arg1: tensor<4xf32>, %arg2: tensor<4xf32>) -> tensor<9xf32> {
    %0 = call @searchsorted(%arg1, %arg0) : (tensor<4xf32>, tensor<9xf32>) -> tensor<9xi32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<3> : tensor<i32>
    %1 = call @clip(%0, %c, %c_0) : (tensor<9xi32>, tensor<i32>, tensor<i32>) -> tensor<9xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %3 = stablehlo.compare LT, %1, %2, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_2 = stablehlo.constant dense<4> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %5 = stablehlo.add %1, %4 : tensor<9xi32>
    %6 = stablehlo.select %3, %5, %1 : tensor<9xi1>, tensor<9xi32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %8 = "stablehlo.gather"(%arg2, %7) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %10 = stablehlo.subtract %1, %9 : tensor<9xi32>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %11 = stablehlo.broadcast_in_dim %c_4, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %12 = stablehlo.compare LT, %10, %11, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_5 = stablehlo.constant dense<4> : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %c_5, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %14 = stablehlo.add %10, %13 : tensor<9xi32>
    %15 = stablehlo.select %12, %14, %10 : tensor<9xi1>, tensor<9xi32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %17 = "stablehlo.gather"(%arg2, %16) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %18 = stablehlo.subtract %8, %17 : tensor<9xf32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %19 = stablehlo.broadcast_in_dim %c_6, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %20 = stablehlo.compare LT, %1, %19, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_7 = stablehlo.constant dense<4> : tensor<i32>
    %21 = stablehlo.broadcast_in_dim %c_7, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %22 = stablehlo.add %1, %21 : tensor<9xi32>
    %23 = stablehlo.select %20, %22, %1 : tensor<9xi1>, tensor<9xi32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %25 = "stablehlo.gather"(%arg1, %24) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %c_8 = stablehlo.constant dense<1> : tensor<i32>
    %26 = stablehlo.broadcast_in_dim %c_8, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %27 = stablehlo.subtract %1, %26 : tensor<9xi32>
    %c_9 = stablehlo.constant dense<0> : tensor<i32>
    %28 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %29 = stablehlo.compare LT, %27, %28, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_10 = stablehlo.constant dense<4> : tensor<i32>
    %30 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %31 = stablehlo.add %27, %30 : tensor<9xi32>
    %32 = stablehlo.select %29, %31, %27 : tensor<9xi1>, tensor<9xi32>
    %33 = stablehlo.broadcast_in_dim %32, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %34 = "stablehlo.gather"(%arg1, %33) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %35 = stablehlo.subtract %25, %34 : tensor<9xf32>
    %c_11 = stablehlo.constant dense<1> : tensor<i32>
    %36 = stablehlo.broadcast_in_dim %c_11, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %37 = stablehlo.subtract %1, %36 : tensor<9xi32>
    %c_12 = stablehlo.constant dense<0> : tensor<i32>
    %38 = stablehlo.broadcast_in_dim %c_12, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %39 = stablehlo.compare LT, %37, %38, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_13 = stablehlo.constant dense<4> : tensor<i32>
    %40 = stablehlo.broadcast_in_dim %c_13, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %41 = stablehlo.add %37, %40 : tensor<9xi32>
    %42 = stablehlo.select %39, %41, %37 : tensor<9xi1>, tensor<9xi32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %44 = "stablehlo.gather"(%arg1, %43) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %45 = stablehlo.subtract %arg0, %44 : tensor<9xf32>
    %46 = stablehlo.abs %35 : tensor<9xf32>
    %cst = stablehlo.constant dense<1.42108547E-14> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %48 = stablehlo.compare LE, %46, %47, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %c_14 = stablehlo.constant dense<1> : tensor<i32>
    %49 = stablehlo.broadcast_in_dim %c_14, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %50 = stablehlo.subtract %1, %49 : tensor<9xi32>
    %c_15 = stablehlo.constant dense<0> : tensor<i32>
    %51 = stablehlo.broadcast_in_dim %c_15, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %52 = stablehlo.compare LT, %50, %51, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_16 = stablehlo.constant dense<4> : tensor<i32>
    %53 = stablehlo.broadcast_in_dim %c_16, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %54 = stablehlo.add %50, %53 : tensor<9xi32>
    %55 = stablehlo.select %52, %54, %50 : tensor<9xi1>, tensor<9xi32>
    %56 = stablehlo.broadcast_in_dim %55, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %57 = "stablehlo.gather"(%arg2, %56) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %c_17 = stablehlo.constant dense<1> : tensor<i32>
    %58 = stablehlo.broadcast_in_dim %c_17, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %59 = stablehlo.subtract %1, %58 : tensor<9xi32>
    %c_18 = stablehlo.constant dense<0> : tensor<i32>
    %60 = stablehlo.broadcast_in_dim %c_18, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %61 = stablehlo.compare LT, %59, %60, SIGNED : (tensor<9xi32>, tensor<9xi32>) -> tensor<9xi1>
    %c_19 = stablehlo.constant dense<4> : tensor<i32>
    %62 = stablehlo.broadcast_in_dim %c_19, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %63 = stablehlo.add %59, %62 : tensor<9xi32>
    %64 = stablehlo.select %61, %63, %59 : tensor<9xi1>, tensor<9xi32>
    %65 = stablehlo.broadcast_in_dim %64, dims = [0] : (tensor<9xi32>) -> tensor<9x1xi32>
    %66 = "stablehlo.gather"(%arg2, %65) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xi32>) -> tensor<9xf32>
    %c_20 = stablehlo.constant dense<1> : tensor<i32>
    %67 = call @_where(%48, %c_20, %35) : (tensor<9xi1>, tensor<i32>, tensor<9xf32>) -> tensor<9xf32>
    %68 = stablehlo.divide %45, %67 : tensor<9xf32>
    %69 = stablehlo.multiply %68, %18 : tensor<9xf32>
    %70 = stablehlo.add %66, %69 : tensor<9xf32>
    %71 = call @_where_1(%48, %57, %70) : (tensor<9xi1>, tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    %72 = stablehlo.slice %arg2 [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %73 = stablehlo.reshape %72 : (tensor<1xf32>) -> tensor<f32>
    %74 = stablehlo.slice %arg1 [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %75 = stablehlo.reshape %74 : (tensor<1xf32>) -> tensor<f32>
    %76 = stablehlo.broadcast_in_dim %75, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %77 = stablehlo.compare LT, %arg0, %76, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %78 = call @_where_2(%77, %73, %71) : (tensor<9xi1>, tensor<f32>, tensor<9xf32>) -> tensor<9xf32>
    %79 = stablehlo.slice %arg2 [3:4] : (tensor<4xf32>) -> tensor<1xf32>
    %80 = stablehlo.reshape %79 : (tensor<1xf32>) -> tensor<f32>
    %81 = stablehlo.slice %arg1 [3:4] : (tensor<4xf32>) -> tensor<1xf32>
    %82 = stablehlo.reshape %81 : (tensor<1xf32>) -> tensor<f32>
    %83 = stablehlo.broadcast_in_dim %82, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %84 = stablehlo.compare GT, %arg0, %83, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %85 = call @_where_2(%84, %80, %78) : (tensor<9xi1>, tensor<f32>, tensor<9xf32>) -> tensor<9xf32>
    return %85 : tensor<9xf32>
  }
  func.func private @searchsorted(%arg0: tensor<4xf32>, %arg1: tensor<9xf32>) -> tensor<9xi32> {
    %0 = call @_searchsorted_scan_impl(%arg0, %arg1) : (tensor<4xf32>, tensor<9xf32>) -> tensor<9xi32>
    return %0 : tensor<9xi32>
  }
  func.func private @_searchsorted_scan_impl(%arg0: tensor<4xf32>, %arg1: tensor<9xf32>) -> tensor<9xi32> {
    %0 = call @_searchsorted_scan_impl_0(%arg0, %arg1) : (tensor<4xf32>, tensor<9xf32>) -> tensor<9xi32>
    return %0 : tensor<9xi32>
  }
  func.func private @_searchsorted_scan_impl_0(%arg0: tensor<4xf32>, %arg1: tensor<9xf32>) -> tensor<9xi32> {
    %c = stablehlo.constant dense<0> : tensor<ui32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<ui32>) -> tensor<9xui32>
    %c_0 = stablehlo.constant dense<4> : tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<ui32>) -> tensor<9xui32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:5 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %0, %iterArg_5 = %1) : tensor<4xf32>, tensor<9xf32>, tensor<i32>, tensor<9xui32>, tensor<9xui32>
    cond {
      %c_6 = stablehlo.constant dense<3> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_3, %c_6, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5) : (tensor<4xf32>, tensor<9xf32>, tensor<9xui32>, tensor<9xui32>) -> (tensor<9xui32>, tensor<9xui32>)
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_3, %c_6 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %5, %4#0, %4#1 : tensor<4xf32>, tensor<9xf32>, tensor<i32>, tensor<9xui32>, tensor<9xui32>
    }
    %3 = stablehlo.convert %2#4 : (tensor<9xui32>) -> tensor<9xi32>
    return %3 : tensor<9xi32>
  }
  func.func private @closed_call(%arg0: tensor<4xf32>, %arg1: tensor<9xf32>, %arg2: tensor<9xui32>, %arg3: tensor<9xui32>) -> (tensor<9xui32>, tensor<9xui32>) {
    %0 = stablehlo.subtract %arg3, %arg2 : tensor<9xui32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = call @floor_divide(%0, %c) : (tensor<9xui32>, tensor<i32>) -> tensor<9xui32>
    %2 = stablehlo.add %arg2, %1 : tensor<9xui32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<9xui32>) -> tensor<9x1xui32>
    %4 = "stablehlo.gather"(%arg0, %3) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<4xf32>, tensor<9x1xui32>) -> tensor<9x1xf32>
    %5 = stablehlo.reshape %4 : (tensor<9x1xf32>) -> tensor<9xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %7 = stablehlo.compare EQ, %arg1, %6, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %9 = stablehlo.select %7, %8, %arg1 : tensor<9xi1>, tensor<9xf32>
    %10 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %12 = stablehlo.select %10, %11, %9 : tensor<9xi1>, tensor<9xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %14 = stablehlo.compare EQ, %5, %13, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %16 = stablehlo.select %14, %15, %5 : tensor<9xi1>, tensor<9xf32>
    %17 = stablehlo.compare NE, %5, %5, FLOAT : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %cst_4 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %19 = stablehlo.select %17, %18, %16 : tensor<9xi1>, tensor<9xf32>
    %20 = stablehlo.compare LT, %12, %19, TOTALORDER : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xi1>
    %21 = stablehlo.select %20, %arg2, %2 : tensor<9xi1>, tensor<9xui32>
    %22 = stablehlo.select %20, %2, %arg3 : tensor<9xi1>, tensor<9xui32>
    return %21, %22 : tensor<9xui32>, tensor<9xui32>
  }
  func.func private @floor_divide(%arg0: tensor<9xui32>, %arg1: tensor<i32>) -> tensor<9xui32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<ui32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<ui32>) -> tensor<9xui32>
    %2 = stablehlo.divide %arg0, %1 : tensor<9xui32>
    return %2 : tensor<9xui32>
  }
  func.func private @clip(%arg0: tensor<9xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<9xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<9xi32>
    %3 = stablehlo.convert %arg2 : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<i32>) -> tensor<9xi32>
    %5 = stablehlo.minimum %4, %2 : tensor<9xi32>
    return %5 : tensor<9xi32>
  }
  func.func private @_where(%arg0: tensor<9xi1>, %arg1: tensor<i32>, %arg2: tensor<9xf32>) -> tensor<9xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<9xi1>, tensor<9xf32>
    return %2 : tensor<9xf32>
  }
  func.func private @_where_1(%arg0: tensor<9xi1>, %arg1: tensor<9xf32>, %arg2: tensor<9xf32>) -> tensor<9xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<9xi1>, tensor<9xf32>
    return %0 : tensor<9xf32>
  }
  func.func private @_where_2(%arg0: tensor<9xi1>, %arg1: tensor<f32>, %arg2: tensor<9xf32>) -> tensor<9xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %1 = stablehlo.select %arg0, %0, %arg2 : tensor<9xi1>, tensor<9xf32>
    return %1 : tensor<9xf32>
  }
}
