module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2048x512xf32>, %arg1: tensor<2048x512xf32>, %arg2: tensor<2048x512xf32>, %arg3: tensor<2048x512xf32>, %arg4: tensor<2048x512xf32>, %arg5: tensor<2048x512xf32>, %arg6: tensor<2048x512xf32>, %arg7: tensor<2048x512xf32>, %arg8: tensor<512x512xf32>, %arg9: tensor<512xf32>, %arg10: tensor<512xf32>, %arg11: tensor<512xf32>, %arg12: tensor<512xf32>, %arg13: tensor<512xf32>, %arg14: tensor<512xf32>, %arg15: tensor<512xf32>, %arg16: tensor<512xf32>, %arg17: tensor<512xf32>, %arg18: tensor<512xf32>, %arg19: tensor<512xf32>, %arg20: tensor<512xf32>, %arg21: tensor<512xf32>, %arg22: tensor<512xf32>, %arg23: tensor<512xf32>, %arg24: tensor<512xf32>, %arg25: tensor<512xf32>, %arg26: tensor<128x512xf32>, %arg27: tensor<512x512xf32>, %arg28: tensor<512x512xf32>, %arg29: tensor<512x512xf32>, %arg30: tensor<512x512xf32>, %arg31: tensor<512x512xf32>, %arg32: tensor<512x512xf32>, %arg33: tensor<512x512xf32>, %arg34: tensor<512x512xf32>, %arg35: tensor<512x1536xf32>, %arg36: tensor<512x1536xf32>, %arg37: tensor<512x1536xf32>, %arg38: tensor<512x1536xf32>, %arg39: tensor<512x1536xf32>, %arg40: tensor<512x1536xf32>, %arg41: tensor<512x1536xf32>, %arg42: tensor<512x1536xf32>, %arg43: tensor<512x2048xf32>, %arg44: tensor<512x2048xf32>, %arg45: tensor<512x2048xf32>, %arg46: tensor<512x2048xf32>, %arg47: tensor<512x2048xf32>, %arg48: tensor<512x2048xf32>, %arg49: tensor<512x2048xf32>, %arg50: tensor<512x2048xf32>, %arg51: tensor<128xi32>) -> (tensor<128x512xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_7 = stablehlo.constant dense<5.120000e+02> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_9 = stablehlo.constant dense<512> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<128xi32>
    %1 = stablehlo.compare LT, %arg51, %0, SIGNED : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi1>
    %2 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<128xi32>
    %3 = stablehlo.add %arg51, %2 : tensor<128xi32>
    %4 = stablehlo.select %1, %3, %arg51 : tensor<128xi1>, tensor<128xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %6 = "stablehlo.gather"(%arg8, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 512>}> : (tensor<512x512xf32>, tensor<128x1xi32>) -> tensor<128x512xf32>
    %7 = stablehlo.add %6, %arg26 : tensor<128x512xf32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %9 = call @tril(%8) : (tensor<128x128xi1>) -> tensor<128x128xi1>
    %10 = stablehlo.reduce(%7 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<128x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %15 = stablehlo.subtract %7, %14 : tensor<128x512xf32>
    %16 = stablehlo.multiply %15, %15 : tensor<128x512xf32>
    %17 = stablehlo.reduce(%16 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %19 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %20 = stablehlo.divide %18, %19 : tensor<128x1xf32>
    %21 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %22 = stablehlo.subtract %7, %21 : tensor<128x512xf32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %24 = stablehlo.add %20, %23 : tensor<128x1xf32>
    %25 = stablehlo.rsqrt %24 : tensor<128x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %27 = stablehlo.multiply %22, %26 : tensor<128x512xf32>
    %28 = stablehlo.broadcast_in_dim %arg9, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %30 = stablehlo.multiply %27, %29 : tensor<128x512xf32>
    %31 = stablehlo.dot_general %30, %arg35, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %32 = stablehlo.slice %31 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %33 = stablehlo.slice %31 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %34 = stablehlo.slice %31 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %35 = stablehlo.reshape %32 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %37 = stablehlo.reshape %33 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %39 = stablehlo.reshape %34 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %40 = stablehlo.transpose %39, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %41 = stablehlo.transpose %38, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %42 = stablehlo.dot_general %36, %41, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %43 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %44 = stablehlo.divide %42, %43 : tensor<8x128x128xf32>
    %45 = call @_where(%9, %44, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %46 = stablehlo.reduce(%45 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %47 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %48 = stablehlo.maximum %47, %46 : tensor<8x128xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %51 = stablehlo.subtract %45, %50 : tensor<8x128x128xf32>
    %52 = stablehlo.exponential %51 : tensor<8x128x128xf32>
    %53 = stablehlo.reduce(%52 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %56 = stablehlo.divide %52, %55 : tensor<8x128x128xf32>
    %57 = stablehlo.dot_general %56, %40, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %58 = stablehlo.transpose %57, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %59 = stablehlo.reshape %58 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %60 = stablehlo.dot_general %59, %arg27, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %61 = stablehlo.add %7, %60 : tensor<128x512xf32>
    %62 = stablehlo.reduce(%61 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %64 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<128x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %67 = stablehlo.subtract %61, %66 : tensor<128x512xf32>
    %68 = stablehlo.multiply %67, %67 : tensor<128x512xf32>
    %69 = stablehlo.reduce(%68 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %71 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<128x1xf32>
    %73 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %74 = stablehlo.subtract %61, %73 : tensor<128x512xf32>
    %75 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %76 = stablehlo.add %72, %75 : tensor<128x1xf32>
    %77 = stablehlo.rsqrt %76 : tensor<128x1xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %79 = stablehlo.multiply %74, %78 : tensor<128x512xf32>
    %80 = stablehlo.broadcast_in_dim %arg17, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %82 = stablehlo.multiply %79, %81 : tensor<128x512xf32>
    %83 = stablehlo.dot_general %82, %arg43, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %84 = stablehlo.multiply %83, %83 : tensor<128x2048xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<128x2048xf32>
    %86 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<128x2048xf32>
    %88 = stablehlo.add %83, %87 : tensor<128x2048xf32>
    %89 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<128x2048xf32>
    %91 = stablehlo.tanh %90 : tensor<128x2048xf32>
    %92 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %93 = stablehlo.add %92, %91 : tensor<128x2048xf32>
    %94 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<128x2048xf32>
    %96 = stablehlo.multiply %83, %95 : tensor<128x2048xf32>
    %97 = stablehlo.dot_general %96, %arg0, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %98 = stablehlo.add %61, %97 : tensor<128x512xf32>
    %99 = stablehlo.reduce(%98 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %101 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %102 = stablehlo.divide %100, %101 : tensor<128x1xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %104 = stablehlo.subtract %98, %103 : tensor<128x512xf32>
    %105 = stablehlo.multiply %104, %104 : tensor<128x512xf32>
    %106 = stablehlo.reduce(%105 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %108 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %109 = stablehlo.divide %107, %108 : tensor<128x1xf32>
    %110 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %111 = stablehlo.subtract %98, %110 : tensor<128x512xf32>
    %112 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %113 = stablehlo.add %109, %112 : tensor<128x1xf32>
    %114 = stablehlo.rsqrt %113 : tensor<128x1xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %116 = stablehlo.multiply %111, %115 : tensor<128x512xf32>
    %117 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %119 = stablehlo.multiply %116, %118 : tensor<128x512xf32>
    %120 = stablehlo.dot_general %119, %arg36, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %121 = stablehlo.slice %120 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %122 = stablehlo.slice %120 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %123 = stablehlo.slice %120 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %124 = stablehlo.reshape %121 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %125 = stablehlo.transpose %124, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %126 = stablehlo.reshape %122 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %127 = stablehlo.transpose %126, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %128 = stablehlo.reshape %123 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %129 = stablehlo.transpose %128, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %130 = stablehlo.transpose %127, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %131 = stablehlo.dot_general %125, %130, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %132 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %133 = stablehlo.divide %131, %132 : tensor<8x128x128xf32>
    %134 = call @_where(%9, %133, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %135 = stablehlo.reduce(%134 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %136 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %137 = stablehlo.maximum %136, %135 : tensor<8x128xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %140 = stablehlo.subtract %134, %139 : tensor<8x128x128xf32>
    %141 = stablehlo.exponential %140 : tensor<8x128x128xf32>
    %142 = stablehlo.reduce(%141 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %145 = stablehlo.divide %141, %144 : tensor<8x128x128xf32>
    %146 = stablehlo.dot_general %145, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %147 = stablehlo.transpose %146, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %148 = stablehlo.reshape %147 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %149 = stablehlo.dot_general %148, %arg28, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %150 = stablehlo.add %98, %149 : tensor<128x512xf32>
    %151 = stablehlo.reduce(%150 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %153 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %154 = stablehlo.divide %152, %153 : tensor<128x1xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %156 = stablehlo.subtract %150, %155 : tensor<128x512xf32>
    %157 = stablehlo.multiply %156, %156 : tensor<128x512xf32>
    %158 = stablehlo.reduce(%157 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %160 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %161 = stablehlo.divide %159, %160 : tensor<128x1xf32>
    %162 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %163 = stablehlo.subtract %150, %162 : tensor<128x512xf32>
    %164 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %165 = stablehlo.add %161, %164 : tensor<128x1xf32>
    %166 = stablehlo.rsqrt %165 : tensor<128x1xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %168 = stablehlo.multiply %163, %167 : tensor<128x512xf32>
    %169 = stablehlo.broadcast_in_dim %arg18, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %171 = stablehlo.multiply %168, %170 : tensor<128x512xf32>
    %172 = stablehlo.dot_general %171, %arg44, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %173 = stablehlo.multiply %172, %172 : tensor<128x2048xf32>
    %174 = stablehlo.multiply %173, %172 : tensor<128x2048xf32>
    %175 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %176 = stablehlo.multiply %175, %174 : tensor<128x2048xf32>
    %177 = stablehlo.add %172, %176 : tensor<128x2048xf32>
    %178 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %179 = stablehlo.multiply %178, %177 : tensor<128x2048xf32>
    %180 = stablehlo.tanh %179 : tensor<128x2048xf32>
    %181 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %182 = stablehlo.add %181, %180 : tensor<128x2048xf32>
    %183 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %184 = stablehlo.multiply %183, %182 : tensor<128x2048xf32>
    %185 = stablehlo.multiply %172, %184 : tensor<128x2048xf32>
    %186 = stablehlo.dot_general %185, %arg1, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %187 = stablehlo.add %150, %186 : tensor<128x512xf32>
    %188 = stablehlo.reduce(%187 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %190 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %191 = stablehlo.divide %189, %190 : tensor<128x1xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %193 = stablehlo.subtract %187, %192 : tensor<128x512xf32>
    %194 = stablehlo.multiply %193, %193 : tensor<128x512xf32>
    %195 = stablehlo.reduce(%194 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %197 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %198 = stablehlo.divide %196, %197 : tensor<128x1xf32>
    %199 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %200 = stablehlo.subtract %187, %199 : tensor<128x512xf32>
    %201 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %202 = stablehlo.add %198, %201 : tensor<128x1xf32>
    %203 = stablehlo.rsqrt %202 : tensor<128x1xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %205 = stablehlo.multiply %200, %204 : tensor<128x512xf32>
    %206 = stablehlo.broadcast_in_dim %arg11, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %208 = stablehlo.multiply %205, %207 : tensor<128x512xf32>
    %209 = stablehlo.dot_general %208, %arg37, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %210 = stablehlo.slice %209 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %211 = stablehlo.slice %209 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %212 = stablehlo.slice %209 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %213 = stablehlo.reshape %210 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %214 = stablehlo.transpose %213, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %215 = stablehlo.reshape %211 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %216 = stablehlo.transpose %215, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %217 = stablehlo.reshape %212 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %218 = stablehlo.transpose %217, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %219 = stablehlo.transpose %216, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %220 = stablehlo.dot_general %214, %219, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %221 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %222 = stablehlo.divide %220, %221 : tensor<8x128x128xf32>
    %223 = call @_where(%9, %222, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %224 = stablehlo.reduce(%223 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %225 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %226 = stablehlo.maximum %225, %224 : tensor<8x128xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %229 = stablehlo.subtract %223, %228 : tensor<8x128x128xf32>
    %230 = stablehlo.exponential %229 : tensor<8x128x128xf32>
    %231 = stablehlo.reduce(%230 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %232 = stablehlo.broadcast_in_dim %231, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %234 = stablehlo.divide %230, %233 : tensor<8x128x128xf32>
    %235 = stablehlo.dot_general %234, %218, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %236 = stablehlo.transpose %235, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %237 = stablehlo.reshape %236 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %238 = stablehlo.dot_general %237, %arg29, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %239 = stablehlo.add %187, %238 : tensor<128x512xf32>
    %240 = stablehlo.reduce(%239 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %242 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %243 = stablehlo.divide %241, %242 : tensor<128x1xf32>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %245 = stablehlo.subtract %239, %244 : tensor<128x512xf32>
    %246 = stablehlo.multiply %245, %245 : tensor<128x512xf32>
    %247 = stablehlo.reduce(%246 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %248 = stablehlo.broadcast_in_dim %247, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %249 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %250 = stablehlo.divide %248, %249 : tensor<128x1xf32>
    %251 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %252 = stablehlo.subtract %239, %251 : tensor<128x512xf32>
    %253 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %254 = stablehlo.add %250, %253 : tensor<128x1xf32>
    %255 = stablehlo.rsqrt %254 : tensor<128x1xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %257 = stablehlo.multiply %252, %256 : tensor<128x512xf32>
    %258 = stablehlo.broadcast_in_dim %arg19, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %260 = stablehlo.multiply %257, %259 : tensor<128x512xf32>
    %261 = stablehlo.dot_general %260, %arg45, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %262 = stablehlo.multiply %261, %261 : tensor<128x2048xf32>
    %263 = stablehlo.multiply %262, %261 : tensor<128x2048xf32>
    %264 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %265 = stablehlo.multiply %264, %263 : tensor<128x2048xf32>
    %266 = stablehlo.add %261, %265 : tensor<128x2048xf32>
    %267 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %268 = stablehlo.multiply %267, %266 : tensor<128x2048xf32>
    %269 = stablehlo.tanh %268 : tensor<128x2048xf32>
    %270 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %271 = stablehlo.add %270, %269 : tensor<128x2048xf32>
    %272 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %273 = stablehlo.multiply %272, %271 : tensor<128x2048xf32>
    %274 = stablehlo.multiply %261, %273 : tensor<128x2048xf32>
    %275 = stablehlo.dot_general %274, %arg2, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %276 = stablehlo.add %239, %275 : tensor<128x512xf32>
    %277 = stablehlo.reduce(%276 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %279 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %280 = stablehlo.divide %278, %279 : tensor<128x1xf32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %282 = stablehlo.subtract %276, %281 : tensor<128x512xf32>
    %283 = stablehlo.multiply %282, %282 : tensor<128x512xf32>
    %284 = stablehlo.reduce(%283 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %286 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %287 = stablehlo.divide %285, %286 : tensor<128x1xf32>
    %288 = stablehlo.broadcast_in_dim %280, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %289 = stablehlo.subtract %276, %288 : tensor<128x512xf32>
    %290 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %291 = stablehlo.add %287, %290 : tensor<128x1xf32>
    %292 = stablehlo.rsqrt %291 : tensor<128x1xf32>
    %293 = stablehlo.broadcast_in_dim %292, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %294 = stablehlo.multiply %289, %293 : tensor<128x512xf32>
    %295 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %296 = stablehlo.broadcast_in_dim %295, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %297 = stablehlo.multiply %294, %296 : tensor<128x512xf32>
    %298 = stablehlo.dot_general %297, %arg38, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %299 = stablehlo.slice %298 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %300 = stablehlo.slice %298 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %301 = stablehlo.slice %298 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %302 = stablehlo.reshape %299 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %303 = stablehlo.transpose %302, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %304 = stablehlo.reshape %300 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %305 = stablehlo.transpose %304, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %306 = stablehlo.reshape %301 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %307 = stablehlo.transpose %306, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %308 = stablehlo.transpose %305, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %309 = stablehlo.dot_general %303, %308, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %310 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %311 = stablehlo.divide %309, %310 : tensor<8x128x128xf32>
    %312 = call @_where(%9, %311, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %313 = stablehlo.reduce(%312 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %314 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %315 = stablehlo.maximum %314, %313 : tensor<8x128xf32>
    %316 = stablehlo.broadcast_in_dim %315, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %318 = stablehlo.subtract %312, %317 : tensor<8x128x128xf32>
    %319 = stablehlo.exponential %318 : tensor<8x128x128xf32>
    %320 = stablehlo.reduce(%319 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %321 = stablehlo.broadcast_in_dim %320, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %323 = stablehlo.divide %319, %322 : tensor<8x128x128xf32>
    %324 = stablehlo.dot_general %323, %307, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %325 = stablehlo.transpose %324, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %326 = stablehlo.reshape %325 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %327 = stablehlo.dot_general %326, %arg30, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %328 = stablehlo.add %276, %327 : tensor<128x512xf32>
    %329 = stablehlo.reduce(%328 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %330 = stablehlo.broadcast_in_dim %329, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %331 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %332 = stablehlo.divide %330, %331 : tensor<128x1xf32>
    %333 = stablehlo.broadcast_in_dim %332, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %334 = stablehlo.subtract %328, %333 : tensor<128x512xf32>
    %335 = stablehlo.multiply %334, %334 : tensor<128x512xf32>
    %336 = stablehlo.reduce(%335 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %337 = stablehlo.broadcast_in_dim %336, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %338 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %339 = stablehlo.divide %337, %338 : tensor<128x1xf32>
    %340 = stablehlo.broadcast_in_dim %332, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %341 = stablehlo.subtract %328, %340 : tensor<128x512xf32>
    %342 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %343 = stablehlo.add %339, %342 : tensor<128x1xf32>
    %344 = stablehlo.rsqrt %343 : tensor<128x1xf32>
    %345 = stablehlo.broadcast_in_dim %344, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %346 = stablehlo.multiply %341, %345 : tensor<128x512xf32>
    %347 = stablehlo.broadcast_in_dim %arg20, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %348 = stablehlo.broadcast_in_dim %347, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %349 = stablehlo.multiply %346, %348 : tensor<128x512xf32>
    %350 = stablehlo.dot_general %349, %arg46, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %351 = stablehlo.multiply %350, %350 : tensor<128x2048xf32>
    %352 = stablehlo.multiply %351, %350 : tensor<128x2048xf32>
    %353 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %354 = stablehlo.multiply %353, %352 : tensor<128x2048xf32>
    %355 = stablehlo.add %350, %354 : tensor<128x2048xf32>
    %356 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %357 = stablehlo.multiply %356, %355 : tensor<128x2048xf32>
    %358 = stablehlo.tanh %357 : tensor<128x2048xf32>
    %359 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %360 = stablehlo.add %359, %358 : tensor<128x2048xf32>
    %361 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %362 = stablehlo.multiply %361, %360 : tensor<128x2048xf32>
    %363 = stablehlo.multiply %350, %362 : tensor<128x2048xf32>
    %364 = stablehlo.dot_general %363, %arg3, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %365 = stablehlo.add %328, %364 : tensor<128x512xf32>
    %366 = stablehlo.reduce(%365 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %367 = stablehlo.broadcast_in_dim %366, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %368 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %369 = stablehlo.divide %367, %368 : tensor<128x1xf32>
    %370 = stablehlo.broadcast_in_dim %369, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %371 = stablehlo.subtract %365, %370 : tensor<128x512xf32>
    %372 = stablehlo.multiply %371, %371 : tensor<128x512xf32>
    %373 = stablehlo.reduce(%372 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %374 = stablehlo.broadcast_in_dim %373, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %375 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %376 = stablehlo.divide %374, %375 : tensor<128x1xf32>
    %377 = stablehlo.broadcast_in_dim %369, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %378 = stablehlo.subtract %365, %377 : tensor<128x512xf32>
    %379 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %380 = stablehlo.add %376, %379 : tensor<128x1xf32>
    %381 = stablehlo.rsqrt %380 : tensor<128x1xf32>
    %382 = stablehlo.broadcast_in_dim %381, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %383 = stablehlo.multiply %378, %382 : tensor<128x512xf32>
    %384 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %385 = stablehlo.broadcast_in_dim %384, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %386 = stablehlo.multiply %383, %385 : tensor<128x512xf32>
    %387 = stablehlo.dot_general %386, %arg39, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %388 = stablehlo.slice %387 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %389 = stablehlo.slice %387 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %390 = stablehlo.slice %387 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %391 = stablehlo.reshape %388 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %392 = stablehlo.transpose %391, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %393 = stablehlo.reshape %389 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %394 = stablehlo.transpose %393, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %395 = stablehlo.reshape %390 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %396 = stablehlo.transpose %395, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %397 = stablehlo.transpose %394, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %398 = stablehlo.dot_general %392, %397, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %399 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %400 = stablehlo.divide %398, %399 : tensor<8x128x128xf32>
    %401 = call @_where(%9, %400, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %402 = stablehlo.reduce(%401 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %403 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %404 = stablehlo.maximum %403, %402 : tensor<8x128xf32>
    %405 = stablehlo.broadcast_in_dim %404, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %406 = stablehlo.broadcast_in_dim %405, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %407 = stablehlo.subtract %401, %406 : tensor<8x128x128xf32>
    %408 = stablehlo.exponential %407 : tensor<8x128x128xf32>
    %409 = stablehlo.reduce(%408 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %410 = stablehlo.broadcast_in_dim %409, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %411 = stablehlo.broadcast_in_dim %410, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %412 = stablehlo.divide %408, %411 : tensor<8x128x128xf32>
    %413 = stablehlo.dot_general %412, %396, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %414 = stablehlo.transpose %413, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %415 = stablehlo.reshape %414 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %416 = stablehlo.dot_general %415, %arg31, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %417 = stablehlo.add %365, %416 : tensor<128x512xf32>
    %418 = stablehlo.reduce(%417 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %419 = stablehlo.broadcast_in_dim %418, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %420 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %421 = stablehlo.divide %419, %420 : tensor<128x1xf32>
    %422 = stablehlo.broadcast_in_dim %421, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %423 = stablehlo.subtract %417, %422 : tensor<128x512xf32>
    %424 = stablehlo.multiply %423, %423 : tensor<128x512xf32>
    %425 = stablehlo.reduce(%424 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %426 = stablehlo.broadcast_in_dim %425, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %427 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %428 = stablehlo.divide %426, %427 : tensor<128x1xf32>
    %429 = stablehlo.broadcast_in_dim %421, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %430 = stablehlo.subtract %417, %429 : tensor<128x512xf32>
    %431 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %432 = stablehlo.add %428, %431 : tensor<128x1xf32>
    %433 = stablehlo.rsqrt %432 : tensor<128x1xf32>
    %434 = stablehlo.broadcast_in_dim %433, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %435 = stablehlo.multiply %430, %434 : tensor<128x512xf32>
    %436 = stablehlo.broadcast_in_dim %arg21, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %437 = stablehlo.broadcast_in_dim %436, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %438 = stablehlo.multiply %435, %437 : tensor<128x512xf32>
    %439 = stablehlo.dot_general %438, %arg47, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %440 = stablehlo.multiply %439, %439 : tensor<128x2048xf32>
    %441 = stablehlo.multiply %440, %439 : tensor<128x2048xf32>
    %442 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %443 = stablehlo.multiply %442, %441 : tensor<128x2048xf32>
    %444 = stablehlo.add %439, %443 : tensor<128x2048xf32>
    %445 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %446 = stablehlo.multiply %445, %444 : tensor<128x2048xf32>
    %447 = stablehlo.tanh %446 : tensor<128x2048xf32>
    %448 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %449 = stablehlo.add %448, %447 : tensor<128x2048xf32>
    %450 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %451 = stablehlo.multiply %450, %449 : tensor<128x2048xf32>
    %452 = stablehlo.multiply %439, %451 : tensor<128x2048xf32>
    %453 = stablehlo.dot_general %452, %arg4, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %454 = stablehlo.add %417, %453 : tensor<128x512xf32>
    %455 = stablehlo.reduce(%454 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %456 = stablehlo.broadcast_in_dim %455, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %457 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %458 = stablehlo.divide %456, %457 : tensor<128x1xf32>
    %459 = stablehlo.broadcast_in_dim %458, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %460 = stablehlo.subtract %454, %459 : tensor<128x512xf32>
    %461 = stablehlo.multiply %460, %460 : tensor<128x512xf32>
    %462 = stablehlo.reduce(%461 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %463 = stablehlo.broadcast_in_dim %462, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %464 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %465 = stablehlo.divide %463, %464 : tensor<128x1xf32>
    %466 = stablehlo.broadcast_in_dim %458, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %467 = stablehlo.subtract %454, %466 : tensor<128x512xf32>
    %468 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %469 = stablehlo.add %465, %468 : tensor<128x1xf32>
    %470 = stablehlo.rsqrt %469 : tensor<128x1xf32>
    %471 = stablehlo.broadcast_in_dim %470, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %472 = stablehlo.multiply %467, %471 : tensor<128x512xf32>
    %473 = stablehlo.broadcast_in_dim %arg14, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %474 = stablehlo.broadcast_in_dim %473, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %475 = stablehlo.multiply %472, %474 : tensor<128x512xf32>
    %476 = stablehlo.dot_general %475, %arg40, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %477 = stablehlo.slice %476 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %478 = stablehlo.slice %476 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %479 = stablehlo.slice %476 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %480 = stablehlo.reshape %477 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %481 = stablehlo.transpose %480, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %482 = stablehlo.reshape %478 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %483 = stablehlo.transpose %482, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %484 = stablehlo.reshape %479 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %485 = stablehlo.transpose %484, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %486 = stablehlo.transpose %483, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %487 = stablehlo.dot_general %481, %486, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %488 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %489 = stablehlo.divide %487, %488 : tensor<8x128x128xf32>
    %490 = call @_where(%9, %489, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %491 = stablehlo.reduce(%490 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %492 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %493 = stablehlo.maximum %492, %491 : tensor<8x128xf32>
    %494 = stablehlo.broadcast_in_dim %493, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %495 = stablehlo.broadcast_in_dim %494, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %496 = stablehlo.subtract %490, %495 : tensor<8x128x128xf32>
    %497 = stablehlo.exponential %496 : tensor<8x128x128xf32>
    %498 = stablehlo.reduce(%497 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %499 = stablehlo.broadcast_in_dim %498, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %500 = stablehlo.broadcast_in_dim %499, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %501 = stablehlo.divide %497, %500 : tensor<8x128x128xf32>
    %502 = stablehlo.dot_general %501, %485, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %503 = stablehlo.transpose %502, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %504 = stablehlo.reshape %503 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %505 = stablehlo.dot_general %504, %arg32, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %506 = stablehlo.add %454, %505 : tensor<128x512xf32>
    %507 = stablehlo.reduce(%506 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %508 = stablehlo.broadcast_in_dim %507, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %509 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %510 = stablehlo.divide %508, %509 : tensor<128x1xf32>
    %511 = stablehlo.broadcast_in_dim %510, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %512 = stablehlo.subtract %506, %511 : tensor<128x512xf32>
    %513 = stablehlo.multiply %512, %512 : tensor<128x512xf32>
    %514 = stablehlo.reduce(%513 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %515 = stablehlo.broadcast_in_dim %514, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %516 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %517 = stablehlo.divide %515, %516 : tensor<128x1xf32>
    %518 = stablehlo.broadcast_in_dim %510, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %519 = stablehlo.subtract %506, %518 : tensor<128x512xf32>
    %520 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %521 = stablehlo.add %517, %520 : tensor<128x1xf32>
    %522 = stablehlo.rsqrt %521 : tensor<128x1xf32>
    %523 = stablehlo.broadcast_in_dim %522, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %524 = stablehlo.multiply %519, %523 : tensor<128x512xf32>
    %525 = stablehlo.broadcast_in_dim %arg22, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %526 = stablehlo.broadcast_in_dim %525, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %527 = stablehlo.multiply %524, %526 : tensor<128x512xf32>
    %528 = stablehlo.dot_general %527, %arg48, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %529 = stablehlo.multiply %528, %528 : tensor<128x2048xf32>
    %530 = stablehlo.multiply %529, %528 : tensor<128x2048xf32>
    %531 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %532 = stablehlo.multiply %531, %530 : tensor<128x2048xf32>
    %533 = stablehlo.add %528, %532 : tensor<128x2048xf32>
    %534 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %535 = stablehlo.multiply %534, %533 : tensor<128x2048xf32>
    %536 = stablehlo.tanh %535 : tensor<128x2048xf32>
    %537 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %538 = stablehlo.add %537, %536 : tensor<128x2048xf32>
    %539 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %540 = stablehlo.multiply %539, %538 : tensor<128x2048xf32>
    %541 = stablehlo.multiply %528, %540 : tensor<128x2048xf32>
    %542 = stablehlo.dot_general %541, %arg5, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %543 = stablehlo.add %506, %542 : tensor<128x512xf32>
    %544 = stablehlo.reduce(%543 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %545 = stablehlo.broadcast_in_dim %544, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %546 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %547 = stablehlo.divide %545, %546 : tensor<128x1xf32>
    %548 = stablehlo.broadcast_in_dim %547, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %549 = stablehlo.subtract %543, %548 : tensor<128x512xf32>
    %550 = stablehlo.multiply %549, %549 : tensor<128x512xf32>
    %551 = stablehlo.reduce(%550 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %552 = stablehlo.broadcast_in_dim %551, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %553 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %554 = stablehlo.divide %552, %553 : tensor<128x1xf32>
    %555 = stablehlo.broadcast_in_dim %547, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %556 = stablehlo.subtract %543, %555 : tensor<128x512xf32>
    %557 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %558 = stablehlo.add %554, %557 : tensor<128x1xf32>
    %559 = stablehlo.rsqrt %558 : tensor<128x1xf32>
    %560 = stablehlo.broadcast_in_dim %559, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %561 = stablehlo.multiply %556, %560 : tensor<128x512xf32>
    %562 = stablehlo.broadcast_in_dim %arg15, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %563 = stablehlo.broadcast_in_dim %562, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %564 = stablehlo.multiply %561, %563 : tensor<128x512xf32>
    %565 = stablehlo.dot_general %564, %arg41, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %566 = stablehlo.slice %565 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %567 = stablehlo.slice %565 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %568 = stablehlo.slice %565 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %569 = stablehlo.reshape %566 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %570 = stablehlo.transpose %569, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %571 = stablehlo.reshape %567 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %572 = stablehlo.transpose %571, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %573 = stablehlo.reshape %568 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %574 = stablehlo.transpose %573, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %575 = stablehlo.transpose %572, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %576 = stablehlo.dot_general %570, %575, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %577 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %578 = stablehlo.divide %576, %577 : tensor<8x128x128xf32>
    %579 = call @_where(%9, %578, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %580 = stablehlo.reduce(%579 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %581 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %582 = stablehlo.maximum %581, %580 : tensor<8x128xf32>
    %583 = stablehlo.broadcast_in_dim %582, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %584 = stablehlo.broadcast_in_dim %583, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %585 = stablehlo.subtract %579, %584 : tensor<8x128x128xf32>
    %586 = stablehlo.exponential %585 : tensor<8x128x128xf32>
    %587 = stablehlo.reduce(%586 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %588 = stablehlo.broadcast_in_dim %587, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %589 = stablehlo.broadcast_in_dim %588, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %590 = stablehlo.divide %586, %589 : tensor<8x128x128xf32>
    %591 = stablehlo.dot_general %590, %574, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %592 = stablehlo.transpose %591, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %593 = stablehlo.reshape %592 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %594 = stablehlo.dot_general %593, %arg33, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %595 = stablehlo.add %543, %594 : tensor<128x512xf32>
    %596 = stablehlo.reduce(%595 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %597 = stablehlo.broadcast_in_dim %596, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %598 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %599 = stablehlo.divide %597, %598 : tensor<128x1xf32>
    %600 = stablehlo.broadcast_in_dim %599, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %601 = stablehlo.subtract %595, %600 : tensor<128x512xf32>
    %602 = stablehlo.multiply %601, %601 : tensor<128x512xf32>
    %603 = stablehlo.reduce(%602 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %604 = stablehlo.broadcast_in_dim %603, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %605 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %606 = stablehlo.divide %604, %605 : tensor<128x1xf32>
    %607 = stablehlo.broadcast_in_dim %599, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %608 = stablehlo.subtract %595, %607 : tensor<128x512xf32>
    %609 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %610 = stablehlo.add %606, %609 : tensor<128x1xf32>
    %611 = stablehlo.rsqrt %610 : tensor<128x1xf32>
    %612 = stablehlo.broadcast_in_dim %611, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %613 = stablehlo.multiply %608, %612 : tensor<128x512xf32>
    %614 = stablehlo.broadcast_in_dim %arg23, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %615 = stablehlo.broadcast_in_dim %614, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %616 = stablehlo.multiply %613, %615 : tensor<128x512xf32>
    %617 = stablehlo.dot_general %616, %arg49, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %618 = stablehlo.multiply %617, %617 : tensor<128x2048xf32>
    %619 = stablehlo.multiply %618, %617 : tensor<128x2048xf32>
    %620 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %621 = stablehlo.multiply %620, %619 : tensor<128x2048xf32>
    %622 = stablehlo.add %617, %621 : tensor<128x2048xf32>
    %623 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %624 = stablehlo.multiply %623, %622 : tensor<128x2048xf32>
    %625 = stablehlo.tanh %624 : tensor<128x2048xf32>
    %626 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %627 = stablehlo.add %626, %625 : tensor<128x2048xf32>
    %628 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %629 = stablehlo.multiply %628, %627 : tensor<128x2048xf32>
    %630 = stablehlo.multiply %617, %629 : tensor<128x2048xf32>
    %631 = stablehlo.dot_general %630, %arg6, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %632 = stablehlo.add %595, %631 : tensor<128x512xf32>
    %633 = stablehlo.reduce(%632 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %634 = stablehlo.broadcast_in_dim %633, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %635 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %636 = stablehlo.divide %634, %635 : tensor<128x1xf32>
    %637 = stablehlo.broadcast_in_dim %636, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %638 = stablehlo.subtract %632, %637 : tensor<128x512xf32>
    %639 = stablehlo.multiply %638, %638 : tensor<128x512xf32>
    %640 = stablehlo.reduce(%639 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %641 = stablehlo.broadcast_in_dim %640, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %642 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %643 = stablehlo.divide %641, %642 : tensor<128x1xf32>
    %644 = stablehlo.broadcast_in_dim %636, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %645 = stablehlo.subtract %632, %644 : tensor<128x512xf32>
    %646 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %647 = stablehlo.add %643, %646 : tensor<128x1xf32>
    %648 = stablehlo.rsqrt %647 : tensor<128x1xf32>
    %649 = stablehlo.broadcast_in_dim %648, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %650 = stablehlo.multiply %645, %649 : tensor<128x512xf32>
    %651 = stablehlo.broadcast_in_dim %arg16, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %652 = stablehlo.broadcast_in_dim %651, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %653 = stablehlo.multiply %650, %652 : tensor<128x512xf32>
    %654 = stablehlo.dot_general %653, %arg42, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x1536xf32>) -> tensor<128x1536xf32>
    %655 = stablehlo.slice %654 [0:128, 0:512] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %656 = stablehlo.slice %654 [0:128, 512:1024] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %657 = stablehlo.slice %654 [0:128, 1024:1536] : (tensor<128x1536xf32>) -> tensor<128x512xf32>
    %658 = stablehlo.reshape %655 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %659 = stablehlo.transpose %658, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %660 = stablehlo.reshape %656 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %661 = stablehlo.transpose %660, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %662 = stablehlo.reshape %657 : (tensor<128x512xf32>) -> tensor<128x8x64xf32>
    %663 = stablehlo.transpose %662, dims = [1, 0, 2] : (tensor<128x8x64xf32>) -> tensor<8x128x64xf32>
    %664 = stablehlo.transpose %661, dims = [0, 2, 1] : (tensor<8x128x64xf32>) -> tensor<8x64x128xf32>
    %665 = stablehlo.dot_general %659, %664, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x64xf32>, tensor<8x64x128xf32>) -> tensor<8x128x128xf32>
    %666 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %667 = stablehlo.divide %665, %666 : tensor<8x128x128xf32>
    %668 = call @_where(%9, %667, %cst_4) : (tensor<128x128xi1>, tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128x128xf32>
    %669 = stablehlo.reduce(%668 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %670 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<8x128xf32>
    %671 = stablehlo.maximum %670, %669 : tensor<8x128xf32>
    %672 = stablehlo.broadcast_in_dim %671, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %673 = stablehlo.broadcast_in_dim %672, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %674 = stablehlo.subtract %668, %673 : tensor<8x128x128xf32>
    %675 = stablehlo.exponential %674 : tensor<8x128x128xf32>
    %676 = stablehlo.reduce(%675 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<8x128x128xf32>, tensor<f32>) -> tensor<8x128xf32>
    %677 = stablehlo.broadcast_in_dim %676, dims = [0, 1] : (tensor<8x128xf32>) -> tensor<8x128x1xf32>
    %678 = stablehlo.broadcast_in_dim %677, dims = [0, 1, 2] : (tensor<8x128x1xf32>) -> tensor<8x128x128xf32>
    %679 = stablehlo.divide %675, %678 : tensor<8x128x128xf32>
    %680 = stablehlo.dot_general %679, %663, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<8x128x128xf32>, tensor<8x128x64xf32>) -> tensor<8x128x64xf32>
    %681 = stablehlo.transpose %680, dims = [1, 0, 2] : (tensor<8x128x64xf32>) -> tensor<128x8x64xf32>
    %682 = stablehlo.reshape %681 : (tensor<128x8x64xf32>) -> tensor<128x512xf32>
    %683 = stablehlo.dot_general %682, %arg34, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    %684 = stablehlo.add %632, %683 : tensor<128x512xf32>
    %685 = stablehlo.reduce(%684 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %686 = stablehlo.broadcast_in_dim %685, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %687 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %688 = stablehlo.divide %686, %687 : tensor<128x1xf32>
    %689 = stablehlo.broadcast_in_dim %688, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %690 = stablehlo.subtract %684, %689 : tensor<128x512xf32>
    %691 = stablehlo.multiply %690, %690 : tensor<128x512xf32>
    %692 = stablehlo.reduce(%691 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %693 = stablehlo.broadcast_in_dim %692, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %694 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %695 = stablehlo.divide %693, %694 : tensor<128x1xf32>
    %696 = stablehlo.broadcast_in_dim %688, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %697 = stablehlo.subtract %684, %696 : tensor<128x512xf32>
    %698 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %699 = stablehlo.add %695, %698 : tensor<128x1xf32>
    %700 = stablehlo.rsqrt %699 : tensor<128x1xf32>
    %701 = stablehlo.broadcast_in_dim %700, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %702 = stablehlo.multiply %697, %701 : tensor<128x512xf32>
    %703 = stablehlo.broadcast_in_dim %arg24, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %704 = stablehlo.broadcast_in_dim %703, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %705 = stablehlo.multiply %702, %704 : tensor<128x512xf32>
    %706 = stablehlo.dot_general %705, %arg50, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x2048xf32>) -> tensor<128x2048xf32>
    %707 = stablehlo.multiply %706, %706 : tensor<128x2048xf32>
    %708 = stablehlo.multiply %707, %706 : tensor<128x2048xf32>
    %709 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %710 = stablehlo.multiply %709, %708 : tensor<128x2048xf32>
    %711 = stablehlo.add %706, %710 : tensor<128x2048xf32>
    %712 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %713 = stablehlo.multiply %712, %711 : tensor<128x2048xf32>
    %714 = stablehlo.tanh %713 : tensor<128x2048xf32>
    %715 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %716 = stablehlo.add %715, %714 : tensor<128x2048xf32>
    %717 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x2048xf32>
    %718 = stablehlo.multiply %717, %716 : tensor<128x2048xf32>
    %719 = stablehlo.multiply %706, %718 : tensor<128x2048xf32>
    %720 = stablehlo.dot_general %719, %arg7, contracting_dims = [1] x [0] : (tensor<128x2048xf32>, tensor<2048x512xf32>) -> tensor<128x512xf32>
    %721 = stablehlo.add %684, %720 : tensor<128x512xf32>
    %722 = stablehlo.reduce(%721 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %723 = stablehlo.broadcast_in_dim %722, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %724 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %725 = stablehlo.divide %723, %724 : tensor<128x1xf32>
    %726 = stablehlo.broadcast_in_dim %725, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %727 = stablehlo.subtract %721, %726 : tensor<128x512xf32>
    %728 = stablehlo.multiply %727, %727 : tensor<128x512xf32>
    %729 = stablehlo.reduce(%728 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x512xf32>, tensor<f32>) -> tensor<128xf32>
    %730 = stablehlo.broadcast_in_dim %729, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %731 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %732 = stablehlo.divide %730, %731 : tensor<128x1xf32>
    %733 = stablehlo.broadcast_in_dim %725, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %734 = stablehlo.subtract %721, %733 : tensor<128x512xf32>
    %735 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %736 = stablehlo.add %732, %735 : tensor<128x1xf32>
    %737 = stablehlo.rsqrt %736 : tensor<128x1xf32>
    %738 = stablehlo.broadcast_in_dim %737, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x512xf32>
    %739 = stablehlo.multiply %734, %738 : tensor<128x512xf32>
    %740 = stablehlo.broadcast_in_dim %arg25, dims = [1] : (tensor<512xf32>) -> tensor<1x512xf32>
    %741 = stablehlo.broadcast_in_dim %740, dims = [0, 1] : (tensor<1x512xf32>) -> tensor<128x512xf32>
    %742 = stablehlo.multiply %739, %741 : tensor<128x512xf32>
    %743 = stablehlo.transpose %arg8, dims = [1, 0] : (tensor<512x512xf32>) -> tensor<512x512xf32>
    %744 = stablehlo.dot_general %742, %743, contracting_dims = [1] x [0] : (tensor<128x512xf32>, tensor<512x512xf32>) -> tensor<128x512xf32>
    return %744 : tensor<128x512xf32>
  }
  func.func private @tril(%arg0: tensor<128x128xi1>) -> tensor<128x128xi1> {
    %c = stablehlo.constant dense<false> : tensor<i1>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.iota dim = 0 : tensor<128x128xi32>
    %1 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<128x128xi32>
    %2 = stablehlo.add %0, %1 : tensor<128x128xi32>
    %3 = stablehlo.iota dim = 1 : tensor<128x128xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<128x128xi32>, tensor<128x128xi32>) -> tensor<128x128xi1>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %6 = stablehlo.select %4, %arg0, %5 : tensor<128x128xi1>, tensor<128x128xi1>
    return %6 : tensor<128x128xi1>
  }
  func.func private @_where(%arg0: tensor<128x128xi1>, %arg1: tensor<8x128x128xf32>, %arg2: tensor<f32>) -> tensor<8x128x128xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<8x128x128xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<8x128x128xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<8x128x128xi1>, tensor<8x128x128xf32>
    return %3 : tensor<8x128x128xf32>
  }
}
