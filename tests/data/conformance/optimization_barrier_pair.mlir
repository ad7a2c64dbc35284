module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xi32>) -> (tensor<3x4xf32> {jax.result_info = "result[0]"}, tensor<3x4xi32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<3x4xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<3x4xi32>
    %3 = stablehlo.add %arg1, %2 : tensor<3x4xi32>
    %4:2 = stablehlo.optimization_barrier %1, %3 : tensor<3x4xf32>, tensor<3x4xi32>
    return %4#0, %4#1 : tensor<3x4xf32>, tensor<3x4xi32>
  }
}
