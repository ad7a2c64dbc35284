module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x3xf64>) -> (tensor<2x5x5xf64> {jax.result_info = "result.Q"}, tensor<2x5x3xf64> {jax.result_info = "result.R"}) {
    %0:2 = call @qr(%arg0) : (tensor<2x5x3xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x3xf64>)
    return %0#0, %0#1 : tensor<2x5x5xf64>, tensor<2x5x3xf64>
  }
  func.func private @qr(%arg0: tensor<2x5x3xf64>) -> (tensor<2x5x5xf64>, tensor<2x5x3xf64>) {
    %0:2 = stablehlo.custom_call @lapack_dgeqrf_ffi(%arg0) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k])->([i, l, m], [i, n]) {i=2, j=5, k=3, l=5, m=3, n=3}, custom>} : (tensor<2x5x3xf64>) -> (tensor<2x5x3xf64>, tensor<2x3xf64>)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %1 = stablehlo.pad %0#0, %cst, low = [0, 0, 0], high = [0, 0, 2], interior = [0, 0, 0] : (tensor<2x5x3xf64>, tensor<f64>) -> tensor<2x5x5xf64>
    %2 = stablehlo.custom_call @lapack_dorgqr_ffi(%1, %0#1) {backend_config = "", mhlo.backend_config = {}, mhlo.frontend_attributes = {num_batch_dims = "1"}, operand_layouts = [dense<[1, 2, 0]> : tensor<3xindex>, dense<[1, 0]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[1, 2, 0]> : tensor<3xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j, k], [i, l])->([i, m, n]) {i=2, j=5, k=5, l=3, m=5, n=5}, custom>} : (tensor<2x5x5xf64>, tensor<2x3xf64>) -> tensor<2x5x5xf64>
    %3 = stablehlo.iota dim = 0 : tensor<5x3xi64>
    %c = stablehlo.constant dense<-1> : tensor<i64>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i64>) -> tensor<5x3xi64>
    %5 = stablehlo.add %3, %4 : tensor<5x3xi64>
    %6 = stablehlo.iota dim = 1 : tensor<5x3xi64>
    %7 = stablehlo.compare GE, %5, %6, SIGNED : (tensor<5x3xi64>, tensor<5x3xi64>) -> tensor<5x3xi1>
    %8 = stablehlo.broadcast_in_dim %7, dims = [1, 2] : (tensor<5x3xi1>) -> tensor<2x5x3xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2x5x3xf64>
    %10 = stablehlo.select %8, %9, %0#0 : tensor<2x5x3xi1>, tensor<2x5x3xf64>
    return %2, %10 : tensor<2x5x5xf64>, tensor<2x5x3xf64>
  }
}
