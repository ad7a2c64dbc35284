module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<49xcomplex<f32>>) -> (tensor<49xcomplex<f32>> {jax.result_info = "result[0]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[1]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[2]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[3]"}, tensor<49xcomplex<f32>> {jax.result_info = "result[4]"}) {
    %0 = stablehlo.real %arg0 : (tensor<49xcomplex<f32>>) -> tensor<49xf32>
    %1 = stablehlo.imag %arg0 : (tensor<49xcomplex<f32>>) -> tensor<49xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %3 = stablehlo.compare EQ, %0, %2, FLOAT : (tensor<49xf32>, tensor<49xf32>) -> tensor<49xi1>
    %4 = stablehlo.sine %0 : tensor<49xf32>
    %5 = stablehlo.cosine %0 : tensor<49xf32>
    %6 = stablehlo.exponential_minus_one %1 : tensor<49xf32>
    %7 = stablehlo.negate %1 : tensor<49xf32>
    %8 = stablehlo.exponential_minus_one %7 : tensor<49xf32>
    %9 = stablehlo.subtract %6, %8 : tensor<49xf32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %10 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %11 = stablehlo.divide %9, %10 : tensor<49xf32>
    %12 = stablehlo.add %6, %8 : tensor<49xf32>
    %cst_1 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %14 = stablehlo.add %12, %13 : tensor<49xf32>
    %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %15 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %16 = stablehlo.divide %14, %15 : tensor<49xf32>
    %17 = stablehlo.multiply %4, %16 : tensor<49xf32>
    %18 = stablehlo.multiply %5, %11 : tensor<49xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %19 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %20 = stablehlo.complex %19, %18 : tensor<49xcomplex<f32>>
    %21 = stablehlo.complex %17, %18 : tensor<49xcomplex<f32>>
    %22 = stablehlo.select %3, %20, %21 : tensor<49xi1>, tensor<49xcomplex<f32>>
    %23 = stablehlo.real %arg0 : (tensor<49xcomplex<f32>>) -> tensor<49xf32>
    %24 = stablehlo.imag %arg0 : (tensor<49xcomplex<f32>>) -> tensor<49xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %26 = stablehlo.compare EQ, %23, %25, FLOAT : (tensor<49xf32>, tensor<49xf32>) -> tensor<49xi1>
    %27 = stablehlo.sine %23 : tensor<49xf32>
    %28 = stablehlo.cosine %23 : tensor<49xf32>
    %29 = stablehlo.exponential_minus_one %24 : tensor<49xf32>
    %30 = stablehlo.negate %24 : tensor<49xf32>
    %31 = stablehlo.exponential_minus_one %30 : tensor<49xf32>
    %32 = stablehlo.subtract %29, %31 : tensor<49xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %33 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %34 = stablehlo.divide %32, %33 : tensor<49xf32>
    %35 = stablehlo.add %29, %31 : tensor<49xf32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %37 = stablehlo.add %35, %36 : tensor<49xf32>
    %cst_7 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %38 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %39 = stablehlo.divide %37, %38 : tensor<49xf32>
    %40 = stablehlo.multiply %28, %39 : tensor<49xf32>
    %41 = stablehlo.negate %27 : tensor<49xf32>
    %42 = stablehlo.multiply %41, %34 : tensor<49xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %43 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<49xf32>
    %44 = stablehlo.complex %40, %43 : tensor<49xcomplex<f32>>
    %45 = stablehlo.complex %40, %42 : tensor<49xcomplex<f32>>
    %46 = stablehlo.select %26, %44, %45 : tensor<49xi1>, tensor<49xcomplex<f32>>
    %47 = stablehlo.tan %arg0 : tensor<49xcomplex<f32>>
    %cst_9 = stablehlo.constant dense<(5.000000e-01,1.000000e+00)> : tensor<complex<f32>>
    %48 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<complex<f32>>) -> tensor<49xcomplex<f32>>
    %49 = stablehlo.power %arg0, %48 : tensor<49xcomplex<f32>>
    %cst_10 = stablehlo.constant dense<(1.000000e+00,-2.000000e+00)> : tensor<complex<f32>>
    %50 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<complex<f32>>) -> tensor<49xcomplex<f32>>
    %51 = stablehlo.divide %arg0, %50 : tensor<49xcomplex<f32>>
    return %22, %46, %47, %49, %51 : tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>, tensor<49xcomplex<f32>>
  }
}
