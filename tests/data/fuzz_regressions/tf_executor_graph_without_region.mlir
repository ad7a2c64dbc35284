// fuzz seed 12 index 19338: a tf_executor.graph op without its region was an IndexError flattening the graph
// expect: error "'tf_executor.graph' needs one region holding the graph's nodes"
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = call @_solve_triangular(%arg0, %arg1) : (tensor<6x6xf32>, tensor<6xf32>) -> tensor<6xf32>
    return %0 : tensor<6xf32>
  }
  func.func private @_solve_triangular(%arg0: tensor<6x6xf32>, %arg1: tensor<6xf32>) -> tensor<6xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [0] : (tensor<6xf32>) -> tensor<6x1xf32>
    %1 = "tf_executor.graph"(%arg0, %0) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = false}> : (tensor<6x6xf32>, tensor<6x1xf32>) -> tensor<6x1xf32>
    %2 = stablehlo.select_and_scatter %1 : (tensor<6x1xf32>) -> tensor<6xf32>
    return %2 : tensor<6xf32>
  }
}
