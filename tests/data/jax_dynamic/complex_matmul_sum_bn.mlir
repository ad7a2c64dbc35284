module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x?xcomplex<f32>>, %arg1: tensor<?x4xcomplex<f32>>) -> (tensor<?xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<?x?xf32> {jax.result_info = "result[1]"}, tensor<?x?xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?xcomplex<f32>>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?xcomplex<f32>>) -> tensor<i32>
    %2 = stablehlo.get_dimension_size %arg1, dim = 0 : (tensor<?x4xcomplex<f32>>) -> tensor<i32>
    %3 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, n),args[1].shape = (n, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %4 = stablehlo.compare GE, %1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%4, %0, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'n'. Using the following polymorphic shapes specifications: args[0].shape = (b, n),args[1].shape = (n, 4). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %5 = stablehlo.compare EQ, %2, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%5, %2, %1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Found inconsistency between dimension size args[1].shape[0] (= {0}) and the specification 'n' (= {1}). Using the following polymorphic shapes specifications: args[0].shape = (b, n),args[1].shape = (n, 4). Obtained dimension variables: 'b' = {2} from specification 'b' for dimension args[0].shape[0] (= {2}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>, tensor<i32>) -> ()
    %6:3 = call @_wrapped_jax_export_main(%0, %1, %arg0, %arg1) : (tensor<i32>, tensor<i32>, tensor<?x?xcomplex<f32>>, tensor<?x4xcomplex<f32>>) -> (tensor<?xcomplex<f32>>, tensor<?x?xf32>, tensor<?x?xcomplex<f32>>)
    return %6#0, %6#1, %6#2 : tensor<?xcomplex<f32>>, tensor<?x?xf32>, tensor<?x?xcomplex<f32>>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "n"}, %arg2: tensor<?x?xcomplex<f32>>, %arg3: tensor<?x4xcomplex<f32>>) -> (tensor<?xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<?x?xf32> {jax.result_info = "result[1]"}, tensor<?x?xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %cst_2 = stablehlo.constant dense<(0.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %0 = stablehlo.real %arg2 : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %1 = stablehlo.exponential %0 : tensor<?x?xf32>
    %2 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
    %3 = stablehlo.reshape %2 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.get_dimension_size %0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %5 = stablehlo.reshape %4 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %3, %5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %cst_1, %6, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %8 = stablehlo.compare EQ, %1, %7 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
    %9 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
    %10 = stablehlo.reshape %9 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.get_dimension_size %0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %12 = stablehlo.reshape %11 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.concatenate %10, %12, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %14 = stablehlo.dynamic_broadcast_in_dim %cst_0, %13, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %15 = stablehlo.multiply %0, %14 : tensor<?x?xf32>
    %16 = stablehlo.exponential %15 : tensor<?x?xf32>
    %17 = stablehlo.imag %arg2 : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %18 = stablehlo.cosine %17 : tensor<?x?xf32>
    %19 = stablehlo.multiply %16, %18 : tensor<?x?xf32>
    %20 = stablehlo.multiply %19, %16 : tensor<?x?xf32>
    %21 = stablehlo.multiply %1, %18 : tensor<?x?xf32>
    %22 = stablehlo.select %8, %20, %21 : tensor<?x?xi1>, tensor<?x?xf32>
    %23 = stablehlo.get_dimension_size %0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
    %24 = stablehlo.reshape %23 : (tensor<i32>) -> tensor<1xi32>
    %25 = stablehlo.get_dimension_size %0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %26 = stablehlo.reshape %25 : (tensor<i32>) -> tensor<1xi32>
    %27 = stablehlo.concatenate %24, %26, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.dynamic_broadcast_in_dim %cst, %27, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x?xf32>
    %29 = stablehlo.compare EQ, %17, %28 : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xi1>
    %30 = stablehlo.sine %17 : tensor<?x?xf32>
    %31 = stablehlo.multiply %16, %30 : tensor<?x?xf32>
    %32 = stablehlo.multiply %31, %16 : tensor<?x?xf32>
    %33 = stablehlo.multiply %1, %30 : tensor<?x?xf32>
    %34 = stablehlo.select %8, %32, %33 : tensor<?x?xi1>, tensor<?x?xf32>
    %35 = stablehlo.select %29, %28, %34 : tensor<?x?xi1>, tensor<?x?xf32>
    %36 = stablehlo.complex %22, %35 : tensor<?x?xcomplex<f32>>
    %37 = stablehlo.dot_general %36, %arg3, contracting_dims = [1] x [0] : (tensor<?x?xcomplex<f32>>, tensor<?x4xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
    %38 = stablehlo.reduce(%37 init: %cst_2) applies stablehlo.add across dimensions = [1] : (tensor<?x4xcomplex<f32>>, tensor<complex<f32>>) -> tensor<?xcomplex<f32>>
    %39 = stablehlo.abs %arg2 : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %40 = stablehlo.transpose %39, dims = [1, 0] : (tensor<?x?xf32>) -> tensor<?x?xf32>
    %41 = stablehlo.real %arg2 : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %42 = stablehlo.imag %arg2 : (tensor<?x?xcomplex<f32>>) -> tensor<?x?xf32>
    %43 = stablehlo.negate %42 : tensor<?x?xf32>
    %44 = stablehlo.complex %41, %43 : tensor<?x?xcomplex<f32>>
    %45 = stablehlo.multiply %arg2, %44 : tensor<?x?xcomplex<f32>>
    return %38, %40, %45 : tensor<?xcomplex<f32>>, tensor<?x?xf32>, tensor<?x?xcomplex<f32>>
  }
}
