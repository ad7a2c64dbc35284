module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>, %arg1: tensor<4x5xf32>) -> (tensor<4x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.negate %arg0 : tensor<4x5xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<4x5xf32>
    %2 = stablehlo.exponential %1 : tensor<4x5xf32>
    %3 = stablehlo.abs %arg1 : tensor<4x5xf32>
    %4 = stablehlo.log_plus_one %3 : tensor<4x5xf32>
    %5 = stablehlo.tanh %arg0 : tensor<4x5xf32>
    %6 = stablehlo.multiply %4, %5 : tensor<4x5xf32>
    %7 = stablehlo.add %2, %6 : tensor<4x5xf32>
    %8 = stablehlo.multiply %arg0, %arg1 : tensor<4x5xf32>
    %9 = stablehlo.abs %8 : tensor<4x5xf32>
    %10 = stablehlo.sqrt %9 : tensor<4x5xf32>
    %11 = stablehlo.multiply %arg1, %arg1 : tensor<4x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %13 = stablehlo.add %12, %11 : tensor<4x5xf32>
    %14 = stablehlo.divide %10, %13 : tensor<4x5xf32>
    %15 = stablehlo.subtract %7, %14 : tensor<4x5xf32>
    %16 = stablehlo.abs %arg0 : tensor<4x5xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %18 = stablehlo.add %16, %17 : tensor<4x5xf32>
    %19 = stablehlo.power %18, %arg1 : tensor<4x5xf32>
    %20 = stablehlo.add %15, %19 : tensor<4x5xf32>
    %cst_1 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %21 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %22 = stablehlo.multiply %arg0, %21 : tensor<4x5xf32>
    %23 = stablehlo.floor %22 : tensor<4x5xf32>
    %24 = stablehlo.add %20, %23 : tensor<4x5xf32>
    %25 = stablehlo.multiply %arg1, %arg1 : tensor<4x5xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %26 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %27 = stablehlo.add %25, %26 : tensor<4x5xf32>
    %28 = stablehlo.rsqrt %27 : tensor<4x5xf32>
    %29 = stablehlo.add %24, %28 : tensor<4x5xf32>
    return %29 : tensor<4x5xf32>
  }
}
