module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xcomplex<f32>>, %arg1: tensor<3x4xcomplex<f32>>) -> (tensor<3x4xi1> {jax.result_info = "result[0]"}, tensor<3x4xi1> {jax.result_info = "result[1]"}, tensor<3x4xcomplex<f32>> {jax.result_info = "result[2]"}) {
    %0 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<3x4xi1>
    %1 = stablehlo.compare NE, %arg0, %arg1, FLOAT : (tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<3x4xi1>
    %2 = stablehlo.compare EQ, %arg0, %arg1, FLOAT : (tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<3x4xi1>
    %cst = stablehlo.constant dense<(2.000000e+00,0.000000e+00)> : tensor<complex<f32>>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<3x4xcomplex<f32>>
    %4 = stablehlo.multiply %arg1, %3 : tensor<3x4xcomplex<f32>>
    %5 = call @_where(%2, %arg0, %4) : (tensor<3x4xi1>, tensor<3x4xcomplex<f32>>, tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>>
    return %0, %1, %5 : tensor<3x4xi1>, tensor<3x4xi1>, tensor<3x4xcomplex<f32>>
  }
  func.func private @_where(%arg0: tensor<3x4xi1>, %arg1: tensor<3x4xcomplex<f32>>, %arg2: tensor<3x4xcomplex<f32>>) -> tensor<3x4xcomplex<f32>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x4xi1>, tensor<3x4xcomplex<f32>>
    return %0 : tensor<3x4xcomplex<f32>>
  }
}
