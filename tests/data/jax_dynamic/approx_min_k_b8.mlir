module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8xf32>) -> (tensor<?x2xf32> {jax.result_info = "result[0]"}, tensor<?x2xi32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 8). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2:2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x8xf32>) -> (tensor<?x2xf32>, tensor<?x2xi32>)
    return %2#0, %2#1 : tensor<?x2xf32>, tensor<?x2xi32>
  }
  func.func @top_k_lt_f32_comparator(%arg0: tensor<f32>, %arg1: tensor<f32>, %arg2: tensor<i32>, %arg3: tensor<i32>) -> tensor<i1> {
    %0 = stablehlo.compare LT, %arg0, %arg1 : (tensor<f32>, tensor<f32>) -> tensor<i1>
    return %0 : tensor<i1>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>) -> (tensor<?x2xf32> {jax.result_info = "result[0]"}, tensor<?x2xi32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<2> : tensor<1xi32>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %c_0 = stablehlo.constant dense<-1> : tensor<i32>
    %c_1 = stablehlo.constant dense<8> : tensor<1xi32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.concatenate %0, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %2 = stablehlo.dynamic_iota %1, dim = 1 : (tensor<2xi32>) -> tensor<?x8xi32>
    %3 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.concatenate %3, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %5 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %6 = stablehlo.concatenate %5, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %7:2 = stablehlo.custom_call @ApproxTopK(%arg1, %2, %cst, %c_0, %4, %6) {called_computations = [@top_k_lt_f32_comparator], indices_of_shape_operands = dense<[4, 5]> : tensor<2xi64>, mhlo.backend_config = {aggregate_to_topk = true, is_fallback = true, recall_target = 0.949999988 : f32, reduction_dim = 1 : i64, reduction_input_size_override = -1 : i64, top_k = 2 : i64}} : (tensor<?x8xf32>, tensor<?x8xi32>, tensor<f32>, tensor<i32>, tensor<2xi32>, tensor<2xi32>) -> (tensor<?x2xf32>, tensor<?x2xi32>)
    return %7#0, %7#1 : tensor<?x2xf32>, tensor<?x2xi32>
  }
}
