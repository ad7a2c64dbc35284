module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x2xf32>) -> (tensor<2xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<5x2xf32>) -> tensor<4x2xf32>
    %2 = stablehlo.slice %arg0 [4:5, 0:2] : (tensor<5x2xf32>) -> tensor<1x2xf32>
    %3 = stablehlo.reshape %1 : (tensor<4x2xf32>) -> tensor<2x2x2xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %4:3 = stablehlo.while(%iterArg = %3, %iterArg_0 = %c, %iterArg_1 = %0) : tensor<2x2x2xf32>, tensor<i32>, tensor<2xf32>
    cond {
      %c_2 = stablehlo.constant dense<2> : tensor<i32>
      %8 = stablehlo.compare LT, %iterArg_0, %c_2, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %8 : tensor<i1>
    } do {
      %8 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_0) : (tensor<2x2x2xf32>, tensor<i32>) -> tensor<2x2xf32>
      %9 = stablehlo.slice %8 [0:1, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
      %10 = stablehlo.reshape %9 : (tensor<1x2xf32>) -> tensor<2xf32>
      %11 = func.call @closed_call(%iterArg_1, %10) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %12 = stablehlo.slice %8 [1:2, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
      %13 = stablehlo.reshape %12 : (tensor<1x2xf32>) -> tensor<2xf32>
      %14 = func.call @closed_call(%11, %13) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      %c_2 = stablehlo.constant dense<1> : tensor<i32>
      %15 = stablehlo.add %iterArg_0, %c_2 : tensor<i32>
      stablehlo.return %iterArg, %15, %14 : tensor<2x2x2xf32>, tensor<i32>, tensor<2xf32>
    }
    %5 = stablehlo.slice %2 [0:1, 0:2] : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x2xf32>) -> tensor<2xf32>
    %7 = call @closed_call(%4#2, %6) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %7 : tensor<2xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x2x2xf32>, %arg1: tensor<i32>) -> tensor<2x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 2, 2] : (tensor<2x2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x2xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
    return %1 : tensor<2x2xf32>
  }
  func.func private @closed_call(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> tensor<2xf32> {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2xf32>
    %1 = stablehlo.tanh %0 : tensor<2xf32>
    return %1 : tensor<2xf32>
  }
}
