module @jit_chain_fn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x8xf32>, %arg1: tensor<8xf32>) -> (tensor<3x8xf32> {jax.result_info = "result"}) {
    %0 = chlo.erf %arg0 : tensor<3x8xf32> -> tensor<3x8xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %2 = stablehlo.add %arg1, %1 : tensor<8xf32>
    %3 = chlo.lgamma %2 : tensor<8xf32> -> tensor<8xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<3x8xf32>
    %6 = stablehlo.multiply %0, %5 : tensor<3x8xf32>
    %7 = chlo.asinh %6 : tensor<3x8xf32> -> tensor<3x8xf32>
    %8 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<1x8xf32>
    %10 = stablehlo.add %8, %9 : tensor<1x8xf32>
    %11 = chlo.digamma %10 : tensor<1x8xf32> -> tensor<1x8xf32>
    %12 = stablehlo.broadcast_in_dim %11, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<3x8xf32>
    %13 = stablehlo.add %7, %12 : tensor<3x8xf32>
    %14 = stablehlo.reduce_precision %13, format = e8m7 : tensor<3x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %16 = stablehlo.multiply %14, %15 : tensor<3x8xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+02> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x8xf32>
    %18 = stablehlo.add %16, %17 : tensor<3x8xf32>
    %19 = chlo.next_after %13, %18 : tensor<3x8xf32>, tensor<3x8xf32> -> tensor<3x8xf32>
    return %19 : tensor<3x8xf32>
  }
}
