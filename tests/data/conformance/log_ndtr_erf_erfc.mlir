module @jit_log_ndtr attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x5xf32>) -> (tensor<3x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %2 = stablehlo.negate %arg0 : tensor<3x5xf32>
    %cst_0 = stablehlo.constant dense<-1.000000e+01> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %4 = stablehlo.maximum %arg0, %3 : tensor<3x5xf32>
    %5 = call @_where(%1, %2, %4) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %cst_1 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<3x5xf32>
    %8 = stablehlo.abs %7 : tensor<3x5xf32>
    %cst_2 = stablehlo.constant dense<0.707106769> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %10 = stablehlo.compare LT, %8, %9, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %11 = chlo.erf %7 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_3 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %12 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %13 = stablehlo.add %12, %11 : tensor<3x5xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %14 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %15 = stablehlo.compare GT, %7, %14, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %16 = chlo.erfc %8 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_5 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %18 = stablehlo.subtract %17, %16 : tensor<3x5xf32>
    %19 = chlo.erfc %8 : tensor<3x5xf32> -> tensor<3x5xf32>
    %20 = stablehlo.select %15, %18, %19 : tensor<3x5xi1>, tensor<3x5xf32>
    %21 = stablehlo.select %10, %13, %20 : tensor<3x5xi1>, tensor<3x5xf32>
    %cst_6 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %22 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %23 = stablehlo.multiply %22, %21 : tensor<3x5xf32>
    %24 = stablehlo.negate %23 : tensor<3x5xf32>
    %cst_7 = stablehlo.constant dense<-1.000000e+01> : tensor<f32>
    %25 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %26 = stablehlo.compare GT, %arg0, %25, FLOAT : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %27 = stablehlo.log %23 : tensor<3x5xf32>
    %cst_8 = stablehlo.constant dense<-1.000000e+01> : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %29 = stablehlo.minimum %arg0, %28 : tensor<3x5xf32>
    %30 = chlo.square %29 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_9 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %31 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %32 = stablehlo.multiply %31, %30 : tensor<3x5xf32>
    %33 = stablehlo.negate %29 : tensor<3x5xf32>
    %34 = stablehlo.log %33 : tensor<3x5xf32>
    %35 = stablehlo.subtract %32, %34 : tensor<3x5xf32>
    %cst_10 = stablehlo.constant dense<0.918938517> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %37 = stablehlo.subtract %35, %36 : tensor<3x5xf32>
    %38 = chlo.square %29 : tensor<3x5xf32> -> tensor<3x5xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %40 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %cst_13 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %42 = stablehlo.divide %41, %38 : tensor<3x5xf32>
    %43 = stablehlo.add %40, %42 : tensor<3x5xf32>
    %44 = stablehlo.multiply %38, %38 : tensor<3x5xf32>
    %cst_14 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %45 = stablehlo.broadcast_in_dim %cst_14, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %46 = stablehlo.divide %45, %44 : tensor<3x5xf32>
    %47 = stablehlo.add %39, %46 : tensor<3x5xf32>
    %48 = stablehlo.multiply %44, %38 : tensor<3x5xf32>
    %cst_15 = stablehlo.constant dense<1.500000e+01> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %50 = stablehlo.divide %49, %48 : tensor<3x5xf32>
    %51 = stablehlo.add %43, %50 : tensor<3x5xf32>
    %52 = stablehlo.multiply %48, %38 : tensor<3x5xf32>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %53 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x5xf32>
    %54 = stablehlo.add %53, %47 : tensor<3x5xf32>
    %55 = stablehlo.subtract %54, %51 : tensor<3x5xf32>
    %56 = stablehlo.log %55 : tensor<3x5xf32>
    %57 = stablehlo.add %37, %56 : tensor<3x5xf32>
    %58 = call @_where(%26, %27, %57) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %59 = call @_where(%1, %24, %58) : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    return %59 : tensor<3x5xf32>
  }
  func.func private @_where(%arg0: tensor<3x5xi1>, %arg1: tensor<3x5xf32>, %arg2: tensor<3x5xf32>) -> tensor<3x5xf32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<3x5xi1>, tensor<3x5xf32>
    return %0 : tensor<3x5xf32>
  }
}
