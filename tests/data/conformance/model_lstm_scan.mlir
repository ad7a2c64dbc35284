module @jit__lstm attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x3xf32>, %arg1: tensor<7x16xf32>, %arg2: tensor<16xf32>) -> (tensor<5x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %3:7 = stablehlo.while(%iterArg = %arg0, %iterArg_2 = %arg1, %iterArg_3 = %arg2, %iterArg_4 = %c, %iterArg_5 = %0, %iterArg_6 = %1, %iterArg_7 = %2) : tensor<5x3xf32>, tensor<7x16xf32>, tensor<16xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<5x4xf32>
    cond {
      %c_8 = stablehlo.constant dense<5> : tensor<i32>
      %4 = stablehlo.compare LT, %iterArg_4, %c_8, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %4 : tensor<i1>
    } do {
      %4 = func.call @dynamic_index_in_dim(%iterArg, %iterArg_4) : (tensor<5x3xf32>, tensor<i32>) -> tensor<3xf32>
      %5:3 = func.call @closed_call(%iterArg_2, %iterArg_3, %iterArg_5, %iterArg_6, %4) : (tensor<7x16xf32>, tensor<16xf32>, tensor<4xf32>, tensor<4xf32>, tensor<3xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      %6 = func.call @dynamic_update_index_in_dim(%iterArg_7, %5#2, %iterArg_4) : (tensor<5x4xf32>, tensor<4xf32>, tensor<i32>) -> tensor<5x4xf32>
      %c_8 = stablehlo.constant dense<1> : tensor<i32>
      %7 = stablehlo.add %iterArg_4, %c_8 : tensor<i32>
      stablehlo.return %iterArg, %iterArg_2, %iterArg_3, %7, %5#0, %5#1, %6 : tensor<5x3xf32>, tensor<7x16xf32>, tensor<16xf32>, tensor<i32>, tensor<4xf32>, tensor<4xf32>, tensor<5x4xf32>
    }
    return %3#6 : tensor<5x4xf32>
  }
  func.func private @dynamic_index_in_dim(%arg0: tensor<5x3xf32>, %arg1: tensor<i32>) -> tensor<3xf32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.dynamic_slice %arg0, %arg1, %c, sizes = [1, 3] : (tensor<5x3xf32>, tensor<i32>, tensor<i32>) -> tensor<1x3xf32>
    %1 = stablehlo.reshape %0 : (tensor<1x3xf32>) -> tensor<3xf32>
    return %1 : tensor<3xf32>
  }
  func.func private @closed_call(%arg0: tensor<7x16xf32>, %arg1: tensor<16xf32>, %arg2: tensor<4xf32>, %arg3: tensor<4xf32>, %arg4: tensor<3xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %0 = stablehlo.concatenate %arg4, %arg2, dim = 0 : (tensor<3xf32>, tensor<4xf32>) -> tensor<7xf32>
    %1 = stablehlo.dot_general %0, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<7xf32>, tensor<7x16xf32>) -> tensor<16xf32>
    %2 = stablehlo.add %1, %arg1 : tensor<16xf32>
    %3 = stablehlo.slice %2 [0:4] : (tensor<16xf32>) -> tensor<4xf32>
    %4 = stablehlo.slice %2 [4:8] : (tensor<16xf32>) -> tensor<4xf32>
    %5 = stablehlo.slice %2 [8:12] : (tensor<16xf32>) -> tensor<4xf32>
    %6 = stablehlo.slice %2 [12:16] : (tensor<16xf32>) -> tensor<4xf32>
    %7 = stablehlo.negate %4 : tensor<4xf32>
    %8 = stablehlo.exponential %7 : tensor<4xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %10 = stablehlo.add %9, %8 : tensor<4xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %12 = stablehlo.divide %11, %10 : tensor<4xf32>
    %13 = stablehlo.multiply %12, %arg3 : tensor<4xf32>
    %14 = stablehlo.negate %3 : tensor<4xf32>
    %15 = stablehlo.exponential %14 : tensor<4xf32>
    %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %16 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %17 = stablehlo.add %16, %15 : tensor<4xf32>
    %cst_2 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %19 = stablehlo.divide %18, %17 : tensor<4xf32>
    %20 = stablehlo.tanh %5 : tensor<4xf32>
    %21 = stablehlo.multiply %19, %20 : tensor<4xf32>
    %22 = stablehlo.add %13, %21 : tensor<4xf32>
    %23 = stablehlo.negate %6 : tensor<4xf32>
    %24 = stablehlo.exponential %23 : tensor<4xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %26 = stablehlo.add %25, %24 : tensor<4xf32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %28 = stablehlo.divide %27, %26 : tensor<4xf32>
    %29 = stablehlo.tanh %22 : tensor<4xf32>
    %30 = stablehlo.multiply %28, %29 : tensor<4xf32>
    return %30, %22, %30 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
  func.func private @dynamic_update_index_in_dim(%arg0: tensor<5x4xf32>, %arg1: tensor<4xf32>, %arg2: tensor<i32>) -> tensor<5x4xf32> {
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<4xf32>) -> tensor<1x4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.dynamic_update_slice %arg0, %0, %arg2, %c : (tensor<5x4xf32>, tensor<1x4xf32>, tensor<i32>, tensor<i32>) -> tensor<5x4xf32>
    return %1 : tensor<5x4xf32>
  }
}
