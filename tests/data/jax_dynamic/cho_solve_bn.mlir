module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x?x?xf32>, %arg1: tensor<?x?x3xf32>) -> (tensor<?x?x3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?x?xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?x?xf32>) -> tensor<i32>
    %2 = stablehlo.get_dimension_size %arg0, dim = 2 : (tensor<?x?x?xf32>) -> tensor<i32>
    %3 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x?x3xf32>) -> tensor<i32>
    %4 = stablehlo.get_dimension_size %arg1, dim = 1 : (tensor<?x?x3xf32>) -> tensor<i32>
    %5 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%5, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, n, n),args[1].shape = (b, n, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %6 = stablehlo.compare GE, %1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%6, %0, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'n'. Using the following polymorphic shapes specifications: args[0].shape = (b, n, n),args[1].shape = (b, n, 3). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %7 = stablehlo.compare EQ, %2, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%7, %2, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[0].shape[2] (= {0}) and the specification 'n' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, n, n),args[1].shape = (b, n, 3). Obtained dimension variables: 'b' = {2} from specification 'b' for dimension args[0].shape[0] (= {2}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %8 = stablehlo.compare EQ, %3, %0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%8, %3, %0, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'b' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, n, n),args[1].shape = (b, n, 3). Obtained dimension variables: 'b' = {1} from specification 'b' for dimension args[0].shape[0] (= {1}), 'n' = {2} from specification 'n' for dimension args[0].shape[1] (= {2}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %9 = stablehlo.compare EQ, %4, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%9, %4, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[1] (= {0}) and the specification 'n' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, n, n),args[1].shape = (b, n, 3). Obtained dimension variables: 'b' = {2} from specification 'b' for dimension args[0].shape[0] (= {2}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %10 = call @_wrapped_jax_export_main(%0, %1, %arg0, %arg1) : (tensor<i32>, tensor<i32>, tensor<?x?x?xf32>, tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    return %10 : tensor<?x?x3xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "n"}, %arg2: tensor<?x?x?xf32>, %arg3: tensor<?x?x3xf32>) -> (tensor<?x?x3xf32> {jax.result_info = "result"}) {
    %0 = call @cholesky(%arg0, %arg1, %arg2) : (tensor<i32>, tensor<i32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %1 = call @_cho_solve(%arg0, %arg1, %0, %arg3) : (tensor<i32>, tensor<i32>, tensor<?x?x?xf32>, tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    return %1 : tensor<?x?x3xf32>
  }
  func.func private @cholesky(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "n"}, %arg2: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.transpose %arg2, dims = [0, 2, 1] : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
    %1 = stablehlo.add %arg2, %0 : tensor<?x?x?xf32>
    %2 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %3 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %2, %3, %4, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_0, %5, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x?xf32>
    %7 = stablehlo.divide %1, %6 : tensor<?x?x?xf32>
    %8 = stablehlo.cholesky %7, lower = true : tensor<?x?x?xf32>
    %9 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %9, %10, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = stablehlo.dynamic_iota %11, dim = 0 : (tensor<2xi32>) -> tensor<?x?xi32>
    %13 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %14 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %13, %14, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %c, %15, dims = [] : (tensor<i32>, tensor<2xi32>) -> tensor<?x?xi32>
    %17 = stablehlo.add %12, %16 : tensor<?x?xi32>
    %18 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %19 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %18, %19, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.dynamic_iota %20, dim = 1 : (tensor<2xi32>) -> tensor<?x?xi32>
    %22 = stablehlo.compare GE, %17, %21, SIGNED : (tensor<?x?xi32>, tensor<?x?xi32>) -> tensor<?x?xi1>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.concatenate %23, %24, %25, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %27 = stablehlo.dynamic_broadcast_in_dim %22, %26, dims = [1, 2] : (tensor<?x?xi1>, tensor<3xi32>) -> tensor<?x?x?xi1>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %30 = stablehlo.reshape %arg1 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %28, %29, %30, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %cst, %31, dims = [] : (tensor<f32>, tensor<3xi32>) -> tensor<?x?x?xf32>
    %33 = stablehlo.select %27, %8, %32 : tensor<?x?x?xi1>, tensor<?x?x?xf32>
    return %33 : tensor<?x?x?xf32>
  }
  func.func private @_cho_solve(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "n"}, %arg2: tensor<?x?x?xf32>, %arg3: tensor<?x?x3xf32>) -> tensor<?x?x3xf32> {
    %0 = "stablehlo.triangular_solve"(%arg2, %arg3) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<?x?x?xf32>, tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    %1 = "stablehlo.triangular_solve"(%arg2, %0) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<?x?x?xf32>, tensor<?x?x3xf32>) -> tensor<?x?x3xf32>
    return %1 : tensor<?x?x3xf32>
  }
}
