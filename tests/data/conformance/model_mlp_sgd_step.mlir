module @jit__mlp_sgd_step attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>, %arg1: tensor<4x2xf32>, %arg2: tensor<3x5xf32>, %arg3: tensor<5xf32>, %arg4: tensor<5x2xf32>, %arg5: tensor<2xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3x5xf32> {jax.result_info = "result[1]"}, tensor<5xf32> {jax.result_info = "result[2]"}, tensor<5x2xf32> {jax.result_info = "result[3]"}, tensor<2xf32> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.dot_general %arg0, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x3xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
    %1 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<5xf32>) -> tensor<1x5xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x5xf32>) -> tensor<4x5xf32>
    %3 = stablehlo.add %0, %2 : tensor<4x5xf32>
    %4 = call @relu(%3) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %6 = stablehlo.compare GT, %3, %5, FLOAT : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %8 = stablehlo.dot_general %4, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<5x2xf32>) -> tensor<4x2xf32>
    %9 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %10 = stablehlo.broadcast_in_dim %9, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<4x2xf32>
    %11 = stablehlo.add %8, %10 : tensor<4x2xf32>
    %12 = stablehlo.subtract %11, %arg1 : tensor<4x2xf32>
    %13 = stablehlo.multiply %12, %12 : tensor<4x2xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %15 = stablehlo.multiply %14, %12 : tensor<4x2xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %16 = stablehlo.reduce(%13 init: %cst_2) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x2xf32>, tensor<f32>) -> tensor<f32>
    %cst_3 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %17 = stablehlo.divide %16, %cst_3 : tensor<f32>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %18 = stablehlo.divide %cst_4, %cst_5 : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
    %20 = stablehlo.multiply %19, %15 : tensor<4x2xf32>
    %cst_6 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %21 = stablehlo.reduce(%20 init: %cst_6) applies stablehlo.add across dimensions = [0] : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
    %22 = stablehlo.reshape %21 : (tensor<2xf32>) -> tensor<1x2xf32>
    %cst_7 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %23 = stablehlo.reduce(%22 init: %cst_7) applies stablehlo.add across dimensions = [0] : (tensor<1x2xf32>, tensor<f32>) -> tensor<2xf32>
    %24 = stablehlo.dot_general %20, %4, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x2xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
    %25 = stablehlo.transpose %24, dims = [1, 0] : (tensor<2x5xf32>) -> tensor<5x2xf32>
    %26 = stablehlo.dot_general %20, %arg4, contracting_dims = [1] x [1], precision = [DEFAULT, DEFAULT] : (tensor<4x2xf32>, tensor<5x2xf32>) -> tensor<4x5xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %27 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %28 = stablehlo.select %6, %26, %27 : tensor<4x5xi1>, tensor<4x5xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %29 = stablehlo.reduce(%28 init: %cst_9) applies stablehlo.add across dimensions = [0] : (tensor<4x5xf32>, tensor<f32>) -> tensor<5xf32>
    %30 = stablehlo.reshape %29 : (tensor<5xf32>) -> tensor<1x5xf32>
    %cst_10 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %31 = stablehlo.reduce(%30 init: %cst_10) applies stablehlo.add across dimensions = [0] : (tensor<1x5xf32>, tensor<f32>) -> tensor<5xf32>
    %32 = stablehlo.dot_general %28, %arg0, contracting_dims = [0] x [0], precision = [DEFAULT, DEFAULT] : (tensor<4x5xf32>, tensor<4x3xf32>) -> tensor<5x3xf32>
    %33 = stablehlo.transpose %32, dims = [1, 0] : (tensor<5x3xf32>) -> tensor<3x5xf32>
    %cst_11 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %34 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %35 = stablehlo.multiply %34, %33 : tensor<3x5xf32>
    %36 = stablehlo.subtract %arg2, %35 : tensor<3x5xf32>
    %cst_12 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %38 = stablehlo.multiply %37, %31 : tensor<5xf32>
    %39 = stablehlo.subtract %arg3, %38 : tensor<5xf32>
    %cst_13 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<5x2xf32>
    %41 = stablehlo.multiply %40, %25 : tensor<5x2xf32>
    %42 = stablehlo.subtract %arg4, %41 : tensor<5x2xf32>
    %cst_14 = stablehlo.constant dense<1.000000e-01> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %44 = stablehlo.multiply %43, %23 : tensor<2xf32>
    %45 = stablehlo.subtract %arg5, %44 : tensor<2xf32>
    return %17, %36, %39, %42, %45 : tensor<f32>, tensor<3x5xf32>, tensor<5xf32>, tensor<5x2xf32>, tensor<2xf32>
  }
  func.func private @relu(%arg0: tensor<4x5xf32>) -> tensor<4x5xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<4x5xf32>
    return %1 : tensor<4x5xf32>
  }
}
