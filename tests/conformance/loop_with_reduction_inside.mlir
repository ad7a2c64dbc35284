module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<2x3xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:3 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0, %iterArg_1 = %arg0) : tensor<i32>, tensor<3xf32>, tensor<2x3xf32>
    cond {
      %c_2 = stablehlo.constant dense<4> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:2 = func.call @closed_call(%iterArg_0, %iterArg_1) : (tensor<3xf32>, tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>)
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      stablehlo.return %3, %2#0, %2#1 : tensor<i32>, tensor<3xf32>, tensor<2x3xf32>
    }
    return %1#1, %1#2 : tensor<3xf32>, tensor<2x3xf32>
  }
  func.func private @closed_call(%arg0: tensor<3xf32>, %arg1: tensor<2x3xf32>) -> (tensor<3xf32>, tensor<2x3xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<2x3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.reduce(%arg1 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %6 = stablehlo.add %3, %5 : tensor<2x3xf32>
    return %1, %6 : tensor<3xf32>, tensor<2x3xf32>
  }
}
