module @jit_pinv attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>) -> (tensor<5x3xf32> {jax.result_info = "result"}) {
    %0 = call @_pinv(%arg0) : (tensor<3x5xf32>) -> tensor<5x3xf32>
    return %0 : tensor<5x3xf32>
  }
  func.func private @_pinv(%arg0: tensor<3x5xf32>) -> tensor<5x3xf32> {
    %cst = stablehlo.constant dense<5.000000e+01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
    %0 = stablehlo.multiply %cst, %cst_0 : tensor<f32>
    %1:3 = call @svd(%arg0) : (tensor<3x5xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>)
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<1xf32>
    %3 = stablehlo.slice %1#1 [0:1] : (tensor<3xf32>) -> tensor<1xf32>
    %4 = stablehlo.multiply %2, %3 : tensor<1xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<1xf32>) -> tensor<3xf32>
    %6 = stablehlo.compare GT, %1#1, %5, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
    %cst_1 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %7 = call @_where(%6, %1#1, %cst_1) : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
    %8 = stablehlo.transpose %1#2, dims = [1, 0] : (tensor<3x5xf32>) -> tensor<5x3xf32>
    %9 = stablehlo.transpose %1#0, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %10 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<3xf32>) -> tensor<3x1xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0, 1] : (tensor<3x1xf32>) -> tensor<3x3xf32>
    %12 = stablehlo.divide %9, %11 : tensor<3x3xf32>
    %13 = stablehlo.dot_general %8, %12, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<5x3xf32>, tensor<3x3xf32>) -> tensor<5x3xf32>
    return %13 : tensor<5x3xf32>
  }
  func.func private @svd(%arg0: tensor<3x5xf32>) -> (tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>) {
    %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], [n, o], [p, q], []) {i=3, j=5, k=3, l=5, m=3, n=3, o=3, p=3, q=5}, custom>} : (tensor<3x5xf32>) -> (tensor<3x5xf32>, tensor<3xf32>, tensor<3x3xf32>, tensor<3x5xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xi1>) -> tensor<3xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<3xi1>, tensor<3xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x3xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<3x3xi1>
    %10 = stablehlo.select %9, %0#2, %8 : tensor<3x3xi1>, tensor<3x3xf32>
    %11 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<3x5xi1>
    %14 = stablehlo.select %13, %0#3, %12 : tensor<3x5xi1>, tensor<3x5xf32>
    return %10, %6, %14 : tensor<3x3xf32>, tensor<3xf32>, tensor<3x5xf32>
  }
  func.func private @_where(%arg0: tensor<3xi1>, %arg1: tensor<3xf32>, %arg2: tensor<f32>) -> tensor<3xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<3xi1>, tensor<3xf32>
    return %2 : tensor<3xf32>
  }
}
