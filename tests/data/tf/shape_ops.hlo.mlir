module {
  func.func @__inference_f_497(%arg0: tensor<?x6xf32>) -> (tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>) attributes {allow_soft_placement = false} {
    %cst = arith.constant dense<1> : tensor<2xindex>
    %cst_0 = arith.constant dense<[1, 0]> : tensor<2xindex>
    %c6_i32 = arith.constant 6 : i32
    %c-1_i32 = arith.constant -1 : i32
    %c1_i32 = arith.constant 1 : i32
    %c6 = arith.constant 6 : index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %c_4 = stablehlo.constant dense<-1> : tensor<1xi32>
    %cst_5 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %cst_6 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %c_7 = stablehlo.constant dense<0> : tensor<2xi32>
    %c_8 = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
    %0 = stablehlo.negate %arg0 : tensor<?x6xf32>
    %1 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<?x6xf32>) -> tensor<6x?xf32>
    %dim = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %from_elements = tensor.from_elements %dim, %c1, %c6 : tensor<3xindex>
    %dim_9 = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %from_elements_10 = tensor.from_elements %c1, %dim_9, %c6 : tensor<3xindex>
    %dim_11 = tensor.dim %0, %c0 : tensor<?x6xf32>
    %from_elements_12 = tensor.from_elements %c1, %dim_11, %c6 : tensor<3xindex>
    %dim_13 = tensor.dim %arg0, %c0 : tensor<?x6xf32>
    %2 = stablehlo.dynamic_reshape %arg0, %from_elements : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<?x1x6xf32>
    %3 = stablehlo.dynamic_reshape %arg0, %from_elements_10 : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<1x?x6xf32>
    %4 = stablehlo.dynamic_reshape %0, %from_elements_12 : (tensor<?x6xf32>, tensor<3xindex>) -> tensor<1x?x6xf32>
    %5 = stablehlo.concatenate %3, %4, dim = 0 : (tensor<1x?x6xf32>, tensor<1x?x6xf32>) -> tensor<2x?x6xf32>
    %dim_14 = tensor.dim %2, %c0 : tensor<?x1x6xf32>
    %from_elements_15 = tensor.from_elements %dim_14, %c6 : tensor<2xindex>
    %6 = stablehlo.dynamic_reshape %arg0, %from_elements_15 : (tensor<?x6xf32>, tensor<2xindex>) -> tensor<?x6xf32>
    %7 = stablehlo.dynamic_broadcast_in_dim %cst_5, %from_elements_15, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x6xf32>
    %8 = stablehlo.add %6, %7 : tensor<?x6xf32>
    %9 = "tf.Reshape"(%arg0, %c_4) {device = ""} : (tensor<?x6xf32>, tensor<1xi32>) -> tensor<?xf32>
    %10 = "tf.StridedSlice"(%arg0, %c_7, %c_7, %c_8) <{begin_mask = 3 : i64, ellipsis_mask = 0 : i64, end_mask = 3 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<?x6xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
    %11 = shape.shape_of %arg0 : tensor<?x6xf32> -> tensor<2xindex>
    %12 = shape.shape_of %arg0 : tensor<?x6xf32> -> tensor<2xindex>
    %13 = arith.index_cast %11 : tensor<2xindex> to tensor<2xi32>
    %14 = arith.index_cast %dim_13 : index to i32
    %15 = stablehlo.slice %13 [0:1] : (tensor<2xi32>) -> tensor<1xi32>
    %16 = stablehlo.reshape %15 : (tensor<1xi32>) -> tensor<i32>
    %17 = stablehlo.concatenate %15, %c_2, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<3xi32>
    %18 = stablehlo.subtract %16, %c_3 : tensor<i32>
    %19 = stablehlo.reshape %18 : (tensor<i32>) -> tensor<1xi32>
    %20 = stablehlo.concatenate %19, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %21 = stablehlo.dynamic_broadcast_in_dim %cst_6, %12, dims = [] : (tensor<f32>, tensor<2xindex>) -> tensor<?x6xf32>
    %22 = stablehlo.multiply %arg0, %21 : tensor<?x6xf32>
    %23 = stablehlo.concatenate %arg0, %22, dim = 1 : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x12xf32>
    %24 = "tf.Reshape"(%arg0, %17) {device = ""} : (tensor<?x6xf32>, tensor<3xi32>) -> tensor<?x2x3xf32>
    %extracted = tensor.extract %20[%c0] : tensor<2xi32>
    %extracted_16 = tensor.extract %20[%c1] : tensor<2xi32>
    %25 = arith.cmpi eq, %extracted, %c-1_i32 : i32
    %26 = arith.addi %extracted, %c1_i32 : i32
    %27 = arith.select %25, %14, %26 : i32
    %28 = arith.index_cast %27 : i32 to index
    %29 = arith.cmpi eq, %extracted_16, %c-1_i32 : i32
    %30 = arith.select %29, %c6_i32, %extracted_16 : i32
    %31 = arith.index_cast %30 : i32 to index
    %from_elements_17 = tensor.from_elements %28, %31 : tensor<2xindex>
    %32 = stablehlo.real_dynamic_slice %arg0, %cst_0, %from_elements_17, %cst : (tensor<?x6xf32>, tensor<2xindex>, tensor<2xindex>, tensor<2xindex>) -> tensor<?x4xf32>
    %33 = shape.shape_of %23 : tensor<?x12xf32> -> tensor<2xindex>
    %34 = arith.index_cast %33 : tensor<2xindex> to tensor<2xi32>
    return %24, %32, %10, %23, %8, %1, %5, %9, %34 : tensor<?x2x3xf32>, tensor<?x4xf32>, tensor<?x3xf32>, tensor<?x12xf32>, tensor<?x6xf32>, tensor<6x?xf32>, tensor<2x?x6xf32>, tensor<?xf32>, tensor<2xi32>
  }
}
