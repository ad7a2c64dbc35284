module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<i32>, %arg1: tensor<i32>) -> (tensor<i32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:3 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1, %iterArg_1 = %c) : tensor<i32>, tensor<i32>, tensor<i32>
    cond {
      %1 = stablehlo.compare LT, %iterArg, %iterArg_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_2 : tensor<i32>
      %2 = stablehlo.multiply %iterArg, %iterArg : tensor<i32>
      %3 = stablehlo.add %iterArg_1, %2 : tensor<i32>
      stablehlo.return %1, %iterArg_0, %3 : tensor<i32>, tensor<i32>, tensor<i32>
    }
    return %0#2 : tensor<i32>
  }
}
