module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32>, %arg1: tensor<6x2xf32>) -> (tensor<4x2xf32> {jax.result_info = "result"}) {
    %0:4 = call @_lstsq(%arg0, %arg1) : (tensor<6x4xf32>, tensor<6x2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>, tensor<i32>, tensor<4xf32>)
    return %0#0 : tensor<4x2xf32>
  }
  func.func private @_lstsq(%arg0: tensor<6x4xf32>, %arg1: tensor<6x2xf32>) -> (tensor<4x2xf32>, tensor<2xf32>, tensor<i32>, tensor<4xf32>) {
    %0:3 = call @svd(%arg0) : (tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>, tensor<4x4xf32>)
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.compare GT, %0#1, %1, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %3 = stablehlo.slice %0#1 [0:1] : (tensor<4xf32>) -> tensor<1xf32>
    %4 = stablehlo.reshape %3 : (tensor<1xf32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<7.15255737E-7> : tensor<f32>
    %5 = stablehlo.multiply %cst_0, %4 : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %7 = stablehlo.compare GE, %0#1, %6, FLOAT : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    %8 = stablehlo.and %2, %7 : tensor<4xi1>
    %9 = stablehlo.convert %8 : (tensor<4xi1>) -> tensor<4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %10 = stablehlo.reduce(%9 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %c_1 = stablehlo.constant dense<1> : tensor<i32>
    %11 = call @_where(%8, %0#1, %c_1) : (tensor<4xi1>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %13 = stablehlo.divide %12, %11 : tensor<4xf32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %14 = call @_where(%8, %13, %c_3) : (tensor<4xi1>, tensor<4xf32>, tensor<i32>) -> tensor<4xf32>
    %15 = stablehlo.broadcast_in_dim %14, dims = [0] : (tensor<4xf32>) -> tensor<4x1xf32>
    %16 = stablehlo.transpose %0#0, dims = [1, 0] : (tensor<6x4xf32>) -> tensor<4x6xf32>
    %17 = stablehlo.dot_general %16, %arg1, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x6xf32>, tensor<6x2xf32>) -> tensor<4x2xf32>
    %18 = stablehlo.transpose %0#2, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
    %19 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x2xf32>
    %20 = stablehlo.multiply %19, %17 : tensor<4x2xf32>
    %21 = stablehlo.dot_general %18, %20, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<4x4xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
    %22 = stablehlo.dot_general %arg0, %21, contracting_dims = [1] x [0], precision = [HIGHEST, HIGHEST] : (tensor<6x4xf32>, tensor<4x2xf32>) -> tensor<6x2xf32>
    %23 = stablehlo.subtract %arg1, %22 : tensor<6x2xf32>
    %24 = call @norm(%23) : (tensor<6x2xf32>) -> tensor<2xf32>
    %25 = stablehlo.multiply %24, %24 : tensor<2xf32>
    return %21, %25, %10, %0#1 : tensor<4x2xf32>, tensor<2xf32>, tensor<i32>, tensor<4xf32>
  }
  func.func private @svd(%arg0: tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>, tensor<4x4xf32>) {
    %0:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%arg0) {backend_config = "", mhlo.backend_config = {mode = 83 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>], sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([k, l], [m], [n, o], [p, q], []) {i=6, j=4, k=6, l=4, m=4, n=6, o=4, p=4, q=4}, custom>} : (tensor<6x4xf32>) -> (tensor<6x4xf32>, tensor<4xf32>, tensor<6x4xf32>, tensor<4x4xf32>, tensor<i32>)
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<i32>
    %2 = stablehlo.compare EQ, %0#4, %1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1xi1>
    %cst = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0] : (tensor<1xi1>) -> tensor<4xi1>
    %6 = stablehlo.select %5, %0#1, %4 : tensor<4xi1>, tensor<4xf32>
    %7 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_0 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %8 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<6x4xf32>
    %9 = stablehlo.broadcast_in_dim %7, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<6x4xi1>
    %10 = stablehlo.select %9, %0#2, %8 : tensor<6x4xi1>, tensor<6x4xf32>
    %11 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i1>) -> tensor<1x1xi1>
    %cst_1 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x4xf32>
    %13 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x1xi1>) -> tensor<4x4xi1>
    %14 = stablehlo.select %13, %0#3, %12 : tensor<4x4xi1>, tensor<4x4xf32>
    return %10, %6, %14 : tensor<6x4xf32>, tensor<4xf32>, tensor<4x4xf32>
  }
  func.func private @_where(%arg0: tensor<4xi1>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<4xf32> {
    %0 = stablehlo.convert %arg2 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<4xi1>, tensor<4xf32>
    return %2 : tensor<4xf32>
  }
  func.func private @norm(%arg0: tensor<6x2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<6x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<6x2xf32>, tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.sqrt %1 : tensor<2xf32>
    return %2 : tensor<2xf32>
  }
}
