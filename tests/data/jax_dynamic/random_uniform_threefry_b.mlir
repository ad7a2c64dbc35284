module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2xui32>, %arg1: tensor<?x3xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (b, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1) : (tensor<i32>, tensor<2xui32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    return %2 : tensor<?x3xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<2xui32>, %arg2: tensor<?x3xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %arg1, %cst, %cst_0) : (tensor<i32>, tensor<2xui32>, tensor<f32>, tensor<f32>) -> tensor<?x3xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<?x3xf32>
    return %1 : tensor<?x3xf32>
  }
  func.func private @_uniform(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<2xui32>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<?x3xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<1065353216> : tensor<ui32>
    %c_0 = stablehlo.constant dense<9> : tensor<ui32>
    %c_1 = stablehlo.constant dense<32> : tensor<ui64>
    %c_2 = stablehlo.constant dense<1> : tensor<ui64>
    %c_3 = stablehlo.constant dense<3> : tensor<ui64>
    %c_4 = stablehlo.constant dense<3> : tensor<1xi32>
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.convert %arg3 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %4 = stablehlo.slice %arg1 [0:1] : (tensor<2xui32>) -> tensor<1xui32>
    %5 = stablehlo.reshape %4 : (tensor<1xui32>) -> tensor<ui32>
    %6 = stablehlo.slice %arg1 [1:2] : (tensor<2xui32>) -> tensor<1xui32>
    %7 = stablehlo.reshape %6 : (tensor<1xui32>) -> tensor<ui32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.dynamic_iota %9, dim = 0 : (tensor<2xi32>) -> tensor<?x3xui64>
    %11 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %12 = stablehlo.concatenate %11, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %13 = stablehlo.dynamic_iota %12, dim = 1 : (tensor<2xi32>) -> tensor<?x3xui64>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %c_3, %15, dims = [] : (tensor<ui64>, tensor<2xi32>) -> tensor<?x3xui64>
    %17 = stablehlo.multiply %16, %10 : tensor<?x3xui64>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %c_2, %19, dims = [] : (tensor<ui64>, tensor<2xi32>) -> tensor<?x3xui64>
    %21 = stablehlo.multiply %20, %13 : tensor<?x3xui64>
    %22 = stablehlo.add %17, %21 : tensor<?x3xui64>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %c_1, %24, dims = [] : (tensor<ui64>, tensor<2xi32>) -> tensor<?x3xui64>
    %26 = stablehlo.shift_right_logical %22, %25 : tensor<?x3xui64>
    %27 = stablehlo.convert %22 : (tensor<?x3xui64>) -> tensor<?x3xui32>
    %28 = stablehlo.convert %26 : (tensor<?x3xui64>) -> tensor<?x3xui32>
    %29:2 = call @threefry2x32(%arg0, %5, %7, %28, %27) : (tensor<i32>, tensor<ui32>, tensor<ui32>, tensor<?x3xui32>, tensor<?x3xui32>) -> (tensor<?x3xui32>, tensor<?x3xui32>)
    %30 = stablehlo.xor %29#0, %29#1 : tensor<?x3xui32>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %c_0, %32, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %34 = stablehlo.shift_right_logical %30, %33 : tensor<?x3xui32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %35, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %c, %36, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %38 = stablehlo.or %34, %37 : tensor<?x3xui32>
    %39 = stablehlo.bitcast_convert %38 : (tensor<?x3xui32>) -> tensor<?x3xf32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.concatenate %40, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %42 = stablehlo.dynamic_broadcast_in_dim %cst, %41, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %43 = stablehlo.subtract %39, %42 : tensor<?x3xf32>
    %44 = stablehlo.subtract %3, %2 : tensor<1x1xf32>
    %45 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %46 = stablehlo.concatenate %45, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %47 = stablehlo.dynamic_broadcast_in_dim %44, %46, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %48 = stablehlo.multiply %43, %47 : tensor<?x3xf32>
    %49 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %50 = stablehlo.concatenate %49, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %51 = stablehlo.dynamic_broadcast_in_dim %2, %50, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %52 = stablehlo.add %48, %51 : tensor<?x3xf32>
    %53 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %54 = stablehlo.concatenate %53, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %55 = stablehlo.dynamic_broadcast_in_dim %2, %54, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %56 = stablehlo.maximum %55, %52 : tensor<?x3xf32>
    return %56 : tensor<?x3xf32>
  }
  func.func private @threefry2x32(%arg0: tensor<i32>, %arg1: tensor<ui32>, %arg2: tensor<ui32>, %arg3: tensor<?x3xui32>, %arg4: tensor<?x3xui32>) -> (tensor<?x3xui32>, tensor<?x3xui32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<5> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %c_2 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<466688986> : tensor<ui32>
    %c_4 = stablehlo.constant dense<[13, 15, 26, 6]> : tensor<4xui32>
    %c_5 = stablehlo.constant dense<[17, 29, 16, 24]> : tensor<4xui32>
    %0 = stablehlo.xor %arg1, %arg2 : tensor<ui32>
    %1 = stablehlo.xor %0, %c_3 : tensor<ui32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.concatenate %2, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %arg1, %3, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %5 = stablehlo.add %arg3, %4 : tensor<?x3xui32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.dynamic_broadcast_in_dim %arg2, %7, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %9 = stablehlo.add %arg4, %8 : tensor<?x3xui32>
    %10:9 = stablehlo.while(%iterArg = %c_1, %iterArg_6 = %c_1, %iterArg_7 = %5, %iterArg_8 = %9, %iterArg_9 = %arg2, %iterArg_10 = %1, %iterArg_11 = %arg1, %iterArg_12 = %c_4, %iterArg_13 = %c_5) : tensor<i32>, tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    cond {
      %11 = stablehlo.compare LT, %iterArg, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %11 : tensor<i1>
    } do {
      %11:8 = func.call @closed_call(%arg0, %iterArg_6, %iterArg_7, %iterArg_8, %iterArg_9, %iterArg_10, %iterArg_11, %iterArg_12, %iterArg_13) : (tensor<i32>, tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) -> (tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>)
      %12 = stablehlo.add %iterArg, %c : tensor<i32>
      stablehlo.return %12, %11#0, %11#1, %11#2, %11#3, %11#4, %11#5, %11#6, %11#7 : tensor<i32>, tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
    }
    return %10#2, %10#3 : tensor<?x3xui32>, tensor<?x3xui32>
  }
  func.func private @closed_call(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32>, %arg2: tensor<?x3xui32>, %arg3: tensor<?x3xui32>, %arg4: tensor<ui32>, %arg5: tensor<ui32>, %arg6: tensor<ui32>, %arg7: tensor<4xui32>, %arg8: tensor<4xui32>) -> (tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>) {
    %c = stablehlo.constant dense<32> : tensor<ui32>
    %c_0 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c_1 : tensor<i32>
    %1 = stablehlo.slice %arg7 [0:1] : (tensor<4xui32>) -> tensor<1xui32>
    %2 = stablehlo.reshape %1 : (tensor<1xui32>) -> tensor<ui32>
    %3 = stablehlo.add %arg2, %arg3 : tensor<?x3xui32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %2, %5, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %7 = stablehlo.shift_left %arg3, %6 : tensor<?x3xui32>
    %8 = stablehlo.subtract %c, %2 : tensor<ui32>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %8, %10, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %12 = stablehlo.shift_right_logical %arg3, %11 : tensor<?x3xui32>
    %13 = stablehlo.or %7, %12 : tensor<?x3xui32>
    %14 = stablehlo.xor %3, %13 : tensor<?x3xui32>
    %15 = stablehlo.slice %arg7 [1:2] : (tensor<4xui32>) -> tensor<1xui32>
    %16 = stablehlo.reshape %15 : (tensor<1xui32>) -> tensor<ui32>
    %17 = stablehlo.add %3, %14 : tensor<?x3xui32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %16, %19, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %21 = stablehlo.shift_left %14, %20 : tensor<?x3xui32>
    %22 = stablehlo.subtract %c, %16 : tensor<ui32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %22, %24, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %26 = stablehlo.shift_right_logical %14, %25 : tensor<?x3xui32>
    %27 = stablehlo.or %21, %26 : tensor<?x3xui32>
    %28 = stablehlo.xor %17, %27 : tensor<?x3xui32>
    %29 = stablehlo.slice %arg7 [2:3] : (tensor<4xui32>) -> tensor<1xui32>
    %30 = stablehlo.reshape %29 : (tensor<1xui32>) -> tensor<ui32>
    %31 = stablehlo.add %17, %28 : tensor<?x3xui32>
    %32 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %33 = stablehlo.concatenate %32, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %34 = stablehlo.dynamic_broadcast_in_dim %30, %33, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %35 = stablehlo.shift_left %28, %34 : tensor<?x3xui32>
    %36 = stablehlo.subtract %c, %30 : tensor<ui32>
    %37 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %38 = stablehlo.concatenate %37, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %39 = stablehlo.dynamic_broadcast_in_dim %36, %38, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %40 = stablehlo.shift_right_logical %28, %39 : tensor<?x3xui32>
    %41 = stablehlo.or %35, %40 : tensor<?x3xui32>
    %42 = stablehlo.xor %31, %41 : tensor<?x3xui32>
    %43 = stablehlo.slice %arg7 [3:4] : (tensor<4xui32>) -> tensor<1xui32>
    %44 = stablehlo.reshape %43 : (tensor<1xui32>) -> tensor<ui32>
    %45 = stablehlo.add %31, %42 : tensor<?x3xui32>
    %46 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %47 = stablehlo.concatenate %46, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %48 = stablehlo.dynamic_broadcast_in_dim %44, %47, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %49 = stablehlo.shift_left %42, %48 : tensor<?x3xui32>
    %50 = stablehlo.subtract %c, %44 : tensor<ui32>
    %51 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %52 = stablehlo.concatenate %51, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %53 = stablehlo.dynamic_broadcast_in_dim %50, %52, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %54 = stablehlo.shift_right_logical %42, %53 : tensor<?x3xui32>
    %55 = stablehlo.or %49, %54 : tensor<?x3xui32>
    %56 = stablehlo.xor %45, %55 : tensor<?x3xui32>
    %57 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %58 = stablehlo.concatenate %57, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %59 = stablehlo.dynamic_broadcast_in_dim %arg4, %58, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %60 = stablehlo.add %45, %59 : tensor<?x3xui32>
    %61 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %62 = stablehlo.concatenate %61, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %63 = stablehlo.dynamic_broadcast_in_dim %arg5, %62, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %64 = stablehlo.add %56, %63 : tensor<?x3xui32>
    %65 = stablehlo.add %arg1, %c_1 : tensor<i32>
    %66 = stablehlo.convert %65 : (tensor<i32>) -> tensor<ui32>
    %67 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %68 = stablehlo.concatenate %67, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %69 = stablehlo.dynamic_broadcast_in_dim %66, %68, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %70 = stablehlo.add %64, %69 : tensor<?x3xui32>
    return %0, %60, %70, %arg5, %arg6, %arg4, %arg8, %arg7 : tensor<i32>, tensor<?x3xui32>, tensor<?x3xui32>, tensor<ui32>, tensor<ui32>, tensor<ui32>, tensor<4xui32>, tensor<4xui32>
  }
}
