module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x2xf32>) -> (tensor<2xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %1 = stablehlo.slice %arg0 [0:4, 0:2] : (tensor<5x2xf32>) -> tensor<4x2xf32>
    %2 = stablehlo.slice %arg0 [4:5, 0:2] : (tensor<5x2xf32>) -> tensor<1x2xf32>
    %3 = stablehlo.reshape %1 : (tensor<4x2xf32>) -> tensor<2x2x2xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x2x2xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5:4 = stablehlo.while(%iterArg = %3, %iterArg_1 = %c, %iterArg_2 = %0, %iterArg_3 = %4) : tensor<2x2x2xf32>, tensor<i32>, tensor<2xf32>, tensor<2x2x2xf32>
    cond {
      %c_4 = stablehlo.constant dense<2> : tensor<i32>
      %12 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %12 : tensor<i1>
    } do {
      %12 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_1) : (tensor<2x2x2xf32>, tensor<i32>) -> tensor<2x2xf32>
      %13 = stablehlo.slice %12 [0:1, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
      %14 = stablehlo.reshape %13 : (tensor<1x2xf32>) -> tensor<2xf32>
      %15:2 = func.call @closed_call(%iterArg_2, %14) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
      %16 = stablehlo.slice %12 [1:2, 0:2] : (tensor<2x2xf32>) -> tensor<1x2xf32>
      %17 = stablehlo.reshape %16 : (tensor<1x2xf32>) -> tensor<2xf32>
      %18:2 = func.call @closed_call(%15#0, %17) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
      %19 = stablehlo.broadcast_in_dim %15#1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
      %20 = stablehlo.broadcast_in_dim %18#1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
      %21 = stablehlo.concatenate %19, %20, dim = 0 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
      %22 = func.call @dynamic_update_index_in_dim(%iterArg_3, %21, %iterArg_1) : (tensor<2x2x2xf32>, tensor<2x2xf32>, tensor<i32>) -> tensor<2x2x2xf32>
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %23 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %23, %18#0, %22 : tensor<2x2x2xf32>, tensor<i32>, tensor<2xf32>, tensor<2x2x2xf32>
    }
    %6 = stablehlo.reshape %5#3 : (tensor<2x2x2xf32>) -> tensor<4x2xf32>
    %7 = stablehlo.slice %2 [0:1, 0:2] : (tensor<1x2xf32>) -> tensor<1x2xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x2xf32>) -> tensor<2xf32>
    %9:2 = call @closed_call(%5#2, %8) : (tensor<2xf32>, tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %10 = stablehlo.broadcast_in_dim %9#1, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %11 = stablehlo.concatenate %6, %10, dim = 0 : (tensor<4x2xf32>, tensor<1x2xf32>) -> tensor<5x2xf32>
    return %9#0 : tensor<2xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<2x2x2xf32>, %arg1: tensor<i32>) -> tensor<2x2xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, %c_0, sizes = [1, 2, 2] : (tensor<2x2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x2x2xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x2x2xf32>) -> tensor<2x2xf32>
    return %1 : tensor<2x2xf32>
  }
  func.func private @closed_call(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<2xf32>
    %1 = stablehlo.tanh %0 : tensor<2xf32>
    return %1, %arg0 : tensor<2xf32>, tensor<2xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<2x2x2xf32>, %arg1: tensor<2x2xf32>, %arg2: tensor<i32>) -> tensor<2x2x2xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1, 2] : (tensor<2x2xf32>) -> tensor<1x2x2xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c, %c_0 : (tensor<2x2x2xf32>, tensor<1x2x2xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<2x2x2xf32>
    return %1 : tensor<2x2x2xf32>
  }
}
