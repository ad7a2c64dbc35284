module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xcomplex<f64>>) -> (tensor<3x5xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<3x5xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<3x5xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<3x5xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<3x5xcomplex<f64>> {jax.result_info = "result[4]"}, tensor<3x5xcomplex<f64>> {jax.result_info = "result[5]"}) {
    %0 = chlo.asin %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    %1 = chlo.acos %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    %2 = chlo.atan %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    %3 = chlo.asinh %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    %4 = call @arccosh(%arg0) : (tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>>
    %5 = chlo.atanh %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    return %0, %1, %2, %3, %4, %5 : tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>
  }
  func.func private @arccosh(%arg0: tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>> {
    %0 = chlo.acosh %arg0 : tensor<3x5xcomplex<f64>> -> tensor<3x5xcomplex<f64>>
    %1 = stablehlo.real %0 : (tensor<3x5xcomplex<f64>>) -> tensor<3x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<3x5xf64>
    %3 = stablehlo.compare LT, %1, %2, FLOAT : (tensor<3x5xf64>, tensor<3x5xf64>) -> tensor<3x5xi1>
    %4 = stablehlo.negate %0 : tensor<3x5xcomplex<f64>>
    %5 = call @_where(%3, %4, %0) : (tensor<3x5xi1>, tensor<3x5xcomplex<f64>>, tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>>
    return %5 : tensor<3x5xcomplex<f64>>
  }
  func.func private @_where(%arg0: tensor<3x5xi1>, %arg1: tensor<3x5xcomplex<f64>>, %arg2: tensor<3x5xcomplex<f64>>) -> tensor<3x5xcomplex<f64>> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x5xi1>, tensor<3x5xcomplex<f64>>
    return %0 : tensor<3x5xcomplex<f64>>
  }
}
