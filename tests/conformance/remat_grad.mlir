module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<4x2xf32>) -> (tensor<4x2xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %1:3 = stablehlo.optimization_barrier %arg0, %arg1, %0 : tensor<3x4xf32>, tensor<4x2xf32>, tensor<3x2xf32>
    %2 = stablehlo.dot_general %1#0, %1#1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
    %3 = stablehlo.sine %2 : tensor<3x2xf32>
    %4 = stablehlo.cosine %2 : tensor<3x2xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x2xf32>
    %6 = stablehlo.multiply %5, %3 : tensor<3x2xf32>
    %7 = stablehlo.multiply %1#2, %6 : tensor<3x2xf32>
    %8 = stablehlo.multiply %7, %4 : tensor<3x2xf32>
    %9 = stablehlo.dot_general %8, %1#0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x2xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
    %10 = stablehlo.transpose %9, dims = [1, 0] : (tensor<2x4xf32>) -> tensor<4x2xf32>
    return %10 : tensor<4x2xf32>
  }
}
