module @jit__transformer_block attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xf32>, %arg3: tensor<8x8xf32>, %arg4: tensor<8x8xf32>, %arg5: tensor<8x8xf32>, %arg6: tensor<8x8xf32>, %arg7: tensor<8xf32>, %arg8: tensor<8xf32>, %arg9: tensor<8x16xf32>, %arg10: tensor<16xf32>, %arg11: tensor<16x8xf32>, %arg12: tensor<8xf32>) -> (tensor<5x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<5x8xf32>, tensor<f32>) -> tensor<5xf32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %cst_0 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %3 = stablehlo.divide %1, %2 : tensor<5x1xf32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %5 = stablehlo.subtract %arg0, %4 : tensor<5x8xf32>
    %6 = stablehlo.multiply %5, %5 : tensor<5x8xf32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.reduce(%6 init: %cst_1) applies stablehlo.add across dimensions = [1] : (tensor<5x8xf32>, tensor<f32>) -> tensor<5xf32>
    %8 = stablehlo.broadcast_in_dim %7, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %cst_2 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %10 = stablehlo.divide %8, %9 : tensor<5x1xf32>
    %11 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %12 = stablehlo.subtract %arg0, %11 : tensor<5x8xf32>
    %cst_3 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %13 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %14 = stablehlo.add %10, %13 : tensor<5x1xf32>
    %15 = stablehlo.rsqrt %14 : tensor<5x1xf32>
    %16 = stablehlo.broadcast_in_dim %15, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %17 = stablehlo.multiply %12, %16 : tensor<5x8xf32>
    %18 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %19 = stablehlo.broadcast_in_dim %18, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %20 = stablehlo.multiply %17, %19 : tensor<5x8xf32>
    %21 = stablehlo.broadcast_in_dim %arg2, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %22 = stablehlo.broadcast_in_dim %21, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %23 = stablehlo.add %20, %22 : tensor<5x8xf32>
    %24 = stablehlo.dot_general %23, %arg3, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %25 = stablehlo.reshape %24 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %26 = stablehlo.transpose %25, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %27 = stablehlo.dot_general %23, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %28 = stablehlo.reshape %27 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %29 = stablehlo.transpose %28, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %30 = stablehlo.dot_general %23, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %31 = stablehlo.reshape %30 : (tensor<5x8xf32>) -> tensor<5x2x4xf32>
    %32 = stablehlo.transpose %31, dims = [1, 0, 2] : (tensor<5x2x4xf32>) -> tensor<2x5x4xf32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %33 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<5x5xi1>
    %34 = call @tril(%33) : (tensor<5x5xi1>) -> tensor<5x5xi1>
    %35 = stablehlo.transpose %29, dims = [0, 2, 1] : (tensor<2x5x4xf32>) -> tensor<2x4x5xf32>
    %36 = stablehlo.dot_general %26, %35, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x5xf32>
    %cst_4 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %37 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %38 = stablehlo.divide %36, %37 : tensor<2x5x5xf32>
    %cst_5 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %39 = call @_where(%34, %38, %cst_5) : (tensor<5x5xi1>, tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5x5xf32>
    %cst_6 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %40 = stablehlo.reduce(%39 init: %cst_6) applies stablehlo.maximum across dimensions = [2] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %cst_7 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %42 = stablehlo.maximum %41, %40 : tensor<2x5xf32>
    %43 = stablehlo.broadcast_in_dim %42, dims = [0, 1] : (tensor<2x5xf32>) -> tensor<2x5x1xf32>
    %44 = stablehlo.broadcast_in_dim %43, dims = [0, 1, 2] : (tensor<2x5x1xf32>) -> tensor<2x5x5xf32>
    %45 = stablehlo.subtract %39, %44 : tensor<2x5x5xf32>
    %46 = stablehlo.exponential %45 : tensor<2x5x5xf32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.reduce(%46 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<2x5x5xf32>, tensor<f32>) -> tensor<2x5xf32>
    %48 = stablehlo.broadcast_in_dim %47, dims = [0, 1] : (tensor<2x5xf32>) -> tensor<2x5x1xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1, 2] : (tensor<2x5x1xf32>) -> tensor<2x5x5xf32>
    %50 = stablehlo.divide %46, %49 : tensor<2x5x5xf32>
    %51 = stablehlo.dot_general %50, %32, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x5x5xf32>, tensor<2x5x4xf32>) -> tensor<2x5x4xf32>
    %52 = stablehlo.transpose %51, dims = [1, 0, 2] : (tensor<2x5x4xf32>) -> tensor<5x2x4xf32>
    %53 = stablehlo.reshape %52 : (tensor<5x2x4xf32>) -> tensor<5x8xf32>
    %54 = stablehlo.dot_general %53, %arg6, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x8xf32>) -> tensor<5x8xf32>
    %55 = stablehlo.add %arg0, %54 : tensor<5x8xf32>
    %cst_9 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %56 = stablehlo.reduce(%55 init: %cst_9) applies stablehlo.add across dimensions = [1] : (tensor<5x8xf32>, tensor<f32>) -> tensor<5xf32>
    %57 = stablehlo.broadcast_in_dim %56, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %cst_10 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %58 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %59 = stablehlo.divide %57, %58 : tensor<5x1xf32>
    %60 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %61 = stablehlo.subtract %55, %60 : tensor<5x8xf32>
    %62 = stablehlo.multiply %61, %61 : tensor<5x8xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.reduce(%62 init: %cst_11) applies stablehlo.add across dimensions = [1] : (tensor<5x8xf32>, tensor<f32>) -> tensor<5xf32>
    %64 = stablehlo.broadcast_in_dim %63, dims = [0] : (tensor<5xf32>) -> tensor<5x1xf32>
    %cst_12 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %65 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %66 = stablehlo.divide %64, %65 : tensor<5x1xf32>
    %67 = stablehlo.broadcast_in_dim %59, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %68 = stablehlo.subtract %55, %67 : tensor<5x8xf32>
    %cst_13 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %69 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<5x1xf32>
    %70 = stablehlo.add %66, %69 : tensor<5x1xf32>
    %71 = stablehlo.rsqrt %70 : tensor<5x1xf32>
    %72 = stablehlo.broadcast_in_dim %71, dims = [0, 1] : (tensor<5x1xf32>) -> tensor<5x8xf32>
    %73 = stablehlo.multiply %68, %72 : tensor<5x8xf32>
    %74 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %75 = stablehlo.broadcast_in_dim %74, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %76 = stablehlo.multiply %73, %75 : tensor<5x8xf32>
    %77 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %79 = stablehlo.add %76, %78 : tensor<5x8xf32>
    %80 = stablehlo.dot_general %79, %arg9, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x16xf32>) -> tensor<5x16xf32>
    %81 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<16xf32>) -> tensor<1x16xf32>
    %82 = stablehlo.broadcast_in_dim %81, dims = [0, 1] : (tensor<1x16xf32>) -> tensor<5x16xf32>
    %83 = stablehlo.add %80, %82 : tensor<5x16xf32>
    %84 = call @relu(%83) : (tensor<5x16xf32>) -> tensor<5x16xf32>
    %85 = stablehlo.dot_general %84, %arg11, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x16xf32>, tensor<16x8xf32>) -> tensor<5x8xf32>
    %86 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %87 = stablehlo.broadcast_in_dim %86, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %88 = stablehlo.add %85, %87 : tensor<5x8xf32>
    %89 = stablehlo.add %55, %88 : tensor<5x8xf32>
    return %89 : tensor<5x8xf32>
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
  func.func private @relu(%arg0: tensor<5x16xf32>) -> tensor<5x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<5x16xf32>
    return %1 : tensor<5x16xf32>
  }
}
