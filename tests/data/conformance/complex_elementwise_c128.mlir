module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5xcomplex<f64>>) -> (tensor<2x5xcomplex<f64>> {jax.result_info = "result[0]"}, tensor<2x5xcomplex<f64>> {jax.result_info = "result[1]"}, tensor<2x5xcomplex<f64>> {jax.result_info = "result[2]"}, tensor<2x5xcomplex<f64>> {jax.result_info = "result[3]"}, tensor<2x5xf64> {jax.result_info = "result[4]"}, tensor<2x5xcomplex<f64>> {jax.result_info = "result[5]"}) {
    %0 = stablehlo.exponential %arg0 : tensor<2x5xcomplex<f64>>
    %1 = stablehlo.log %arg0 : tensor<2x5xcomplex<f64>>
    %2 = stablehlo.sqrt %arg0 : tensor<2x5xcomplex<f64>>
    %3 = stablehlo.tanh %arg0 : tensor<2x5xcomplex<f64>>
    %4 = stablehlo.abs %arg0 : (tensor<2x5xcomplex<f64>>) -> tensor<2x5xf64>
    %5 = stablehlo.real %arg0 : (tensor<2x5xcomplex<f64>>) -> tensor<2x5xf64>
    %6 = stablehlo.imag %arg0 : (tensor<2x5xcomplex<f64>>) -> tensor<2x5xf64>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %7 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %8 = stablehlo.compare EQ, %5, %7, FLOAT : (tensor<2x5xf64>, tensor<2x5xf64>) -> tensor<2x5xi1>
    %9 = stablehlo.sine %5 : tensor<2x5xf64>
    %10 = stablehlo.cosine %5 : tensor<2x5xf64>
    %11 = stablehlo.exponential_minus_one %6 : tensor<2x5xf64>
    %12 = stablehlo.negate %6 : tensor<2x5xf64>
    %13 = stablehlo.exponential_minus_one %12 : tensor<2x5xf64>
    %14 = stablehlo.subtract %11, %13 : tensor<2x5xf64>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %15 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %16 = stablehlo.divide %14, %15 : tensor<2x5xf64>
    %17 = stablehlo.add %11, %13 : tensor<2x5xf64>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %18 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %19 = stablehlo.add %17, %18 : tensor<2x5xf64>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f64>
    %20 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %21 = stablehlo.divide %19, %20 : tensor<2x5xf64>
    %22 = stablehlo.multiply %9, %21 : tensor<2x5xf64>
    %23 = stablehlo.multiply %10, %16 : tensor<2x5xf64>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f64>
    %24 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f64>) -> tensor<2x5xf64>
    %25 = stablehlo.complex %24, %23 : tensor<2x5xcomplex<f64>>
    %26 = stablehlo.complex %22, %23 : tensor<2x5xcomplex<f64>>
    %27 = stablehlo.select %8, %25, %26 : tensor<2x5xi1>, tensor<2x5xcomplex<f64>>
    return %0, %1, %2, %3, %4, %27 : tensor<2x5xcomplex<f64>>, tensor<2x5xcomplex<f64>>, tensor<2x5xcomplex<f64>>, tensor<2x5xcomplex<f64>>, tensor<2x5xf64>, tensor<2x5xcomplex<f64>>
  }
}
