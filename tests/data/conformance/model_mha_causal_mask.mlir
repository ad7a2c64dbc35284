module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x8xf32>, %arg1: tensor<8x8xf32>, %arg2: tensor<8x8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>) -> (tensor<5x8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %1 = stablehlo.reshape %0 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %2 = stablehlo.transpose %1, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %3 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %4 = stablehlo.reshape %3 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %5 = stablehlo.transpose %4, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %6 = stablehlo.dot_general %arg0, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %7 = stablehlo.reshape %6 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %8 = stablehlo.transpose %7, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %9 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %10 = call @tril(%9) : (tensor<5x5xi1>) -> tensor<5x5xi1>
    %11 = stablehlo.transpose %5, dims = [0, 2, 1] : (tensor<2x5x4xf32>) -> tensor<2x4x5xf32>
    %12 = stablehlo.dot_general %2, %11, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %14 = stablehlo.divide %12, %13 : tensor<2x5x5xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %15 = call @_where(%10, %14, %cst_0) : (tensor<5x5xi1>, tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5x5xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %16 = stablehlo.reduce(%15 init: %cst_1) applies stablehlo.maximum across dimensions = [2] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %18 = stablehlo.maximum %17, %16 : tensor<2x5xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<2x5xf32>) -> tensor<2x5x1xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0, 1, 2] : (tensor<2x5x1xf32>) -> tensor<2x5x5xf32>
    %21 = stablehlo.subtract %15, %20 : tensor<2x5x5xf32>
    %22 = stablehlo.exponential %21 : tensor<2x5x5xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_3) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %24 = stablehlo.broadcast_in_dim %23, dims = [0, 1] : (tensor<2x5xf32>) -> tensor<2x5x1xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0, 1, 2] : (tensor<2x5x1xf32>) -> tensor<2x5x5xf32>
    %26 = stablehlo.divide %22, %25 : tensor<2x5x5xf32>
    %27 = stablehlo.dot_general %26, %8, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
    %28 = stablehlo.transpose %27, dims = [1, 0, 2] : (tensor<2x5x4xf32>) -> tensor<5x2x4xf32>
    %29 = stablehlo.reshape %28 : (tensor<5x2x4xf32>) -> tensor<5x8xf32>
    %30 = stablehlo.dot_general %29, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    return %30 : tensor<5x8xf32>
  }
  func.func private @tril(%arg0: tensor<5x5xi1>) -> tensor<5x5xi1> {
    %0 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x5xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %c_0 = stablehlo.constant dense<false> : tensor<i1>
    %5 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<5x5xi1>, tensor<5x5xi1>
    return %6 : tensor<5x5xi1>
  }
  func.func private @_where(%arg0: tensor<5x5xi1>, %arg1: tensor<2x5x5xf32>, %arg2: tensor<f32>) -> tensor<2x5x5xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    return %3 : tensor<2x5x5xf32>
  }
}
