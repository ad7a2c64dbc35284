module @jit__greedy_decode attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6x4xf32>, %arg1: tensor<4x6xf32>, %arg2: tensor<i32>) -> (tensor<6xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<6xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %1:6 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %c_1, %iterArg_4 = %c_0, %iterArg_5 = %arg2, %iterArg_6 = %0) : tensor<6x4xf32>, tensor<4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<6xi32>
    cond {
      %c_7 = stablehlo.constant dense<6> : tensor<i32>
      %2 = stablehlo.compare LT, %iterArg_3, %c_7, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %2:3 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_4, %iterArg_5, %iterArg_6) : (tensor<6x4xf32>, tensor<4x6xf32>, tensor<i32>, tensor<i32>, tensor<6xi32>) -> (tensor<i32>, tensor<i32>, tensor<6xi32>)
      %c_7 = stablehlo.constant dense<1> : tensor<i32>
      %3 = stablehlo.add %iterArg_3, %c_7 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %3, %2#0, %2#1, %2#2 : tensor<6x4xf32>, tensor<4x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<6xi32>
    }
    return %1#5 : tensor<6xi32>
  }
  func.func private @closed_call(%arg0: tensor<6x4xf32>, %arg1: tensor<4x6xf32>, %arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<6xi32>) -> (tensor<i32>, tensor<i32>, tensor<6xi32>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg2, %c : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg3, %c_0, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_1 = stablehlo.constant dense<6> : tensor<i32>
    %2 = stablehlo.add %arg3, %c_1 : tensor<i32>
    %3 = stablehlo.select %1, %2, %arg3 : tensor<i1>, tensor<i32>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %4 = stablehlo.compare LT, %c_2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_4 = stablehlo.constant dense<0> : tensor<i32>
    %c_5 = stablehlo.constant dense<4> : tensor<i32>
    %5 = stablehlo.add %c_4, %c_5 : tensor<i32>
    %c_6 = stablehlo.constant dense<0> : tensor<i32>
    %6 = stablehlo.select %4, %5, %c_6 : tensor<i1>, tensor<i32>
    %7 = stablehlo.dynamic_slice %arg0, %3, %6, sizes = [1, 4] : (tensor<6x4xf32>, tensor<i32>, tensor<i32>) -> tensor<1x4xf32>
    %8 = stablehlo.reshape %7 : (tensor<1x4xf32>) -> tensor<4xf32>
    %9 = stablehlo.tanh %8 : tensor<4xf32>
    %10 = stablehlo.dot_general %9, %arg1, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4xf32>, tensor<4x6xf32>) -> tensor<6xf32>
    %11 = call @argmax(%10) : (tensor<6xf32>) -> tensor<i32>
    %12 = call @dynamic_update_index_in_dim(%arg4, %11, %arg2) : (tensor<6xi32>, tensor<i32>, tensor<i32>) -> tensor<6xi32>
    return %0, %11, %12 : tensor<i32>, tensor<i32>, tensor<6xi32>
  }
  func.func private @argmax(%arg0: tensor<6xf32>) -> tensor<i32> {
    %0 = stablehlo.iota dim = 0 : tensor<6xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [0] : (tensor<6xf32>, tensor<6xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<i32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<6xi32>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<6xi32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [] : (tensor<i32>) -> tensor<1xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare LT, %arg2, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %2 = stablehlo.convert %arg2 : tensor<i32>
    %c_0 = stablehlo.constant dense<6> : tensor<i32>
    %3 = stablehlo.add %2, %c_0 : tensor<i32>
    %4 = stablehlo.select %1, %3, %arg2 : tensor<i1>, tensor<i32>
    %5 = stablehlo.dynamic_update_slice %arg0, %0, %4 : (tensor<6xi32>, tensor<1xi32>, tensor<i32>) -> tensor<6xi32>
    return %5 : tensor<6xi32>
  }
}
