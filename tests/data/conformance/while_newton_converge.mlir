module @jit__newton_sqrt attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<i32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg0, %iterArg_1 = %arg0, %iterArg_2 = %c) : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<i32>
    cond {
      %1 = stablehlo.multiply %iterArg_1, %iterArg_1 : tensor<5xf32>
      %2 = stablehlo.subtract %1, %iterArg : tensor<5xf32>
      %3 = stablehlo.abs %2 : tensor<5xf32>
      %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %4 = stablehlo.reduce(%3 init: %cst) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
      %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
      %5 = stablehlo.reduce(%iterArg init: %cst_3) applies stablehlo.maximum across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
      %cst_4 = stablehlo.constant dense<9.99999974E-5> : tensor<f32>
      %6 = stablehlo.multiply %cst_4, %5 : tensor<f32>
      %7 = stablehlo.compare GT, %4, %6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c_5 = stablehlo.constant dense<50> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg_2, %c_5, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %9 = stablehlo.and %7, %8 : tensor<i1>
      stablehlo.return %9 : tensor<i1>
    } do {
      %1 = stablehlo.divide %iterArg_0, %iterArg_1 : tensor<5xf32>
      %2 = stablehlo.add %iterArg_1, %1 : tensor<5xf32>
      %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %4 = stablehlo.multiply %3, %2 : tensor<5xf32>
      %c_3 = stablehlo.constant dense<1> : tensor<i32>
      %5 = stablehlo.add %iterArg_2, %c_3 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_0, %4, %5 : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<i32>
    }
    return %0#2, %0#3 : tensor<5xf32>, tensor<i32>
  }
}
