module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x3xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = call @svd(%arg0) : (tensor<2x5x3xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
  func.func private @svd(%arg0: tensor<2x5x3xf32>) -> tensor<2x3xf32> {
    %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 78 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 2, 0]> : tensor<3xindex>, dense<0> : tensor<1xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n], [i, o, p], [i, q, r], [i]) {i=2, j=5, k=3, l=5, m=3, n=3, o=5, p=5, q=3, r=3}, custom>} : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>, tensor<2x5x5xf32>, tensor<2x3x3xf32>, tensor<2xi32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [0] : (tensor<2xi1>) -> tensor<2x1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<2x1xi1>) -> tensor<2x3xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<2x3xi1>, tensor<2x3xf32>
    return %6 : tensor<2x3xf32>
  }
}
