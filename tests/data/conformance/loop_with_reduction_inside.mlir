module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<3xf32> {jax.result_info = "result[0]"}, tensor<2x3xf32> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1:4 = stablehlo.while(%iterArg = %c_0, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %arg0) : tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<2x3xf32>
    cond {
      %c_4 = stablehlo.constant dense<4> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:3 = func.call @closed_call(%iterArg_1, %iterArg_2, %iterArg_3) : (tensor<i32>, tensor<3xf32>, tensor<2x3xf32>) -> (tensor<i32>, tensor<3xf32>, tensor<2x3xf32>)
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg, %c_4 : tensor<i32>
      stablehlo.return %3, %2#0, %2#1, %2#2 : tensor<i32>, tensor<i32>, tensor<3xf32>, tensor<2x3xf32>
    }
    return %1#2, %1#3 : tensor<3xf32>, tensor<2x3xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<3xf32>, %arg2: tensor<2x3xf32>) -> (tensor<i32>, tensor<3xf32>, tensor<2x3xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %1 = stablehlo.reduce(%arg2 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.add %arg1, %1 : tensor<3xf32>
    %cst_0 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %4 = stablehlo.multiply %arg2, %3 : tensor<2x3xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.reduce(%arg2 init: %cst_1) applies stablehlo.add across dimensions = [0, 1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<f32>
    %6 = stablehlo.broadcast_in_dim %5, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %7 = stablehlo.add %4, %6 : tensor<2x3xf32>
    return %0, %2, %7 : tensor<i32>, tensor<3xf32>, tensor<2x3xf32>
  }
}
