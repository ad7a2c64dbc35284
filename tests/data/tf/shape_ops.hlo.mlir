module {
  func.func @__inference_f_60(%arg0: tensor<?x6xf32>) -> (tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>, tensor<?x6xf32>, tensor<?x6xf32>) attributes {allow_soft_placement = false} {
    %cst = arith.constant dense<[1, 0]> : tensor<2xindex>
    %c6_i32 = arith.constant 6 : i32
    %c-1_i32 = arith.constant -1 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst_0 = arith.constant dense<1> : tensor<2xindex>
    %cst_1 = arith.constant dense<0> : tensor<2xindex>
    %c6 = arith.constant 6 : index
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<[1, -1]> : tensor<2xi32>
    %c_5 = stablehlo.constant dense<1> : tensor<i32>
    %c_6 = stablehlo.constant dense<-1> : tensor<1xi32>
    %cst_7 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %c_8 = stablehlo.constant dense<0> : tensor<i32>
    %cst_9 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c_10 = stablehlo.constant dense<0> : tensor<2xi32>
    %c_11 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %0 = stablehlo.negate %arg0 : tensor<?x6xf32>
    %1 = stablehlo.negate %arg0 : tensor<?x6xf32>
    %2 = stablehlo.concatenate %arg0, %1, dim = 0 : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
    %3 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x6xf32>) -> tensor<6x?xf32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %from_elements = tensor.from_elements %dim, %c1, %c6 : tensor<3xindex>
    %dim_12 = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %from_elements_13 = tensor.from_elements %c1, %dim_12, %c6 : tensor<3xindex>
    %dim_14 = tensor.dim %0, %c0 : tensor<?x6xf32>
    %from_elements_15 = tensor.from_elements %c1, %dim_14, %c6 : tensor<3xindex>
    %dim_16 = tensor.dim %2, %c0 : tensor<?x6xf32>
    %dim_17 = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %4 = stablehlo.dynamic_reshape %arg0, %from_elements : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<?x1x6xf32>
    %5 = stablehlo.dynamic_reshape %arg0, %from_elements_13 : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<1x?x6xf32>
    %6 = stablehlo.dynamic_reshape %0, %from_elements_15 : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<1x?x6xf32>
    %7 = stablehlo.concatenate %5, %6, dim = 0 : (tensor<1x?x6xf32>, tensor<1x?x6xf32>) -> tensor<2x?x6xf32>
    %dim_18 = tensor.dim %4, %c0 : tensor<?x1x6xf32>
    %from_elements_19 = tensor.from_elements %dim_18, %c6 : tensor<2xindex>
    %8 = stablehlo.dynamic_reshape %arg0, %from_elements_19 : (tensor<?x6xf32>, tensor<2xindex>) -> tensor<?x6xf32>
    %9 = stablehlo.dynamic_broadcast_in_dim %cst_7, %from_elements_19, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x6xf32>
    %10 = stablehlo.add %8, %9 : tensor<?x6xf32>
    %11 = arith.divsi %dim_16, %c2 : index
    %12 = arith.muli %11, %c2 : index
    %13 = arith.index_cast %dim_17 : index to i32
    %from_elements_20 = tensor.from_elements %11, %c6 : tensor<2xindex>
    %from_elements_21 = tensor.from_elements %11, %c0 : tensor<2xindex>
    %from_elements_22 = tensor.from_elements %12, %c6 : tensor<2xindex>
    %14 = stablehlo.real_dynamic_slice %2, %cst_1, %from_elements_20, %cst_0 : (tensor<?x6xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x6xf32>
    %15 = stablehlo.real_dynamic_slice %2, %from_elements_21, %from_elements_22, %cst_0 : (tensor<?x6xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x6xf32>
    %16 = shape.shape_of %14 : tensor<?x6xf32> -> tensor<2xindex>
    %17 = shape.shape_of %15 : tensor<?x6xf32> -> tensor<2xindex>
    %18 = shape.cstr_broadcastable %16, %17 : tensor<2xindex>, tensor<2xindex>
    %19 = shape.assuming %18 -> (tensor<?x6xf32>) {
      %46 = shape.shape_of %14 : tensor<?x6xf32> -> tensor<2xindex>
      %47 = shape.shape_of %15 : tensor<?x6xf32> -> tensor<2xindex>
      %48 = shape.broadcast %46, %47 : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
      %49 = stablehlo.dynamic_broadcast_in_dim %14, %48, dims = [0, 1] : (tensor<?x6xf32>, tensor<2xindex>) -> tensor<?x6xf32>
      %50 = stablehlo.dynamic_broadcast_in_dim %15, %48, dims = [0, 1] : (tensor<?x6xf32>, tensor<2xindex>) -> tensor<?x6xf32>
      %51 = stablehlo.subtract %49, %50 : tensor<?x6xf32>
      shape.assuming_yield %51 : tensor<?x6xf32>
    }
    %20 = shape.shape_of %arg0 : tensor<?x6xf32> -> tensor<2xindex>
    %21 = shape.shape_of %arg0 : tensor<?x6xf32> -> tensor<2xindex>
    %22 = "tf.Reshape"(%arg0, %c_6) {device = ""} : (tensor<?x6xf32>, tensor<1xi32>) -> tensor<?xf32>
    %23:2 = "tf.SplitV"(%arg0, %c_4, %c_8) {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<i32>) -> (tensor<1x6xf32>, tensor<?x6xf32>)
    %24 = "tf.StridedSlice"(%arg0, %c_10, %c_10, %c_11) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
    %25 = arith.index_cast %20 : tensor<2xindex> to tensor<2xi32>
    %26 = stablehlo.slice %25 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %27 = stablehlo.reshape %26 : (tensor<1xi32>) -> tensor<i32>
    %28 = stablehlo.concatenate %26, %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %29 = stablehlo.subtract %27, %c_5 : tensor<i32>
    %30 = stablehlo.reshape %29 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %30, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %cst_9, %21, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x6xf32>
    %33 = stablehlo.multiply %arg0, %32 : tensor<?x6xf32>
    %34 = stablehlo.concatenate %arg0, %33, dim = 1 : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x12xf32>
    %35 = "tf.Reshape"(%arg0, %28) {device = ""} : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x2x3xf32>
    %extracted = tensor.extract %31[%c0] : tensor<2xi32>
    %extracted_23 = tensor.extract %31[%c1] : tensor<2xi32>
    %36 = arith.cmpi eq, %extracted, %c-1_i32 : i32
    %37 = arith.addi %extracted, %c1_i32 : i32
    %38 = arith.select %36, %13, %37 : i32
    %39 = arith.index_cast %38 : i32 to index
    %40 = arith.cmpi eq, %extracted_23, %c-1_i32 : i32
    %41 = arith.select %40, %c6_i32, %extracted_23 : i32
    %42 = arith.index_cast %41 : i32 to index
    %from_elements_24 = tensor.from_elements %39, %42 : tensor<2xindex>
    %43 = stablehlo.real_dynamic_slice %arg0, %cst, %from_elements_24, %cst_0 : (tensor<?x6xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
    %44 = shape.shape_of %34 : tensor<?x12xf32> -> tensor<2xindex>
    %45 = arith.index_cast %44 : tensor<2xindex> to tensor<2xi32>
    return %35, %43, %24, %34, %10, %3, %7, %22, %45, %19, %23#1 : tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>, tensor<?x6xf32>, tensor<?x6xf32>
  }
}
