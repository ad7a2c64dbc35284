module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x2xf32>) -> (tensor<4x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
    %1 = stablehlo.sine %0 : tensor<3x2xf32>
    %2 = stablehlo.multiply %1, %1 : tensor<3x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %3 = stablehlo.reduce(%2 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<3x2xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %5:3 = stablehlo.optimization_barrier %arg0, %arg1, %4 : tensor<3x4xf32>, tensor<4x2xf32>, tensor<3x2xf32>
    %6 = stablehlo.dot_general %5#0, %5#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
    %7 = stablehlo.sine %6 : tensor<3x2xf32>
    %8 = stablehlo.cosine %6 : tensor<3x2xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %10 = stablehlo.multiply %9, %7 : tensor<3x2xf32>
    %11 = stablehlo.multiply %5#2, %10 : tensor<3x2xf32>
    %12 = stablehlo.multiply %11, %8 : tensor<3x2xf32>
    %13 = stablehlo.dot_general %12, %5#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %14 = stablehlo.transpose %13, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    return %14 : tensor<4x2xf32>
  }
}
