module @jit_f attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<1024x256xf32>, %arg1: tensor<1024x256xf32>, %arg2: tensor<1024x256xf32>, %arg3: tensor<1024x256xf32>, %arg4: tensor<512x256xf32>, %arg5: tensor<256xf32>, %arg6: tensor<256xf32>, %arg7: tensor<256xf32>, %arg8: tensor<256xf32>, %arg9: tensor<256xf32>, %arg10: tensor<256xf32>, %arg11: tensor<256xf32>, %arg12: tensor<256xf32>, %arg13: tensor<256xf32>, %arg14: tensor<128x256xf32>, %arg15: tensor<256x256xf32>, %arg16: tensor<256x256xf32>, %arg17: tensor<256x256xf32>, %arg18: tensor<256x256xf32>, %arg19: tensor<256x768xf32>, %arg20: tensor<256x768xf32>, %arg21: tensor<256x768xf32>, %arg22: tensor<256x768xf32>, %arg23: tensor<256x1024xf32>, %arg24: tensor<256x1024xf32>, %arg25: tensor<256x1024xf32>, %arg26: tensor<256x1024xf32>, %arg27: tensor<128xi32>) -> (tensor<128x512xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.797884583> : tensor<f32>
    %cst_2 = stablehlo.constant dense<4.471500e-02> : tensor<f32>
    %cst_3 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_4 = stablehlo.constant dense<-1.000000e+09> : tensor<f32>
    %cst_5 = stablehlo.constant dense<8.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %cst_7 = stablehlo.constant dense<2.560000e+02> : tensor<f32>
    %cst_8 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<true> : tensor<i1>
    %c_9 = stablehlo.constant dense<512> : tensor<i32>
    %c_10 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_10, dims = [] : (tensor<i32>) -> tensor<128xi32>
    %1 = stablehlo.compare LT, %arg27, %0, SIGNED : (tensor<128xi32>, tensor<128xi32>) -> tensor<128xi1>
    %2 = stablehlo.broadcast_in_dim %c_9, dims = [] : (tensor<i32>) -> tensor<128xi32>
    %3 = stablehlo.add %arg27, %2 : tensor<128xi32>
    %4 = stablehlo.select %1, %3, %arg27 : tensor<128xi1>, tensor<128xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0] : (tensor<128xi32>) -> tensor<128x1xi32>
    %6 = "stablehlo.gather"(%arg4, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, slice_sizes = array<i64: 1, 256>}> : (tensor<512x256xf32>, tensor<128x1xi32>) -> tensor<128x256xf32>
    %7 = stablehlo.add %6, %arg14 : tensor<128x256xf32>
    %8 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i1>) -> tensor<128x128xi1>
    %9 = call @tril(%8) : (tensor<128x128xi1>) -> tensor<128x128xi1>
    %10 = stablehlo.reduce(%7 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %11 = stablehlo.broadcast_in_dim %10, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %12 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %13 = stablehlo.divide %11, %12 : tensor<128x1xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %15 = stablehlo.subtract %7, %14 : tensor<128x256xf32>
    %16 = stablehlo.multiply %15, %15 : tensor<128x256xf32>
    %17 = stablehlo.reduce(%16 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %18 = stablehlo.broadcast_in_dim %17, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %19 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %20 = stablehlo.divide %18, %19 : tensor<128x1xf32>
    %21 = stablehlo.broadcast_in_dim %13, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %22 = stablehlo.subtract %7, %21 : tensor<128x256xf32>
    %23 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %24 = stablehlo.add %20, %23 : tensor<128x1xf32>
    %25 = stablehlo.rsqrt %24 : tensor<128x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %27 = stablehlo.multiply %22, %26 : tensor<128x256xf32>
    %28 = stablehlo.broadcast_in_dim %arg5, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %29 = stablehlo.broadcast_in_dim %28, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %30 = stablehlo.multiply %27, %29 : tensor<128x256xf32>
    %31 = stablehlo.dot_general %30, %arg19, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x768xf32>) -> tensor<128x768xf32>
    %32 = stablehlo.slice %31 [0:128, 0:256] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %33 = stablehlo.slice %31 [0:128, 256:512] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %34 = stablehlo.slice %31 [0:128, 512:768] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %35 = stablehlo.reshape %32 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %36 = stablehlo.transpose %35, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %37 = stablehlo.reshape %33 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %38 = stablehlo.transpose %37, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %39 = stablehlo.reshape %34 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %40 = stablehlo.transpose %39, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %41 = stablehlo.transpose %38, dims = [0, 2, 1] : (tensor<4x128x64xf32>) -> tensor<4x64x128xf32>
    %42 = stablehlo.dot_general %36, %41, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x64xf32>, tensor<4x64x128xf32>) -> tensor<4x128x128xf32>
    %43 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %44 = stablehlo.divide %42, %43 : tensor<4x128x128xf32>
    %45 = call @_where(%9, %44, %cst_4) : (tensor<128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %46 = stablehlo.reduce(%45 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %47 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %48 = stablehlo.maximum %47, %46 : tensor<4x128xf32>
    %49 = stablehlo.broadcast_in_dim %48, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %50 = stablehlo.broadcast_in_dim %49, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %51 = stablehlo.subtract %45, %50 : tensor<4x128x128xf32>
    %52 = stablehlo.exponential %51 : tensor<4x128x128xf32>
    %53 = stablehlo.reduce(%52 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %54 = stablehlo.broadcast_in_dim %53, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %55 = stablehlo.broadcast_in_dim %54, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %56 = stablehlo.divide %52, %55 : tensor<4x128x128xf32>
    %57 = stablehlo.dot_general %56, %40, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %58 = stablehlo.transpose %57, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %59 = stablehlo.reshape %58 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %60 = stablehlo.dot_general %59, %arg15, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %61 = stablehlo.add %7, %60 : tensor<128x256xf32>
    %62 = stablehlo.reduce(%61 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %63 = stablehlo.broadcast_in_dim %62, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %64 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %65 = stablehlo.divide %63, %64 : tensor<128x1xf32>
    %66 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %67 = stablehlo.subtract %61, %66 : tensor<128x256xf32>
    %68 = stablehlo.multiply %67, %67 : tensor<128x256xf32>
    %69 = stablehlo.reduce(%68 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %70 = stablehlo.broadcast_in_dim %69, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %71 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %72 = stablehlo.divide %70, %71 : tensor<128x1xf32>
    %73 = stablehlo.broadcast_in_dim %65, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %74 = stablehlo.subtract %61, %73 : tensor<128x256xf32>
    %75 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %76 = stablehlo.add %72, %75 : tensor<128x1xf32>
    %77 = stablehlo.rsqrt %76 : tensor<128x1xf32>
    %78 = stablehlo.broadcast_in_dim %77, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %79 = stablehlo.multiply %74, %78 : tensor<128x256xf32>
    %80 = stablehlo.broadcast_in_dim %arg9, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %81 = stablehlo.broadcast_in_dim %80, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %82 = stablehlo.multiply %79, %81 : tensor<128x256xf32>
    %83 = stablehlo.dot_general %82, %arg23, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x1024xf32>) -> tensor<128x1024xf32>
    %84 = stablehlo.multiply %83, %83 : tensor<128x1024xf32>
    %85 = stablehlo.multiply %84, %83 : tensor<128x1024xf32>
    %86 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %87 = stablehlo.multiply %86, %85 : tensor<128x1024xf32>
    %88 = stablehlo.add %83, %87 : tensor<128x1024xf32>
    %89 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %90 = stablehlo.multiply %89, %88 : tensor<128x1024xf32>
    %91 = stablehlo.tanh %90 : tensor<128x1024xf32>
    %92 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %93 = stablehlo.add %92, %91 : tensor<128x1024xf32>
    %94 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %95 = stablehlo.multiply %94, %93 : tensor<128x1024xf32>
    %96 = stablehlo.multiply %83, %95 : tensor<128x1024xf32>
    %97 = stablehlo.dot_general %96, %arg0, contracting_dims = [1] x [0] : (tensor<128x1024xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
    %98 = stablehlo.add %61, %97 : tensor<128x256xf32>
    %99 = stablehlo.reduce(%98 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %100 = stablehlo.broadcast_in_dim %99, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %101 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %102 = stablehlo.divide %100, %101 : tensor<128x1xf32>
    %103 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %104 = stablehlo.subtract %98, %103 : tensor<128x256xf32>
    %105 = stablehlo.multiply %104, %104 : tensor<128x256xf32>
    %106 = stablehlo.reduce(%105 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %107 = stablehlo.broadcast_in_dim %106, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %108 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %109 = stablehlo.divide %107, %108 : tensor<128x1xf32>
    %110 = stablehlo.broadcast_in_dim %102, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %111 = stablehlo.subtract %98, %110 : tensor<128x256xf32>
    %112 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %113 = stablehlo.add %109, %112 : tensor<128x1xf32>
    %114 = stablehlo.rsqrt %113 : tensor<128x1xf32>
    %115 = stablehlo.broadcast_in_dim %114, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %116 = stablehlo.multiply %111, %115 : tensor<128x256xf32>
    %117 = stablehlo.broadcast_in_dim %arg6, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %118 = stablehlo.broadcast_in_dim %117, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %119 = stablehlo.multiply %116, %118 : tensor<128x256xf32>
    %120 = stablehlo.dot_general %119, %arg20, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x768xf32>) -> tensor<128x768xf32>
    %121 = stablehlo.slice %120 [0:128, 0:256] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %122 = stablehlo.slice %120 [0:128, 256:512] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %123 = stablehlo.slice %120 [0:128, 512:768] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %124 = stablehlo.reshape %121 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %125 = stablehlo.transpose %124, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %126 = stablehlo.reshape %122 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %127 = stablehlo.transpose %126, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %128 = stablehlo.reshape %123 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %129 = stablehlo.transpose %128, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %130 = stablehlo.transpose %127, dims = [0, 2, 1] : (tensor<4x128x64xf32>) -> tensor<4x64x128xf32>
    %131 = stablehlo.dot_general %125, %130, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x64xf32>, tensor<4x64x128xf32>) -> tensor<4x128x128xf32>
    %132 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %133 = stablehlo.divide %131, %132 : tensor<4x128x128xf32>
    %134 = call @_where(%9, %133, %cst_4) : (tensor<128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %135 = stablehlo.reduce(%134 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %136 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %137 = stablehlo.maximum %136, %135 : tensor<4x128xf32>
    %138 = stablehlo.broadcast_in_dim %137, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %139 = stablehlo.broadcast_in_dim %138, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %140 = stablehlo.subtract %134, %139 : tensor<4x128x128xf32>
    %141 = stablehlo.exponential %140 : tensor<4x128x128xf32>
    %142 = stablehlo.reduce(%141 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %143 = stablehlo.broadcast_in_dim %142, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %144 = stablehlo.broadcast_in_dim %143, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %145 = stablehlo.divide %141, %144 : tensor<4x128x128xf32>
    %146 = stablehlo.dot_general %145, %129, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %147 = stablehlo.transpose %146, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %148 = stablehlo.reshape %147 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %149 = stablehlo.dot_general %148, %arg16, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %150 = stablehlo.add %98, %149 : tensor<128x256xf32>
    %151 = stablehlo.reduce(%150 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %152 = stablehlo.broadcast_in_dim %151, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %153 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %154 = stablehlo.divide %152, %153 : tensor<128x1xf32>
    %155 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %156 = stablehlo.subtract %150, %155 : tensor<128x256xf32>
    %157 = stablehlo.multiply %156, %156 : tensor<128x256xf32>
    %158 = stablehlo.reduce(%157 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %159 = stablehlo.broadcast_in_dim %158, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %160 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %161 = stablehlo.divide %159, %160 : tensor<128x1xf32>
    %162 = stablehlo.broadcast_in_dim %154, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %163 = stablehlo.subtract %150, %162 : tensor<128x256xf32>
    %164 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %165 = stablehlo.add %161, %164 : tensor<128x1xf32>
    %166 = stablehlo.rsqrt %165 : tensor<128x1xf32>
    %167 = stablehlo.broadcast_in_dim %166, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %168 = stablehlo.multiply %163, %167 : tensor<128x256xf32>
    %169 = stablehlo.broadcast_in_dim %arg10, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %170 = stablehlo.broadcast_in_dim %169, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %171 = stablehlo.multiply %168, %170 : tensor<128x256xf32>
    %172 = stablehlo.dot_general %171, %arg24, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x1024xf32>) -> tensor<128x1024xf32>
    %173 = stablehlo.multiply %172, %172 : tensor<128x1024xf32>
    %174 = stablehlo.multiply %173, %172 : tensor<128x1024xf32>
    %175 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %176 = stablehlo.multiply %175, %174 : tensor<128x1024xf32>
    %177 = stablehlo.add %172, %176 : tensor<128x1024xf32>
    %178 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %179 = stablehlo.multiply %178, %177 : tensor<128x1024xf32>
    %180 = stablehlo.tanh %179 : tensor<128x1024xf32>
    %181 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %182 = stablehlo.add %181, %180 : tensor<128x1024xf32>
    %183 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %184 = stablehlo.multiply %183, %182 : tensor<128x1024xf32>
    %185 = stablehlo.multiply %172, %184 : tensor<128x1024xf32>
    %186 = stablehlo.dot_general %185, %arg1, contracting_dims = [1] x [0] : (tensor<128x1024xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
    %187 = stablehlo.add %150, %186 : tensor<128x256xf32>
    %188 = stablehlo.reduce(%187 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %189 = stablehlo.broadcast_in_dim %188, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %190 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %191 = stablehlo.divide %189, %190 : tensor<128x1xf32>
    %192 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %193 = stablehlo.subtract %187, %192 : tensor<128x256xf32>
    %194 = stablehlo.multiply %193, %193 : tensor<128x256xf32>
    %195 = stablehlo.reduce(%194 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %196 = stablehlo.broadcast_in_dim %195, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %197 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %198 = stablehlo.divide %196, %197 : tensor<128x1xf32>
    %199 = stablehlo.broadcast_in_dim %191, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %200 = stablehlo.subtract %187, %199 : tensor<128x256xf32>
    %201 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %202 = stablehlo.add %198, %201 : tensor<128x1xf32>
    %203 = stablehlo.rsqrt %202 : tensor<128x1xf32>
    %204 = stablehlo.broadcast_in_dim %203, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %205 = stablehlo.multiply %200, %204 : tensor<128x256xf32>
    %206 = stablehlo.broadcast_in_dim %arg7, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %207 = stablehlo.broadcast_in_dim %206, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %208 = stablehlo.multiply %205, %207 : tensor<128x256xf32>
    %209 = stablehlo.dot_general %208, %arg21, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x768xf32>) -> tensor<128x768xf32>
    %210 = stablehlo.slice %209 [0:128, 0:256] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %211 = stablehlo.slice %209 [0:128, 256:512] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %212 = stablehlo.slice %209 [0:128, 512:768] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %213 = stablehlo.reshape %210 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %214 = stablehlo.transpose %213, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %215 = stablehlo.reshape %211 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %216 = stablehlo.transpose %215, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %217 = stablehlo.reshape %212 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %218 = stablehlo.transpose %217, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %219 = stablehlo.transpose %216, dims = [0, 2, 1] : (tensor<4x128x64xf32>) -> tensor<4x64x128xf32>
    %220 = stablehlo.dot_general %214, %219, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x64xf32>, tensor<4x64x128xf32>) -> tensor<4x128x128xf32>
    %221 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %222 = stablehlo.divide %220, %221 : tensor<4x128x128xf32>
    %223 = call @_where(%9, %222, %cst_4) : (tensor<128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %224 = stablehlo.reduce(%223 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %225 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %226 = stablehlo.maximum %225, %224 : tensor<4x128xf32>
    %227 = stablehlo.broadcast_in_dim %226, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %228 = stablehlo.broadcast_in_dim %227, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %229 = stablehlo.subtract %223, %228 : tensor<4x128x128xf32>
    %230 = stablehlo.exponential %229 : tensor<4x128x128xf32>
    %231 = stablehlo.reduce(%230 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %232 = stablehlo.broadcast_in_dim %231, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %233 = stablehlo.broadcast_in_dim %232, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %234 = stablehlo.divide %230, %233 : tensor<4x128x128xf32>
    %235 = stablehlo.dot_general %234, %218, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %236 = stablehlo.transpose %235, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %237 = stablehlo.reshape %236 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %238 = stablehlo.dot_general %237, %arg17, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %239 = stablehlo.add %187, %238 : tensor<128x256xf32>
    %240 = stablehlo.reduce(%239 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %241 = stablehlo.broadcast_in_dim %240, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %242 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %243 = stablehlo.divide %241, %242 : tensor<128x1xf32>
    %244 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %245 = stablehlo.subtract %239, %244 : tensor<128x256xf32>
    %246 = stablehlo.multiply %245, %245 : tensor<128x256xf32>
    %247 = stablehlo.reduce(%246 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %248 = stablehlo.broadcast_in_dim %247, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %249 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %250 = stablehlo.divide %248, %249 : tensor<128x1xf32>
    %251 = stablehlo.broadcast_in_dim %243, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %252 = stablehlo.subtract %239, %251 : tensor<128x256xf32>
    %253 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %254 = stablehlo.add %250, %253 : tensor<128x1xf32>
    %255 = stablehlo.rsqrt %254 : tensor<128x1xf32>
    %256 = stablehlo.broadcast_in_dim %255, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %257 = stablehlo.multiply %252, %256 : tensor<128x256xf32>
    %258 = stablehlo.broadcast_in_dim %arg11, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %259 = stablehlo.broadcast_in_dim %258, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %260 = stablehlo.multiply %257, %259 : tensor<128x256xf32>
    %261 = stablehlo.dot_general %260, %arg25, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x1024xf32>) -> tensor<128x1024xf32>
    %262 = stablehlo.multiply %261, %261 : tensor<128x1024xf32>
    %263 = stablehlo.multiply %262, %261 : tensor<128x1024xf32>
    %264 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %265 = stablehlo.multiply %264, %263 : tensor<128x1024xf32>
    %266 = stablehlo.add %261, %265 : tensor<128x1024xf32>
    %267 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %268 = stablehlo.multiply %267, %266 : tensor<128x1024xf32>
    %269 = stablehlo.tanh %268 : tensor<128x1024xf32>
    %270 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %271 = stablehlo.add %270, %269 : tensor<128x1024xf32>
    %272 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %273 = stablehlo.multiply %272, %271 : tensor<128x1024xf32>
    %274 = stablehlo.multiply %261, %273 : tensor<128x1024xf32>
    %275 = stablehlo.dot_general %274, %arg2, contracting_dims = [1] x [0] : (tensor<128x1024xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
    %276 = stablehlo.add %239, %275 : tensor<128x256xf32>
    %277 = stablehlo.reduce(%276 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %278 = stablehlo.broadcast_in_dim %277, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %279 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %280 = stablehlo.divide %278, %279 : tensor<128x1xf32>
    %281 = stablehlo.broadcast_in_dim %280, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %282 = stablehlo.subtract %276, %281 : tensor<128x256xf32>
    %283 = stablehlo.multiply %282, %282 : tensor<128x256xf32>
    %284 = stablehlo.reduce(%283 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %285 = stablehlo.broadcast_in_dim %284, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %286 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %287 = stablehlo.divide %285, %286 : tensor<128x1xf32>
    %288 = stablehlo.broadcast_in_dim %280, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %289 = stablehlo.subtract %276, %288 : tensor<128x256xf32>
    %290 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %291 = stablehlo.add %287, %290 : tensor<128x1xf32>
    %292 = stablehlo.rsqrt %291 : tensor<128x1xf32>
    %293 = stablehlo.broadcast_in_dim %292, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %294 = stablehlo.multiply %289, %293 : tensor<128x256xf32>
    %295 = stablehlo.broadcast_in_dim %arg8, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %296 = stablehlo.broadcast_in_dim %295, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %297 = stablehlo.multiply %294, %296 : tensor<128x256xf32>
    %298 = stablehlo.dot_general %297, %arg22, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x768xf32>) -> tensor<128x768xf32>
    %299 = stablehlo.slice %298 [0:128, 0:256] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %300 = stablehlo.slice %298 [0:128, 256:512] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %301 = stablehlo.slice %298 [0:128, 512:768] : (tensor<128x768xf32>) -> tensor<128x256xf32>
    %302 = stablehlo.reshape %299 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %303 = stablehlo.transpose %302, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %304 = stablehlo.reshape %300 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %305 = stablehlo.transpose %304, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %306 = stablehlo.reshape %301 : (tensor<128x256xf32>) -> tensor<128x4x64xf32>
    %307 = stablehlo.transpose %306, dims = [1, 0, 2] : (tensor<128x4x64xf32>) -> tensor<4x128x64xf32>
    %308 = stablehlo.transpose %305, dims = [0, 2, 1] : (tensor<4x128x64xf32>) -> tensor<4x64x128xf32>
    %309 = stablehlo.dot_general %303, %308, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x64xf32>, tensor<4x64x128xf32>) -> tensor<4x128x128xf32>
    %310 = stablehlo.broadcast_in_dim %cst_5, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %311 = stablehlo.divide %309, %310 : tensor<4x128x128xf32>
    %312 = call @_where(%9, %311, %cst_4) : (tensor<128x128xi1>, tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128x128xf32>
    %313 = stablehlo.reduce(%312 init: %cst_3) applies stablehlo.maximum across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %314 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<4x128xf32>
    %315 = stablehlo.maximum %314, %313 : tensor<4x128xf32>
    %316 = stablehlo.broadcast_in_dim %315, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %317 = stablehlo.broadcast_in_dim %316, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %318 = stablehlo.subtract %312, %317 : tensor<4x128x128xf32>
    %319 = stablehlo.exponential %318 : tensor<4x128x128xf32>
    %320 = stablehlo.reduce(%319 init: %cst_8) applies stablehlo.add across dimensions = [2] : (tensor<4x128x128xf32>, tensor<f32>) -> tensor<4x128xf32>
    %321 = stablehlo.broadcast_in_dim %320, dims = [0, 1] : (tensor<4x128xf32>) -> tensor<4x128x1xf32>
    %322 = stablehlo.broadcast_in_dim %321, dims = [0, 1, 2] : (tensor<4x128x1xf32>) -> tensor<4x128x128xf32>
    %323 = stablehlo.divide %319, %322 : tensor<4x128x128xf32>
    %324 = stablehlo.dot_general %323, %307, batching_dims = [0] x [0], contracting_dims = [2] x [1] : (tensor<4x128x128xf32>, tensor<4x128x64xf32>) -> tensor<4x128x64xf32>
    %325 = stablehlo.transpose %324, dims = [1, 0, 2] : (tensor<4x128x64xf32>) -> tensor<128x4x64xf32>
    %326 = stablehlo.reshape %325 : (tensor<128x4x64xf32>) -> tensor<128x256xf32>
    %327 = stablehlo.dot_general %326, %arg18, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x256xf32>) -> tensor<128x256xf32>
    %328 = stablehlo.add %276, %327 : tensor<128x256xf32>
    %329 = stablehlo.reduce(%328 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %330 = stablehlo.broadcast_in_dim %329, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %331 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %332 = stablehlo.divide %330, %331 : tensor<128x1xf32>
    %333 = stablehlo.broadcast_in_dim %332, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %334 = stablehlo.subtract %328, %333 : tensor<128x256xf32>
    %335 = stablehlo.multiply %334, %334 : tensor<128x256xf32>
    %336 = stablehlo.reduce(%335 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %337 = stablehlo.broadcast_in_dim %336, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %338 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %339 = stablehlo.divide %337, %338 : tensor<128x1xf32>
    %340 = stablehlo.broadcast_in_dim %332, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %341 = stablehlo.subtract %328, %340 : tensor<128x256xf32>
    %342 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %343 = stablehlo.add %339, %342 : tensor<128x1xf32>
    %344 = stablehlo.rsqrt %343 : tensor<128x1xf32>
    %345 = stablehlo.broadcast_in_dim %344, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %346 = stablehlo.multiply %341, %345 : tensor<128x256xf32>
    %347 = stablehlo.broadcast_in_dim %arg12, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %348 = stablehlo.broadcast_in_dim %347, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %349 = stablehlo.multiply %346, %348 : tensor<128x256xf32>
    %350 = stablehlo.dot_general %349, %arg26, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x1024xf32>) -> tensor<128x1024xf32>
    %351 = stablehlo.multiply %350, %350 : tensor<128x1024xf32>
    %352 = stablehlo.multiply %351, %350 : tensor<128x1024xf32>
    %353 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %354 = stablehlo.multiply %353, %352 : tensor<128x1024xf32>
    %355 = stablehlo.add %350, %354 : tensor<128x1024xf32>
    %356 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %357 = stablehlo.multiply %356, %355 : tensor<128x1024xf32>
    %358 = stablehlo.tanh %357 : tensor<128x1024xf32>
    %359 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %360 = stablehlo.add %359, %358 : tensor<128x1024xf32>
    %361 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<128x1024xf32>
    %362 = stablehlo.multiply %361, %360 : tensor<128x1024xf32>
    %363 = stablehlo.multiply %350, %362 : tensor<128x1024xf32>
    %364 = stablehlo.dot_general %363, %arg3, contracting_dims = [1] x [0] : (tensor<128x1024xf32>, tensor<1024x256xf32>) -> tensor<128x256xf32>
    %365 = stablehlo.add %328, %364 : tensor<128x256xf32>
    %366 = stablehlo.reduce(%365 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %367 = stablehlo.broadcast_in_dim %366, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %368 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %369 = stablehlo.divide %367, %368 : tensor<128x1xf32>
    %370 = stablehlo.broadcast_in_dim %369, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %371 = stablehlo.subtract %365, %370 : tensor<128x256xf32>
    %372 = stablehlo.multiply %371, %371 : tensor<128x256xf32>
    %373 = stablehlo.reduce(%372 init: %cst_8) applies stablehlo.add across dimensions = [1] : (tensor<128x256xf32>, tensor<f32>) -> tensor<128xf32>
    %374 = stablehlo.broadcast_in_dim %373, dims = [0] : (tensor<128xf32>) -> tensor<128x1xf32>
    %375 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %376 = stablehlo.divide %374, %375 : tensor<128x1xf32>
    %377 = stablehlo.broadcast_in_dim %369, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %378 = stablehlo.subtract %365, %377 : tensor<128x256xf32>
    %379 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<128x1xf32>
    %380 = stablehlo.add %376, %379 : tensor<128x1xf32>
    %381 = stablehlo.rsqrt %380 : tensor<128x1xf32>
    %382 = stablehlo.broadcast_in_dim %381, dims = [0, 1] : (tensor<128x1xf32>) -> tensor<128x256xf32>
    %383 = stablehlo.multiply %378, %382 : tensor<128x256xf32>
    %384 = stablehlo.broadcast_in_dim %arg13, dims = [1] : (tensor<256xf32>) -> tensor<1x256xf32>
    %385 = stablehlo.broadcast_in_dim %384, dims = [0, 1] : (tensor<1x256xf32>) -> tensor<128x256xf32>
    %386 = stablehlo.multiply %383, %385 : tensor<128x256xf32>
    %387 = stablehlo.transpose %arg4, dims = [1, 0] : (tensor<512x256xf32>) -> tensor<256x512xf32>
    %388 = stablehlo.dot_general %386, %387, contracting_dims = [1] x [0] : (tensor<128x256xf32>, tensor<256x512xf32>) -> tensor<128x512xf32>
    return %388 : tensor<128x512xf32>
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
  func.func private @_where(%arg0: tensor<128x128xi1>, %arg1: tensor<4x128x128xf32>, %arg2: tensor<f32>) -> tensor<4x128x128xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %arg0, dims = [1, 2] : (tensor<128x128xi1>) -> tensor<4x128x128xi1>
    %2 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<4x128x128xf32>
    %3 = stablehlo.select %1, %arg1, %2 : tensor<4x128x128xi1>, tensor<4x128x128xf32>
    return %3 : tensor<4x128x128xf32>
  }
}
