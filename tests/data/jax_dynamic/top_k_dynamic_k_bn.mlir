module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x?xf32>) -> (tensor<?x?xf32> {jax.result_info = "result[0]"}, tensor<?x?xi32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x?xf32>) -> tensor<i32>
    %1 = stablehlo.get_dimension_size %arg0, dim = 1 : (tensor<?x?xf32>) -> tensor<i32>
    %2 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%2, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, n). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %3 = stablehlo.compare GE, %1, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%3, %0, %1) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'n'. Using the following polymorphic shapes specifications: args[0].shape = (b, n). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), 'n' = {1} from specification 'n' for dimension args[0].shape[1] (= {1}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>, tensor<i32>) -> ()
    %4:2 = call @_wrapped_jax_export_main(%0, %1, %arg0) : (tensor<i32>, tensor<i32>, tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
    return %4#0, %4#1 : tensor<?x?xf32>, tensor<?x?xi32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<i32> {jax.global_constant = "n"}, %arg2: tensor<?x?xf32>) -> (tensor<?x?xf32> {jax.result_info = "result[0]"}, tensor<?x?xi32> {jax.result_info = "result[1]"}) {
    %0:2 = stablehlo.custom_call @stablehlo.dynamic_top_k(%arg2, %arg1) {api_version = 2 : i32} : (tensor<?x?xf32>, tensor<i32>) -> (tensor<?x?xf32>, tensor<?x?xi32>)
    return %0#0, %0#1 : tensor<?x?xf32>, tensor<?x?xi32>
  }
}
