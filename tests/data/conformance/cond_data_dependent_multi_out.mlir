module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>, %arg1: tensor<3x3xf32>) -> (tensor<5xf32> {jax.result_info = "result[0]"}, tensor<3x3xf32> {jax.result_info = "result[1]"}, tensor<i32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0] : (tensor<5xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.compare GT, %0, %cst_0, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = stablehlo.convert %1 : (tensor<i1>) -> tensor<i32>
    %3:3 = "stablehlo.case"(%2) ({
      %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %5 = stablehlo.subtract %arg0, %4 : tensor<5xf32>
      %6 = stablehlo.transpose %arg1, dims = [1, 0] : (tensor<3x3xf32>) -> tensor<3x3xf32>
      %c = stablehlo.constant dense<2> : tensor<i32>
      stablehlo.return %5, %6, %c : tensor<5xf32>, tensor<3x3xf32>, tensor<i32>
    }, {
      %cst_1 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %4 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<5xf32>
      %5 = stablehlo.add %arg0, %4 : tensor<5xf32>
      %6 = stablehlo.dot_general %arg1, %arg1, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
      %c = stablehlo.constant dense<1> : tensor<i32>
      stablehlo.return %5, %6, %c : tensor<5xf32>, tensor<3x3xf32>, tensor<i32>
    }) : (tensor<i32>) -> (tensor<5xf32>, tensor<3x3xf32>, tensor<i32>)
    return %3#0, %3#1, %3#2 : tensor<5xf32>, tensor<3x3xf32>, tensor<i32>
  }
}
