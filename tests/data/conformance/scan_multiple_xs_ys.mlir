module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<4x2xi32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<4x3xf32> {jax.result_info = "result[1][0]"}, tensor<4x2xi32> {jax.result_info = "result[1][1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x2xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %2:6 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %cst, %iterArg_5 = %0, %iterArg_6 = %1) : tensor<4x3xf32>, tensor<4x2xi32>, tensor<i32>, tensor<f32>, tensor<4x3xf32>, tensor<4x2xi32>
    cond {
      %c_7 = stablehlo.constant dense<4> : tensor<i32>
      %3 = stablehlo.compare LT, %iterArg_3, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %3 : tensor<i1>
    } do {
      %3 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_3) : (tensor<4x3xf32>, tensor<i32>) -> tensor<3xf32>
      %4 = func.call @dynamic_index_in_dim_0(%iterArg_2, %iterArg_3) : (tensor<4x2xi32>, tensor<i32>) -> tensor<2xi32>
      %5:3 = func.call @closed_call(%iterArg_4, %3, %4) : (tensor<f32>, tensor<3xf32>, tensor<2xi32>) -> (tensor<f32>, tensor<3xf32>, tensor<2xi32>)
      %6 = func.call @dynamic_update_index_in_dim(%iterArg_5, %5#1, %iterArg_3) : (tensor<4x3xf32>, tensor<3xf32>, tensor<i32>) -> tensor<4x3xf32>
      %7 = func.call @dynamic_update_index_in_dim_1(%iterArg_6, %5#2, %iterArg_3) : (tensor<4x2xi32>, tensor<2xi32>, tensor<i32>) -> tensor<4x2xi32>
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %8 = stablehlo.add %iterArg_3, %c_7 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %8, %5#0, %6, %7 : tensor<4x3xf32>, tensor<4x2xi32>, tensor<i32>, tensor<f32>, tensor<4x3xf32>, tensor<4x2xi32>
    }
    return %2#3, %2#4, %2#5 : tensor<f32>, tensor<4x3xf32>, tensor<4x2xi32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<4x3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 3] : (tensor<4x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @dynamic_index_in_dim_0(%arg0: tensor<4x2xi32>, %arg1: tensor<i32>) -> tensor<2xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 2] : (tensor<4x2xi32>, tensor<i32>, tensor<i32>) -> tensor<1x2xi32>
    %1 = stablehlo.reshape %0 : (tensor<1x2xi32>) -> tensor<2xi32>
    return %1 : tensor<2xi32>
  }
  func.func private @closed_call(%arg0: tensor<f32>, %arg1: tensor<3xf32>, %arg2: tensor<2xi32>) -> (tensor<f32>, tensor<3xf32>, tensor<2xi32>) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
    %1 = stablehlo.add %arg0, %0 : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %arg0, dims = [] : (tensor<f32>) -> tensor<3xf32>
    %3 = stablehlo.multiply %arg1, %2 : tensor<3xf32>
    %c = stablehlo.constant dense<1> : tensor<i32>
    %4 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2xi32>
    %5 = stablehlo.add %arg2, %4 : tensor<2xi32>
    return %1, %3, %5 : tensor<f32>, tensor<3xf32>, tensor<2xi32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<4x3xf32>, %arg1: tensor<3xf32>, %arg2: tensor<i32>) -> tensor<4x3xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<3xf32>) -> tensor<1x3xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x3xf32>, tensor<1x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x3xf32>
    return %1 : tensor<4x3xf32>
  }
  func.func private @dynamic_update_index_in_dim_1(%arg0: tensor<4x2xi32>, %arg1: tensor<2xi32>, %arg2: tensor<i32>) -> tensor<4x2xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<2xi32>) -> tensor<1x2xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<4x2xi32>, tensor<1x2xi32>, tensor<i32>, tensor<i32>) -> tensor<4x2xi32>
    return %1 : tensor<4x2xi32>
  }
}
