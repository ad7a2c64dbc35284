module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_1336(%arg0: tensor<?x4x4x2xf32>, %arg1: tensor<2x3x4xf32>, %arg2: tensor<2x4x5xf32>, %arg3: tensor<3x2xi32>, %arg4: tensor<i32>) -> (tensor<?x4x4x2xf32>, tensor<2x5x3xf32>, tensor<3x4xf32>, tensor<2x3x4xf32>, tensor<2x6x7xf32>, tensor<2x6x4xf32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "img,a,b,idx,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal"}} {
    %0:7 = tf_executor.graph {
      %outputs:3, %control = tf_executor._SwitchN %arg1, %arg4 of 3 : tensor<*xf32> {T = f32, device = ""}
      %outputs_0:3, %control_1 = tf_executor._SwitchN %arg4, %arg4 of 3 : tensor<*xi32> {T = i32, device = ""}
      %outputs_2, %control_3 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_11 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_12 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Identity"(%outputs#0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %2 = "tf.StridedSlice"(%1, %cst_11, %cst, %cst) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
        %3 = "tf.AddV2"(%2, %cst_12) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
        %4 = "tf.Identity"(%3) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %5 = "tf.Identity"(%4) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        tf_executor.yield %5 : tensor<*xf32>
      }
      %outputs_4, %control_5 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_11 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_12 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Identity"(%outputs#1) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %2 = "tf.StridedSlice"(%1, %cst_11, %cst, %cst_11) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
        %3 = "tf.Mul"(%2, %cst_12) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
        %4 = "tf.Identity"(%3) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %5 = "tf.Identity"(%4) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        tf_executor.yield %5 : tensor<*xf32>
      }
      %outputs_6, %control_7 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_11 = "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_12 = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %1 = "tf.Identity"(%outputs#2) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %2 = "tf.StridedSlice"(%1, %cst_12, %cst_11, %cst_11) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
        %3 = "tf.StridedSlice"(%1, %cst_11, %cst, %cst_11) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
        %4 = "tf.Sub"(%2, %3) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
        %5 = "tf.Identity"(%4) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %6 = "tf.Identity"(%5) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        tf_executor.yield %6 : tensor<*xf32>
      }
      %output, %value_index, %control_8 = tf_executor.Merge %outputs_2, %outputs_4, %outputs_6 : (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) -> (tensor<*xf32>, tensor<*xi32>, !tf_executor.control) {N = 3 : i64, T = f32, device = ""}
      %outputs_9:7, %control_10 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
        %cst_11 = "tf.Const"() <{value = dense<[0.0740498379, -0.0426365584]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
        %cst_12 = "tf.Const"() <{value = dense<[-2.000000e-01, 2.000000e-01]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
        %cst_13 = "tf.Const"() <{value = dense<[5.000000e-01, 1.500000e+00]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
        %cst_14 = "tf.Const"() <{value = dense<[5.000000e-01, 2.000000e+00]> : tensor<2xf32>}> {device = ""} : () -> tensor<2xf32>
        %cst_15 = "tf.Const"() <{value = dense<0.707106769> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %cst_16 = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %cst_17 = "tf.Const"() <{value = dense<[[0, 0], [1, 2], [2, 1]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
        %cst_18 = "tf.Const"() <{value = dense<[[0, 0], [2, 1], [0, 0]]> : tensor<3x2xi32>}> {device = ""} : () -> tensor<3x2xi32>
        %cst_19 = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %cst_20 = "tf.Const"() <{value = dense<[2, 3, 4]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
        %1 = "tf.Identity"(%arg1) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
        %2 = "tf.MirrorPad"(%arg1, %cst_17) <{mode = "REFLECT"}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<2x6x7xf32>
        %3 = "tf.Identity"(%2) {device = ""} : (tensor<2x6x7xf32>) -> tensor<2x6x7xf32>
        %4 = "tf.MirrorPad"(%arg1, %cst_18) <{mode = "SYMMETRIC"}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<2x6x4xf32>
        %5 = "tf.Identity"(%4) {device = ""} : (tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
        %6 = "tf.Identity"(%arg2) {device = ""} : (tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
        %7 = "tf.Einsum"(%1, %6) <{equation = "bij,bjk->bki"}> {device = ""} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x5x3xf32>
        %8 = "tf.Mul"(%7, %cst_19) {device = ""} : (tensor<2x5x3xf32>, tensor<f32>) -> tensor<2x5x3xf32>
        %9 = "tf.Identity"(%8) {device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
        %10 = "tf.Identity"(%9) {device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
        %11 = "tf.Identity"(%10) {device = ""} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
        %12 = "tf.GatherNd"(%arg1, %arg3) <{bad_indices_policy = ""}> {device = ""} : (tensor<2x3x4xf32>, tensor<3x2xi32>) -> tensor<3x4xf32>
        %13 = "tf.Identity"(%12) {device = ""} : (tensor<3x4xf32>) -> tensor<3x4xf32>
        %y, %batch_mean, %batch_variance, %reserve_space_1, %reserve_space_2, %reserve_space_3 = "tf.FusedBatchNormV3"(%arg0, %cst_13, %cst_12, %cst_11, %cst_14) <{data_format = "NHWC", epsilon = 1.000000e-03 : f32, exponential_avg_factor = 1.000000e+00 : f32, is_training = false}> {device = ""} : (tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<?x4x4x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<*xf32>)
        %14 = "tf.Neg"(%y) {device = ""} : (tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
        %15 = "tf.Mul"(%14, %cst_15) {device = ""} : (tensor<?x4x4x2xf32>, tensor<f32>) -> tensor<?x4x4x2xf32>
        %16 = "tf.Erfc"(%15) {device = ""} : (tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
        %17 = "tf.Mul"(%y, %cst_16) {device = ""} : (tensor<?x4x4x2xf32>, tensor<f32>) -> tensor<?x4x4x2xf32>
        %18 = "tf.Mul"(%17, %16) {device = ""} : (tensor<?x4x4x2xf32>, tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
        %19 = "tf.Identity"(%18) {device = ""} : (tensor<?x4x4x2xf32>) -> tensor<?x4x4x2xf32>
        %20 = "tf.Identity"(%output) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %21 = "tf.Identity"(%20) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %22 = "tf.ScatterNd"(%arg3, %cst, %cst_20) <{bad_indices_policy = ""}> {device = ""} : (tensor<3x2xi32>, tensor<3x4xf32>, tensor<3xi32>) -> tensor<2x3x4xf32>
        %23 = "tf.Identity"(%22) {device = ""} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
        tf_executor.yield %19, %11, %13, %23, %3, %5, %21 : tensor<?x4x4x2xf32>, tensor<2x5x3xf32>, tensor<3x4xf32>, tensor<2x3x4xf32>, tensor<2x6x7xf32>, tensor<2x6x4xf32>, tensor<*xf32>
      }
      tf_executor.fetch %outputs_9#0, %outputs_9#1, %outputs_9#2, %outputs_9#3, %outputs_9#4, %outputs_9#5, %outputs_9#6 : tensor<?x4x4x2xf32>, tensor<2x5x3xf32>, tensor<3x4xf32>, tensor<2x3x4xf32>, tensor<2x6x7xf32>, tensor<2x6x4xf32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6 : tensor<?x4x4x2xf32>, tensor<2x5x3xf32>, tensor<3x4xf32>, tensor<2x3x4xf32>, tensor<2x6x7xf32>, tensor<2x6x4xf32>, tensor<*xf32>
  }
}
