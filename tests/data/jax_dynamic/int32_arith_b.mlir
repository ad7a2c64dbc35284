module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?xi32>) -> (tensor<?xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?xi32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b,). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?xi32>) -> tensor<?xi32>
    return %2 : tensor<?xi32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?xi32>) -> (tensor<?xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<2> : tensor<i32>
    %c_1 = stablehlo.constant dense<7> : tensor<i32>
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %0 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %1 = stablehlo.dynamic_broadcast_in_dim %c_2, %0, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<?xi32>
    %3 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %4 = stablehlo.dynamic_broadcast_in_dim %c_1, %3, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %5 = stablehlo.add %2, %4 : tensor<?xi32>
    %6 = stablehlo.negate %arg1 : tensor<?xi32>
    %7 = stablehlo.maximum %5, %6 : tensor<?xi32>
    %8 = call @floor_divide(%arg0, %7, %c_0) : (tensor<i32>, tensor<?xi32>, tensor<i32>) -> tensor<?xi32>
    %9 = stablehlo.reduce(%arg1 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<?xi32>, tensor<i32>) -> tensor<i32>
    %10 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %11 = stablehlo.dynamic_broadcast_in_dim %9, %10, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %12 = stablehlo.add %8, %11 : tensor<?xi32>
    return %12 : tensor<?xi32>
  }
  func.func private @floor_divide(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?xi32>, %arg2: tensor<i32>) -> tensor<?xi32> {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.convert %arg2 : tensor<i32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.dynamic_broadcast_in_dim %0, %1, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %3 = stablehlo.divide %arg1, %2 : tensor<?xi32>
    %4 = stablehlo.sign %arg1 : tensor<?xi32>
    %5 = stablehlo.sign %0 : tensor<i32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.dynamic_broadcast_in_dim %5, %6, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %8 = stablehlo.compare NE, %4, %7, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %9 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %0, %9, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %11 = stablehlo.remainder %arg1, %10 : tensor<?xi32>
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.dynamic_broadcast_in_dim %c_0, %12, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %14 = stablehlo.compare NE, %11, %13, SIGNED : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi1>
    %15 = stablehlo.and %8, %14 : tensor<?xi1>
    %16 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %17 = stablehlo.dynamic_broadcast_in_dim %c, %16, dims = [] : (tensor<i32>, tensor<1xi32>) -> tensor<?xi32>
    %18 = stablehlo.subtract %3, %17 : tensor<?xi32>
    %19 = call @_where(%arg0, %15, %18, %3) : (tensor<i32>, tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    return %19 : tensor<?xi32>
  }
  func.func private @_where(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?xi1>, %arg2: tensor<?xi32>, %arg3: tensor<?xi32>) -> tensor<?xi32> {
    %0 = stablehlo.select %arg1, %arg2, %arg3 : tensor<?xi1>, tensor<?xi32>
    return %0 : tensor<?xi32>
  }
}
