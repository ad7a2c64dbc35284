module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xui32>, %arg1: tensor<?x3xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x3xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[1].shape = (b, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[1].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0, %arg1) : (tensor<i32>, tensor<4xui32>, tensor<?x3xf32>) -> tensor<?x3xf32>
    return %2 : tensor<?x3xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<4xui32>, %arg2: tensor<?x3xf32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = call @_uniform(%arg0, %arg1, %cst, %cst_0) : (tensor<i32>, tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<?x3xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<?x3xf32>
    return %1 : tensor<?x3xf32>
  }
  func.func private @_uniform(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<4xui32>, %arg2: tensor<f32>, %arg3: tensor<f32>) -> tensor<?x3xf32> {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<1065353216> : tensor<ui32>
    %c_0 = stablehlo.constant dense<9> : tensor<ui32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.convert %arg3 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %3 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<1x1xf32>
    %4 = stablehlo.reshape %arg1 : (tensor<4xui32>) -> tensor<2x2xui32>
    %5 = stablehlo.bitcast_convert %4 : (tensor<2x2xui32>) -> tensor<2xui64>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8:2 = stablehlo.custom_call @stablehlo.dynamic_rng_bit_generator(%5, %7) {api_version = 2 : i32, rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>, tensor<2xi32>) -> (tensor<2xui64>, tensor<?x3xui32>)
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %c_0, %10, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %12 = stablehlo.shift_right_logical %8#1, %11 : tensor<?x3xui32>
    %13 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.concatenate %13, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.dynamic_broadcast_in_dim %c, %14, dims = [] : (tensor<ui32>, tensor<2xi32>) -> tensor<?x3xui32>
    %16 = stablehlo.or %12, %15 : tensor<?x3xui32>
    %17 = stablehlo.bitcast_convert %16 : (tensor<?x3xui32>) -> tensor<?x3xf32>
    %18 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.concatenate %18, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.dynamic_broadcast_in_dim %cst, %19, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %21 = stablehlo.subtract %17, %20 : tensor<?x3xf32>
    %22 = stablehlo.subtract %3, %2 : tensor<1x1xf32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.dynamic_broadcast_in_dim %22, %24, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %26 = stablehlo.multiply %21, %25 : tensor<?x3xf32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %2, %28, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %30 = stablehlo.add %26, %29 : tensor<?x3xf32>
    %31 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %32 = stablehlo.concatenate %31, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %33 = stablehlo.dynamic_broadcast_in_dim %2, %32, dims = [0, 1] : (tensor<1x1xf32>, tensor<2xi32>) -> tensor<?x3xf32>
    %34 = stablehlo.maximum %33, %30 : tensor<?x3xf32>
    return %34 : tensor<?x3xf32>
  }
}
