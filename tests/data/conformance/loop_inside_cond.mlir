module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<3xf32>) -> (tensor<3xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.compare GT, %arg0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = stablehlo.convert %0 : (tensor<i1>) -> tensor<i32>
    %2 = "stablehlo.case"(%1) ({
      stablehlo.return %arg1 : tensor<3xf32>
    }, {
      %c_0 = stablehlo.constant dense<0> : tensor<i32>
      %c_1 = stablehlo.constant dense<0> : tensor<i32>
      %3:3 = stablehlo.while(%iterArg = %c_1, %iterArg_2 = %c_0, %iterArg_3 = %arg1) : tensor<i32>, tensor<i32>, tensor<3xf32>
      cond {
        %c_4 = stablehlo.constant dense<3> : tensor<i32>
        %4 = stablehlo.compare LT, %iterArg, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
        stablehlo.return %4 : tensor<i1>
      } do {
        %4:2 = func.call @closed_call(%iterArg_2, %iterArg_3) : (tensor<i32>, tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>)
        %c_4 = stablehlo.constant dense<1> : tensor<i32>
        %5 = stablehlo.add %iterArg, %c_4 : tensor<i32>
        stablehlo.return %5, %4#0, %4#1 : tensor<i32>, tensor<i32>, tensor<3xf32>
      }
      stablehlo.return %3#2 : tensor<3xf32>
    }) : (tensor<i32>) -> tensor<3xf32>
    return %2 : tensor<3xf32>
  }
  func.func private @closed_call(%arg0: tensor<i32>, %arg1: tensor<3xf32>) -> (tensor<i32>, tensor<3xf32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg0, %c : tensor<i32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %2 = stablehlo.multiply %arg1, %1 : tensor<3xf32>
    return %0, %2 : tensor<i32>, tensor<3xf32>
  }
}
