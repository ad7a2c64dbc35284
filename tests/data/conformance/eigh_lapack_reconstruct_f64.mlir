module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x4xf64>) -> (tensor<4xf64> {jax.result_info = "result[0]"}, tensor<4x4xf64> {jax.result_info = "result[1]"}) {
    %0:2 = call @eigh(%arg0) : (tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4x4xf64>)
    %1 = stablehlo.broadcast_in_dim %0#0, dims = [1] : (tensor<4xf64>) -> tensor<1x4xf64>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x4xf64>) -> tensor<4x4xf64>
    %3 = stablehlo.multiply %0#1, %2 : tensor<4x4xf64>
    %4 = stablehlo.transpose %0#1, dims = [1, 0] : (tensor<4x4xf64>) -> tensor<4x4xf64>
    %5 = stablehlo.dot_general %3, %4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x4xf64>, tensor<4x4xf64>) -> tensor<4x4xf64>
    return %0#0, %5 : tensor<4xf64>, tensor<4x4xf64>
  }
  func.func private @eigh(%arg0: tensor<4x4xf64>) -> (tensor<4xf64>, tensor<4x4xf64>) {
    %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf64>) -> tensor<4x4xf64>
    %1 = stablehlo.add %arg0, %0 : tensor<4x4xf64>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<4x4xf64>
    %3 = stablehlo.divide %1, %2 : tensor<4x4xf64>
    %4:3 = stablehlo.custom_call @lapack_dsyevd_ffi(%3) {backend_config = "", mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], []) {i=4, j=4, k=4, l=4, m=4}, custom>} : (tensor<4x4xf64>) -> (tensor<4x4xf64>, tensor<4xf64>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %6 = stablehlo.compare EQ, %4#2, %5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %7 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<4x4xf64>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %10 = stablehlo.select %9, %4#0, %8 : tensor<4x4xi1>, tensor<4x4xf64>
    %11 = stablehlo.broadcast_in_dim %6, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst_1 = stablehlo.constant dense<0x7FF8000000000000> : tensor<f64>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<4xf64>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
    %14 = stablehlo.select %13, %4#1, %12 : tensor<4xi1>, tensor<4xf64>
    return %14, %10 : tensor<4xf64>, tensor<4x4xf64>
  }
}
