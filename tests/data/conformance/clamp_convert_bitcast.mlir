module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xi32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<-1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %2 = stablehlo.clamp %0, %arg0, %1 : tensor<3x4xf32>
    %3 = stablehlo.bitcast_convert %2 : (tensor<3x4xf32>) -> tensor<3x4xi32>
    %4 = stablehlo.convert %arg0 : (tensor<3x4xf32>) -> tensor<3x4xi32>
    %5 = stablehlo.add %3, %4 : tensor<3x4xi32>
    return %5 : tensor<3x4xi32>
  }
}
