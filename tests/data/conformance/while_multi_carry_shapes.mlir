module @jit__multi_carry attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<2x4xf32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<2x4xf32> {jax.result_info = "result[2]"}, tensor<i1> {jax.result_info = "result[3]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<true> : tensor<i1>
    %0:4 = stablehlo.while(%iterArg = %c, %iterArg_1 = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_0) : tensor<i32>, tensor<3xf32>, tensor<2x4xf32>, tensor<i1>
    cond {
      %c_4 = stablehlo.constant dense<6> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.and %1, %iterArg_3 : tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %1 = stablehlo.reduce(%iterArg_2 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<2x4xf32>, tensor<f32>) -> tensor<4xf32>
      %2 = stablehlo.slice %1 [0:3] : (tensor<4xf32>) -> tensor<3xf32>
      %cst_4 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %4 = stablehlo.multiply %2, %3 : tensor<3xf32>
      %5 = stablehlo.add %iterArg_1, %4 : tensor<3xf32>
      %cst_5 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %6 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
      %7 = stablehlo.multiply %iterArg_2, %6 : tensor<2x4xf32>
      %8 = stablehlo.convert %iterArg : (tensor<i32>) -> tensor<f32>
      %9 = stablehlo.broadcast_in_dim %8, dims = [] : (tensor<f32>) -> tensor<2x4xf32>
      %10 = stablehlo.add %7, %9 : tensor<2x4xf32>
      %c_6 = stablehlo.constant dense<1> : tensor<i32>
      %11 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %12 = stablehlo.reduce(%5 init: %cst_7) applies stablehlo.maximum across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      %cst_8 = stablehlo.constant dense<5.000000e+01> : tensor<f32>
      %13 = stablehlo.compare LT, %12, %cst_8, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %11, %5, %10, %13 : tensor<i32>, tensor<3xf32>, tensor<2x4xf32>, tensor<i1>
    }
    return %0#0, %0#1, %0#2, %0#3 : tensor<i32>, tensor<3xf32>, tensor<2x4xf32>, tensor<i1>
  }
}
