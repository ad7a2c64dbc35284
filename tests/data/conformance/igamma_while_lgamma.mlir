module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.compare NE, %arg0, %arg0, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %1 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %2 = stablehlo.or %0, %1 : tensor<3x4xi1>
    %cst = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %4 = stablehlo.compare EQ, %arg1, %3, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %6 = stablehlo.compare EQ, %arg0, %5, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %7 = stablehlo.broadcast_in_dim %cst_1, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %8 = stablehlo.compare EQ, %arg1, %7, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %10 = stablehlo.compare LT, %arg1, %9, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %11 = stablehlo.broadcast_in_dim %cst_3, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %12 = stablehlo.compare LT, %arg0, %11, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %13 = stablehlo.and %6, %8 : tensor<3x4xi1>
    %14 = stablehlo.or %10, %12 : tensor<3x4xi1>
    %15 = stablehlo.or %14, %13 : tensor<3x4xi1>
    %16 = stablehlo.or %15, %2 : tensor<3x4xi1>
    %cst_4 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %17 = stablehlo.broadcast_in_dim %cst_4, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %18 = stablehlo.compare GE, %arg1, %17, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %19 = stablehlo.compare GT, %arg1, %arg0, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %20 = stablehlo.and %18, %19 : tensor<3x4xi1>
    %21 = stablehlo.log %arg1 : tensor<3x4xf32>
    %22 = stablehlo.multiply %arg0, %21 : tensor<3x4xf32>
    %23 = stablehlo.subtract %22, %arg1 : tensor<3x4xf32>
    %24 = chlo.lgamma %arg0 : tensor<3x4xf32> -> tensor<3x4xf32>
    %25 = stablehlo.subtract %23, %24 : tensor<3x4xf32>
    %cst_5 = stablehlo.constant dense<3.40282347E+38> : tensor<f32>
    %26 = stablehlo.log %cst_5 : tensor<f32>
    %27 = stablehlo.negate %26 : tensor<f32>
    %28 = stablehlo.broadcast_in_dim %27, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %29 = stablehlo.compare LT, %25, %28, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
    %30 = stablehlo.exponential %25 : tensor<3x4xf32>
    %31 = stablehlo.or %8, %16 : tensor<3x4xi1>
    %32 = stablehlo.or %31, %29 : tensor<3x4xi1>
    %33 = stablehlo.or %32, %4 : tensor<3x4xi1>
    %34 = stablehlo.not %33 : tensor<3x4xi1>
    %35 = stablehlo.and %34, %20 : tensor<3x4xi1>
    %cst_6 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %36 = stablehlo.broadcast_in_dim %cst_6, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %37 = stablehlo.subtract %36, %arg0 : tensor<3x4xf32>
    %38 = stablehlo.add %arg1, %37 : tensor<3x4xf32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %39 = stablehlo.broadcast_in_dim %cst_7, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %40 = stablehlo.add %38, %39 : tensor<3x4xf32>
    %cst_8 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %41 = stablehlo.broadcast_in_dim %cst_8, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_9 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %42 = stablehlo.broadcast_in_dim %cst_9, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %43 = stablehlo.add %arg1, %42 : tensor<3x4xf32>
    %44 = stablehlo.multiply %40, %arg1 : tensor<3x4xf32>
    %45 = stablehlo.divide %43, %44 : tensor<3x4xf32>
    %cst_10 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %46 = stablehlo.broadcast_in_dim %cst_10, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_11 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %47 = stablehlo.broadcast_in_dim %cst_11, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_12 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %48 = stablehlo.broadcast_in_dim %cst_12, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %49 = stablehlo.broadcast_in_dim %cst_13, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %50 = stablehlo.negate %arg1 : tensor<3x4xf32>
    %51 = stablehlo.multiply %45, %50 : tensor<3x4xf32>
    %52 = stablehlo.subtract %49, %51 : tensor<3x4xf32>
    %53 = stablehlo.divide %52, %44 : tensor<3x4xf32>
    %cst_14 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %54:15 = stablehlo.while(%iterArg = %35, %iterArg_23 = %45, %iterArg_24 = %46, %iterArg_25 = %37, %iterArg_26 = %40, %iterArg_27 = %cst_14, %iterArg_28 = %43, %iterArg_29 = %44, %iterArg_30 = %41, %iterArg_31 = %arg1, %iterArg_32 = %47, %iterArg_33 = %48, %iterArg_34 = %49, %iterArg_35 = %50, %iterArg_36 = %53) : tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<f32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    cond {
      %cst_37 = stablehlo.constant dense<2.000000e+03> : tensor<f32>
      %74 = stablehlo.compare LT, %iterArg_27, %cst_37, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %c = stablehlo.constant dense<false> : tensor<i1>
      %75 = stablehlo.reduce(%iterArg init: %c) applies stablehlo.or across dimensions = [0, 1] : (tensor<3x4xi1>, tensor<i1>) -> tensor<i1>
      %76 = stablehlo.and %74, %75 : tensor<i1>
      stablehlo.return %76 : tensor<i1>
    } do {
      %cst_37 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %74 = stablehlo.add %iterArg_27, %cst_37 : tensor<f32>
      %cst_38 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %75 = stablehlo.broadcast_in_dim %cst_38, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %76 = stablehlo.add %iterArg_25, %75 : tensor<3x4xf32>
      %cst_39 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %77 = stablehlo.broadcast_in_dim %cst_39, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %78 = stablehlo.add %iterArg_26, %77 : tensor<3x4xf32>
      %79 = stablehlo.broadcast_in_dim %74, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %80 = stablehlo.multiply %76, %79 : tensor<3x4xf32>
      %81 = stablehlo.multiply %iterArg_28, %78 : tensor<3x4xf32>
      %82 = stablehlo.multiply %iterArg_30, %80 : tensor<3x4xf32>
      %83 = stablehlo.subtract %81, %82 : tensor<3x4xf32>
      %84 = stablehlo.multiply %iterArg_29, %78 : tensor<3x4xf32>
      %85 = stablehlo.multiply %iterArg_31, %80 : tensor<3x4xf32>
      %86 = stablehlo.subtract %84, %85 : tensor<3x4xf32>
      %cst_40 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
      %87 = stablehlo.broadcast_in_dim %cst_40, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %88 = stablehlo.compare NE, %86, %87, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
      %89 = stablehlo.divide %83, %86 : tensor<3x4xf32>
      %90 = stablehlo.subtract %iterArg_23, %89 : tensor<3x4xf32>
      %91 = stablehlo.divide %90, %89 : tensor<3x4xf32>
      %92 = stablehlo.abs %91 : tensor<3x4xf32>
      %cst_41 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %93 = stablehlo.broadcast_in_dim %cst_41, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %94 = stablehlo.select %88, %92, %93 : tensor<3x4xi1>, tensor<3x4xf32>
      %95 = stablehlo.select %88, %89, %iterArg_23 : tensor<3x4xi1>, tensor<3x4xf32>
      %96 = stablehlo.multiply %iterArg_34, %78 : tensor<3x4xf32>
      %97 = stablehlo.subtract %96, %iterArg_28 : tensor<3x4xf32>
      %98 = stablehlo.multiply %iterArg_32, %80 : tensor<3x4xf32>
      %99 = stablehlo.subtract %97, %98 : tensor<3x4xf32>
      %100 = stablehlo.broadcast_in_dim %74, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %101 = stablehlo.multiply %iterArg_30, %100 : tensor<3x4xf32>
      %102 = stablehlo.add %99, %101 : tensor<3x4xf32>
      %103 = stablehlo.multiply %iterArg_35, %78 : tensor<3x4xf32>
      %104 = stablehlo.subtract %103, %iterArg_29 : tensor<3x4xf32>
      %105 = stablehlo.multiply %iterArg_33, %80 : tensor<3x4xf32>
      %106 = stablehlo.subtract %104, %105 : tensor<3x4xf32>
      %107 = stablehlo.broadcast_in_dim %74, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %108 = stablehlo.multiply %iterArg_31, %107 : tensor<3x4xf32>
      %109 = stablehlo.add %106, %108 : tensor<3x4xf32>
      %110 = stablehlo.multiply %95, %109 : tensor<3x4xf32>
      %111 = stablehlo.subtract %102, %110 : tensor<3x4xf32>
      %112 = stablehlo.divide %111, %86 : tensor<3x4xf32>
      %113 = stablehlo.select %88, %112, %iterArg_36 : tensor<3x4xi1>, tensor<3x4xf32>
      %114 = stablehlo.subtract %113, %iterArg_36 : tensor<3x4xf32>
      %115 = stablehlo.abs %114 : tensor<3x4xf32>
      %cst_42 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %116 = stablehlo.broadcast_in_dim %cst_42, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %117 = stablehlo.select %88, %115, %116 : tensor<3x4xi1>, tensor<3x4xf32>
      %118 = stablehlo.abs %83 : tensor<3x4xf32>
      %cst_43 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %cst_44 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %119 = stablehlo.broadcast_in_dim %cst_44, dims = [] : (tensor<f32>) -> tensor<f32>
      %120 = stablehlo.divide %119, %cst_43 : tensor<f32>
      %121 = stablehlo.broadcast_in_dim %120, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %122 = stablehlo.compare GT, %118, %121, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
      %cst_45 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %123 = stablehlo.broadcast_in_dim %cst_45, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %124 = stablehlo.multiply %iterArg_28, %123 : tensor<3x4xf32>
      %125 = stablehlo.select %122, %124, %iterArg_28 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_46 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %126 = stablehlo.broadcast_in_dim %cst_46, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %127 = stablehlo.multiply %83, %126 : tensor<3x4xf32>
      %128 = stablehlo.select %122, %127, %83 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_47 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %129 = stablehlo.broadcast_in_dim %cst_47, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %130 = stablehlo.multiply %iterArg_29, %129 : tensor<3x4xf32>
      %131 = stablehlo.select %122, %130, %iterArg_29 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_48 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %132 = stablehlo.broadcast_in_dim %cst_48, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %133 = stablehlo.multiply %86, %132 : tensor<3x4xf32>
      %134 = stablehlo.select %122, %133, %86 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_49 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %135 = stablehlo.broadcast_in_dim %cst_49, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %136 = stablehlo.multiply %iterArg_34, %135 : tensor<3x4xf32>
      %137 = stablehlo.select %122, %136, %iterArg_34 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_50 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %138 = stablehlo.broadcast_in_dim %cst_50, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %139 = stablehlo.multiply %iterArg_35, %138 : tensor<3x4xf32>
      %140 = stablehlo.select %122, %139, %iterArg_35 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_51 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %141 = stablehlo.broadcast_in_dim %cst_51, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %142 = stablehlo.multiply %102, %141 : tensor<3x4xf32>
      %143 = stablehlo.select %122, %142, %102 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_52 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %144 = stablehlo.broadcast_in_dim %cst_52, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %145 = stablehlo.multiply %109, %144 : tensor<3x4xf32>
      %146 = stablehlo.select %122, %145, %109 : tensor<3x4xi1>, tensor<3x4xf32>
      %cst_53 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %147 = stablehlo.broadcast_in_dim %cst_53, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %148 = stablehlo.compare GT, %94, %147, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
      %149 = stablehlo.and %iterArg, %148 : tensor<3x4xi1>
      %150 = stablehlo.select %iterArg, %95, %iterArg_23 : tensor<3x4xi1>, tensor<3x4xf32>
      %151 = stablehlo.select %iterArg, %94, %iterArg_24 : tensor<3x4xi1>, tensor<3x4xf32>
      %152 = stablehlo.select %iterArg, %76, %iterArg_25 : tensor<3x4xi1>, tensor<3x4xf32>
      %153 = stablehlo.select %iterArg, %78, %iterArg_26 : tensor<3x4xi1>, tensor<3x4xf32>
      %154 = stablehlo.select %iterArg, %128, %iterArg_28 : tensor<3x4xi1>, tensor<3x4xf32>
      %155 = stablehlo.select %iterArg, %134, %iterArg_29 : tensor<3x4xi1>, tensor<3x4xf32>
      %156 = stablehlo.select %iterArg, %125, %iterArg_30 : tensor<3x4xi1>, tensor<3x4xf32>
      %157 = stablehlo.select %iterArg, %131, %iterArg_31 : tensor<3x4xi1>, tensor<3x4xf32>
      %158 = stablehlo.select %iterArg, %137, %iterArg_32 : tensor<3x4xi1>, tensor<3x4xf32>
      %159 = stablehlo.select %iterArg, %140, %iterArg_33 : tensor<3x4xi1>, tensor<3x4xf32>
      %160 = stablehlo.select %iterArg, %143, %iterArg_34 : tensor<3x4xi1>, tensor<3x4xf32>
      %161 = stablehlo.select %iterArg, %146, %iterArg_35 : tensor<3x4xi1>, tensor<3x4xf32>
      %162 = stablehlo.select %iterArg, %113, %iterArg_36 : tensor<3x4xi1>, tensor<3x4xf32>
      stablehlo.return %149, %150, %151, %152, %153, %74, %154, %155, %156, %157, %158, %159, %160, %161, %162 : tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<f32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    }
    %55 = stablehlo.multiply %54#1, %30 : tensor<3x4xf32>
    %cst_15 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %56 = stablehlo.broadcast_in_dim %cst_15, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %57 = stablehlo.subtract %56, %55 : tensor<3x4xf32>
    %58 = stablehlo.not %20 : tensor<3x4xi1>
    %59 = stablehlo.and %34, %58 : tensor<3x4xi1>
    %cst_16 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %60 = stablehlo.broadcast_in_dim %cst_16, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_17 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %61 = stablehlo.broadcast_in_dim %cst_17, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_18 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %62 = stablehlo.broadcast_in_dim %cst_18, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_19 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %63 = stablehlo.broadcast_in_dim %cst_19, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %64:7 = stablehlo.while(%iterArg = %59, %iterArg_23 = %arg0, %iterArg_24 = %60, %iterArg_25 = %61, %iterArg_26 = %arg1, %iterArg_27 = %62, %iterArg_28 = %63) : tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    cond {
      %c = stablehlo.constant dense<false> : tensor<i1>
      %74 = stablehlo.reduce(%iterArg init: %c) applies stablehlo.or across dimensions = [0, 1] : (tensor<3x4xi1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %74 : tensor<i1>
    } do {
      %cst_29 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
      %74 = stablehlo.broadcast_in_dim %cst_29, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %75 = stablehlo.add %iterArg_23, %74 : tensor<3x4xf32>
      %76 = stablehlo.divide %iterArg_26, %75 : tensor<3x4xf32>
      %77 = stablehlo.multiply %iterArg_27, %76 : tensor<3x4xf32>
      %78 = stablehlo.multiply %iterArg_24, %iterArg_26 : tensor<3x4xf32>
      %79 = stablehlo.multiply %75, %75 : tensor<3x4xf32>
      %80 = stablehlo.divide %78, %79 : tensor<3x4xf32>
      %81 = stablehlo.subtract %77, %80 : tensor<3x4xf32>
      %82 = stablehlo.add %iterArg_28, %81 : tensor<3x4xf32>
      %83 = stablehlo.divide %iterArg_26, %75 : tensor<3x4xf32>
      %84 = stablehlo.multiply %iterArg_24, %83 : tensor<3x4xf32>
      %85 = stablehlo.add %iterArg_25, %84 : tensor<3x4xf32>
      %86 = stablehlo.divide %84, %85 : tensor<3x4xf32>
      %cst_30 = stablehlo.constant dense<1.1920929E-7> : tensor<f32>
      %87 = stablehlo.broadcast_in_dim %cst_30, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
      %88 = stablehlo.compare GT, %86, %87, FLOAT : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xi1>
      %89 = stablehlo.and %iterArg, %88 : tensor<3x4xi1>
      %90 = stablehlo.select %iterArg, %75, %iterArg_23 : tensor<3x4xi1>, tensor<3x4xf32>
      %91 = stablehlo.select %iterArg, %84, %iterArg_24 : tensor<3x4xi1>, tensor<3x4xf32>
      %92 = stablehlo.select %iterArg, %85, %iterArg_25 : tensor<3x4xi1>, tensor<3x4xf32>
      %93 = stablehlo.select %iterArg, %iterArg_26, %iterArg_26 : tensor<3x4xi1>, tensor<3x4xf32>
      %94 = stablehlo.select %iterArg, %81, %iterArg_27 : tensor<3x4xi1>, tensor<3x4xf32>
      %95 = stablehlo.select %iterArg, %82, %iterArg_28 : tensor<3x4xi1>, tensor<3x4xf32>
      stablehlo.return %89, %90, %91, %92, %93, %94, %95 : tensor<3x4xi1>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>, tensor<3x4xf32>
    }
    %65 = stablehlo.multiply %64#3, %30 : tensor<3x4xf32>
    %66 = stablehlo.divide %65, %arg0 : tensor<3x4xf32>
    %67 = stablehlo.select %20, %57, %66 : tensor<3x4xi1>, tensor<3x4xf32>
    %cst_20 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %68 = stablehlo.broadcast_in_dim %cst_20, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %69 = stablehlo.select %8, %68, %67 : tensor<3x4xi1>, tensor<3x4xf32>
    %cst_21 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %70 = stablehlo.broadcast_in_dim %cst_21, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %71 = stablehlo.select %4, %70, %69 : tensor<3x4xi1>, tensor<3x4xf32>
    %cst_22 = stablehlo.constant dense<0x7FC00000> : tensor<f32>
    %72 = stablehlo.broadcast_in_dim %cst_22, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %73 = stablehlo.select %16, %72, %71 : tensor<3x4xi1>, tensor<3x4xf32>
    return %73 : tensor<3x4xf32>
  }
}
