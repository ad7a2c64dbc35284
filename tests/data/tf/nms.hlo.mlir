module {
  func.func @__inference_f_25(%arg0: tensor<24x4xf32>, %arg1: tensor<24xf32>) -> (tensor<?xi32>, tensor<5xi32>, tensor<i32>, tensor<?xi32>, tensor<?xf32>) attributes {allow_soft_placement = false} {
    %c = stablehlo.constant dense<0> : tensor<24xi32>
    %c_0 = stablehlo.constant dense<1> : tensor<24xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<24xf32>
    %cst_1 = stablehlo.constant dense<1.000000e-01> : tensor<24xf32>
    %c_2 = stablehlo.constant dense<true> : tensor<24xi1>
    %cst_3 = stablehlo.constant dense<5.000000e-01> : tensor<24x24xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<24x24xf32>
    %c_5 = stablehlo.constant dense<false> : tensor<1x1xi1>
    %c_6 = stablehlo.constant dense<1> : tensor<i32>
    %c_7 = stablehlo.constant dense<5> : tensor<i32>
    %c_8 = stablehlo.constant dense<20> : tensor<i32>
    %cst_9 = stablehlo.constant dense<3.000000e-01> : tensor<f32>
    %cst_10 = stablehlo.constant dense<2.000000e-01> : tensor<f32>
    %c_11 = stablehlo.constant dense<24> : tensor<i32>
    %cst_12 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_13 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c_14 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<24xf32>) -> tensor<4x24xf32>
    %1 = stablehlo.transpose %arg0, dims = [1, 0] {result_layout = dense<[0, 1]> : tensor<2xindex>, xla_shape = "f32[4,24]{0,1}"} : (tensor<24x4xf32>) -> tensor<4x24xf32>
    %2:2 = "stablehlo.sort"(%0, %1) <{dimension = 1 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
      %61 = stablehlo.compare  GT, %arg2, %arg3,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %61 : tensor<i1>
    }) : (tensor<4x24xf32>, tensor<4x24xf32>) -> (tensor<4x24xf32>, tensor<4x24xf32>)
    %3 = stablehlo.slice %2#1 [1:2, 0:24] : (tensor<4x24xf32>) -> tensor<1x24xf32>
    %4 = stablehlo.reshape %3 : (tensor<1x24xf32>) -> tensor<24xf32>
    %5 = stablehlo.slice %2#1 [3:4, 0:24] : (tensor<4x24xf32>) -> tensor<1x24xf32>
    %6 = stablehlo.reshape %5 : (tensor<1x24xf32>) -> tensor<24xf32>
    %7 = stablehlo.compare  LE, %4, %6 : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %8 = stablehlo.select %7, %6, %4 : tensor<24xi1>, tensor<24xf32>
    %9 = stablehlo.broadcast_in_dim %8, dims = [1] : (tensor<24xf32>) -> tensor<24x24xf32>
    %10 = stablehlo.broadcast_in_dim %8, dims = [0] : (tensor<24xf32>) -> tensor<24x24xf32>
    %11 = stablehlo.minimum %9, %10 : tensor<24x24xf32>
    %12 = stablehlo.compare  LE, %4, %6 : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %13 = stablehlo.select %12, %4, %6 : tensor<24xi1>, tensor<24xf32>
    %14 = stablehlo.broadcast_in_dim %13, dims = [1] : (tensor<24xf32>) -> tensor<24x24xf32>
    %15 = stablehlo.broadcast_in_dim %13, dims = [0] : (tensor<24xf32>) -> tensor<24x24xf32>
    %16 = stablehlo.maximum %14, %15 : tensor<24x24xf32>
    %17 = stablehlo.subtract %11, %16 : tensor<24x24xf32>
    %18 = stablehlo.maximum %17, %cst_4 : tensor<24x24xf32>
    %19 = stablehlo.slice %2#1 [0:1, 0:24] : (tensor<4x24xf32>) -> tensor<1x24xf32>
    %20 = stablehlo.reshape %19 : (tensor<1x24xf32>) -> tensor<24xf32>
    %21 = stablehlo.slice %2#1 [2:3, 0:24] : (tensor<4x24xf32>) -> tensor<1x24xf32>
    %22 = stablehlo.reshape %21 : (tensor<1x24xf32>) -> tensor<24xf32>
    %23 = stablehlo.compare  LE, %20, %22 : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %24 = stablehlo.select %23, %22, %20 : tensor<24xi1>, tensor<24xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [1] : (tensor<24xf32>) -> tensor<24x24xf32>
    %26 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<24xf32>) -> tensor<24x24xf32>
    %27 = stablehlo.minimum %25, %26 : tensor<24x24xf32>
    %28 = stablehlo.compare  LE, %20, %22 : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %29 = stablehlo.select %28, %20, %22 : tensor<24xi1>, tensor<24xf32>
    %30 = stablehlo.broadcast_in_dim %29, dims = [1] : (tensor<24xf32>) -> tensor<24x24xf32>
    %31 = stablehlo.broadcast_in_dim %29, dims = [0] : (tensor<24xf32>) -> tensor<24x24xf32>
    %32 = stablehlo.maximum %30, %31 : tensor<24x24xf32>
    %33 = stablehlo.subtract %27, %32 : tensor<24x24xf32>
    %34 = stablehlo.maximum %33, %cst_4 : tensor<24x24xf32>
    %35 = stablehlo.multiply %18, %34 : tensor<24x24xf32>
    %36 = stablehlo.subtract %24, %29 : tensor<24xf32>
    %37 = stablehlo.subtract %8, %13 : tensor<24xf32>
    %38 = stablehlo.multiply %36, %37 : tensor<24xf32>
    %39 = stablehlo.broadcast_in_dim %38, dims = [1] : (tensor<24xf32>) -> tensor<24x24xf32>
    %40 = stablehlo.broadcast_in_dim %38, dims = [0] : (tensor<24xf32>) -> tensor<24x24xf32>
    %41 = stablehlo.add %39, %40 : tensor<24x24xf32>
    %42 = stablehlo.subtract %41, %35 : tensor<24x24xf32>
    %43 = stablehlo.divide %35, %42 : tensor<24x24xf32>
    %44 = stablehlo.compare  GT, %43, %cst_3 : (tensor<24x24xf32>, tensor<24x24xf32>) -> tensor<24x24xi1>
    %45:3 = stablehlo.while(%iterArg = %c_14, %iterArg_17 = %c_14, %iterArg_18 = %c_2) : tensor<i32>, tensor<i32>, tensor<24xi1>
    cond {
      %61 = stablehlo.compare  LT, %iterArg, %c_11 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %62 = stablehlo.compare  LT, %iterArg_17, %c_7 : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %63 = stablehlo.and %61, %62 : tensor<i1>
      stablehlo.return %63 : tensor<i1>
    } do {
      %61 = stablehlo.add %iterArg, %c_6 : tensor<i32>
      %62 = stablehlo.dynamic_slice %iterArg_18, %iterArg, sizes = [1] : (tensor<24xi1>, tensor<i32>) -> tensor<1xi1>
      %63 = stablehlo.reshape %62 : (tensor<1xi1>) -> tensor<i1>
      %64 = stablehlo.add %iterArg_17, %c_6 : tensor<i32>
      %65 = stablehlo.select %63, %64, %iterArg_17 : tensor<i1>, tensor<i32>
      %66 = stablehlo.broadcast_in_dim %63, dims = [] : (tensor<i1>) -> tensor<24xi1>
      %67 = stablehlo.dynamic_slice %44, %iterArg, %c_14, sizes = [1, 24] : (tensor<24x24xi1>, tensor<i32>, tensor<i32>) -> tensor<1x24xi1>
      %68 = stablehlo.dynamic_update_slice %67, %c_5, %c_14, %iterArg : (tensor<1x24xi1>, tensor<1x1xi1>, tensor<i32>, tensor<i32>) -> tensor<1x24xi1>
      %69 = stablehlo.reshape %68 : (tensor<1x24xi1>) -> tensor<24xi1>
      %70 = stablehlo.not %69 : tensor<24xi1>
      %71 = stablehlo.and %iterArg_18, %70 : tensor<24xi1>
      %72 = stablehlo.select %66, %71, %iterArg_18 : tensor<24xi1>, tensor<24xi1>
      stablehlo.return %61, %65, %72 : tensor<i32>, tensor<i32>, tensor<24xi1>
    }
    %46 = stablehlo.iota dim = 0 : tensor<24xi32>
    %47:2 = "stablehlo.sort"(%arg1, %46) <{dimension = 0 : i64, is_stable = false}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %61 = stablehlo.compare  GT, %arg2, %arg3,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %61 : tensor<i1>
    }) : (tensor<24xf32>, tensor<24xi32>) -> (tensor<24xf32>, tensor<24xi32>)
    %48 = stablehlo.compare  GT, %47#0, %cst_1 : (tensor<24xf32>, tensor<24xf32>) -> tensor<24xi1>
    %49 = stablehlo.and %48, %45#2 : tensor<24xi1>
    %50 = stablehlo.broadcast_in_dim %45#0, dims = [] : (tensor<i32>) -> tensor<24xi32>
    %51 = stablehlo.compare  LT, %46, %50 : (tensor<24xi32>, tensor<24xi32>) -> tensor<24xi1>
    %52 = stablehlo.and %49, %51 : tensor<24xi1>
    %53 = stablehlo.select %52, %47#0, %cst : tensor<24xi1>, tensor<24xf32>
    %54 = stablehlo.iota dim = 0 : tensor<24xi32>
    %55:2 = "stablehlo.sort"(%53, %54) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<i32>, %arg5: tensor<i32>):
      %61 = stablehlo.compare  GT, %arg2, %arg3,  TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %61 : tensor<i1>
    }) : (tensor<24xf32>, tensor<24xi32>) -> (tensor<24xf32>, tensor<24xi32>)
    %56 = stablehlo.slice %55#1 [0:5] : (tensor<24xi32>) -> tensor<5xi32>
    %57 = "stablehlo.gather"(%47#1, %56) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<24xi32>, tensor<5xi32>) -> tensor<5xi32>
    %58 = stablehlo.select %52, %c_0, %c : tensor<24xi1>, tensor<24xi32>
    %59 = stablehlo.reduce(%58 init: %c_14) applies stablehlo.add across dimensions = [0] : (tensor<24xi32>, tensor<i32>) -> tensor<i32>
    %60 = stablehlo.minimum %59, %c_7 : tensor<i32>
    %selected_indices, %valid_outputs = "tf.NonMaxSuppressionV4"(%arg0, %arg1, %c_8, %cst_9, %cst_10) <{pad_to_max_output_size = false}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>) -> (tensor<?xi32>, tensor<i32>)
    %selected_indices_15, %selected_scores, %valid_outputs_16 = "tf.NonMaxSuppressionV5"(%arg0, %arg1, %c_11, %cst_10, %cst_12, %cst_13) <{pad_to_max_output_size = false}> {device = ""} : (tensor<24x4xf32>, tensor<24xf32>, tensor<i32>, tensor<f32>, tensor<f32>, tensor<f32>) -> (tensor<?xi32>, tensor<?xf32>, tensor<i32>)
    return %selected_indices, %57, %60, %selected_indices_15, %selected_scores : tensor<?xi32>, tensor<5xi32>, tensor<i32>, tensor<?xi32>, tensor<?xf32>
  }
}
