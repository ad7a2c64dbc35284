// fuzz seed 12 index 8510: an executor node naming 2^64 results (%r:N) was an OverflowError building its types
// expect: error "names 18446744073709551616 results (at most 65536)"
module @jit_barrier_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<24xf32>, %arg1: tensor<24xf32>) -> (tensor<24xf32> {jax.result_info = "result[0]"}, tensor<24xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<24xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %3 = stablehlo.add %arg1, %2 : tensor<24xf32>
    %4:18446744073709551616 = tf_executor.LoopCond %1, %3 : tensor<24xf32>, tensor<24xf32>
    %5 = stablehlo.multiply %4#0, %4#1 : tensor<24xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<24xf32>
    %7 = stablehlo.add %5, %6 : tensor<24xf32>
    %8 = chlo.erf %4#0 : tensor<24xf32> -> tensor<24xf32>
    return %7, %8 : tensor<24xf32>, tensor<24xf32>
  }
}
