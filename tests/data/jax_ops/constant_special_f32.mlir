module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[[0x7F800000, 0xFF800000, 0x7FC00000, -0.000000e+00], [1.401300e-45, 3.40282347E+38, 1.000000e-03, 1.000000e-01], [1.000000e+00, -1.000000e+00, 1.000000e+10, -2.500000e+00]]> : tensor<3x4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<3x4xf32>
    %2 = stablehlo.add %1, %cst : tensor<3x4xf32>
    return %2 : tensor<3x4xf32>
  }
}
