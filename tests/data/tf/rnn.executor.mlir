module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_767(%arg0: tensor<?x?x3xf32>) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<[1, 0, 2]> : tensor<3xi32>}> {device = ""} : () -> tensor<3xi32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.443056107, 0.0113275526, 0.476243705, -0.419163972], [0.107355833, -0.123513415, 0.301901221, -0.325472176], [0.371635288, 4.394140e-02, 0.402215093, -0.0228464752]]> : tensor<3x4xf32>}> {device = ""} : () -> tensor<3x4xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<[[0.305002928, 0.307940781, 0.0153255612, -0.214198619], [-0.4460693, -0.11663112, -0.0915267915, -0.454724818], [-0.451242298, 0.499176115, 0.152369112, -0.265489787], [-0.0650524497, 0.474186182, 0.3976776, 0.344231039]]> : tensor<4x4xf32>}> {device = ""} : () -> tensor<4x4xf32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x?x3xf32>) -> tensor<*xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.StridedSlice"(%outputs_22, %outputs_6, %outputs_8, %outputs_10) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Transpose"(%arg0, %outputs_12) {device = ""} : (tensor<?x?x3xf32>, tensor<3xi32>) -> tensor<*xf32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Shape"(%outputs_26) {device = ""} : (tensor<*xf32>) -> tensor<*xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.StridedSlice"(%outputs_28, %outputs_0, %outputs_2, %outputs_4) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Pack"(%outputs_24, %outputs_34) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Fill"(%outputs_36, %outputs_32) {device = ""} : (tensor<*xi32>, tensor<f32>) -> tensor<*xf32>
      %outputs_40:8, %control_41 = tf_executor.island wraps "tf.While"(%outputs_18, %outputs_20, %outputs, %outputs_38, %outputs_30, %outputs_26, %outputs_14, %outputs_16) <{body = @while_body_6530, cond = @while_cond_6520, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, i32, i32, f32, i32, f32, f32, f32], _lower_using_switch_merge = false, _num_original_outputs = 8 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<?x4>, #tf_type.shape<>, #tf_type.shape<?x?x3>, #tf_type.shape<3x4>, #tf_type.shape<4x4>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<*xf32>, tensor<*xi32>, tensor<*xf32>, tensor<3x4xf32>, tensor<4x4xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?x4xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>)
      %outputs_42, %control_43 = tf_executor.island wraps "tf.Identity"(%outputs_40#3) {device = ""} : (tensor<?x4xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_42 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @while_body_6530(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?x4xf32>, %arg4: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg5: tensor<?x?x3xf32> {tf._user_specified_name = "transpose"}, %arg6: tensor<3x4xf32>, %arg7: tensor<4x4xf32>) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %0:8 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.GatherV2"(%arg5, %arg2, %outputs) <{batch_dims = 0 : i64}> {device = ""} : (tensor<?x?x3xf32>, tensor<i32>, tensor<i32>) -> tensor<*xf32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.MatMul"(%outputs_4, %arg6) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<3x4xf32>) -> tensor<*xf32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%outputs_8) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.MatMul"(%arg3, %arg7) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<*xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.AddV2"(%outputs_6, %outputs_12) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Tanh"(%outputs_14) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Identity"(%outputs_16) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%outputs_20) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      tf_executor.fetch %outputs_22, %outputs_24, %outputs_10, %outputs_18, %arg4, %arg5, %arg6, %arg7 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<i32>, tensor<?x?x3xf32>, tensor<3x4xf32>, tensor<4x4xf32>
  }
  func.func private @while_cond_6520(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?x4xf32>, %arg4: tensor<i32> {tf._user_specified_name = "strided_slice"}, %arg5: tensor<*xf32>, %arg6: tensor<*xf32>, %arg7: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Less"(%arg2, %arg4) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Identity"(%outputs) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_0 : tensor<*xi1>
    }
    return %0 : tensor<*xi1>
  }
}
