module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8xf32>, %arg1: tensor<?x3xi32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x3xi32>) -> tensor<i32>
    %2 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 8),args[1].shape = (b, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = stablehlo.compare EQ, %1, %0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'b' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, 8),args[1].shape = (b, 3). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[0].shape[0] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %4 = call @_wrapped_jax_export_main(%0, %arg0, %arg1) : (tensor<i32>, tensor<?x8xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
    return %4 : tensor<?x3xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>, %arg2: tensor<?x3xi32>) -> (tensor<?x3xf32> {jax.result_info = "result"}) {
    %0 = call @take_along_axis(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<?x8xf32>, tensor<?x3xi32>) -> tensor<?x3xf32>
    return %0 : tensor<?x3xf32>
  }
  func.func private @take_along_axis(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>, %arg2: tensor<?x3xi32>) -> tensor<?x3xf32> {
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %c_1 = stablehlo.constant dense<false> : tensor<1xi1>
    %c_2 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<8> : tensor<i32>
    %c_4 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %c_5, %1, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %3 = stablehlo.compare LT, %arg2, %2, SIGNED : (tensor<?x3xi32>, tensor<?x3xi32>) -> tensor<?x3xi1>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %c_3, %5, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x3xi32>
    %7 = stablehlo.add %arg2, %6 : tensor<?x3xi32>
    %8 = stablehlo.select %3, %7, %arg2 : tensor<?x3xi1>, tensor<?x3xi32>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.concatenate %9, %c_4, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %11 = stablehlo.dynamic_reshape %8, %10 : (tensor<?x3xi32>, tensor<3xi32>) -> tensor<?x3x1xi32>
    %12 = stablehlo.convert %arg0 : tensor<i32>
    %13 = stablehlo.broadcast_in_dim %12, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.add %c_2, %16 : tensor<1xi32>
    %18 = stablehlo.select %c_1, %17, %c_2 : tensor<1xi1>, tensor<1xi32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0] : (tensor<1xi32>) -> tensor<1x1xi32>
    %20 = "stablehlo.gather"(%15, %19) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1>}> : (tensor<2xi32>, tensor<1x1xi32>) -> tensor<1xi32>
    %21 = stablehlo.subtract %20, %c_2 : tensor<1xi32>
    %22 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %23 = stablehlo.concatenate %22, %c_4, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %24 = stablehlo.dynamic_broadcast_in_dim %c_5, %23, dims = [] : (tensor<i32>, tensor<3xi32>) -> tensor<?x3x1xi32>
    %25 = stablehlo.compare GE, %11, %24, SIGNED : (tensor<?x3x1xi32>, tensor<?x3x1xi32>) -> tensor<?x3x1xi1>
    %26 = stablehlo.broadcast_in_dim %21, dims = [2] : (tensor<1xi32>) -> tensor<1x1x1xi32>
    %27 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %28 = stablehlo.concatenate %27, %c_4, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.dynamic_broadcast_in_dim %26, %28, dims = [0, 1, 2] : (tensor<1x1x1xi32>, tensor<3xi32>) -> tensor<?x3x1xi32>
    %30 = stablehlo.compare LE, %11, %29, SIGNED : (tensor<?x3x1xi32>, tensor<?x3x1xi32>) -> tensor<?x3x1xi1>
    %31 = stablehlo.and %25, %30 : tensor<?x3x1xi1>
    %32 = stablehlo.reduce(%31 init: %c) applies stablehlo.and across dimensions = [2] : (tensor<?x3x1xi1>, tensor<i1>) -> tensor<?x3xi1>
    %33 = "stablehlo.gather"(%arg1, %11) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>, slice_sizes = array<i64: 1, 1>}> : (tensor<?x8xf32>, tensor<?x3x1xi32>) -> tensor<?x3xf32>
    %34 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %35 = stablehlo.concatenate %34, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %36 = stablehlo.dynamic_broadcast_in_dim %cst, %35, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x3xf32>
    %37 = stablehlo.select %32, %33, %36 : tensor<?x3xi1>, tensor<?x3xf32>
    return %37 : tensor<?x3xf32>
  }
}
