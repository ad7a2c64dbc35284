module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_597(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Sum"(%arg0, %outputs) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Greater"(%outputs_2, %outputs_0) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xi1>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.If"(%outputs_4, %arg0) <{else_branch = @cond_false_5830, is_stateless = true, then_branch = @cond_true_5820}> {Tcond = i1, Tin = [f32], Tout = [f32], _lower_using_switch_merge = true, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<?>]} : (tensor<*xi1>, tensor<?xf32>) -> tensor<*xf32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Identity"(%outputs_6) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Identity"(%outputs_8) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_10 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @cond_false_5830(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<*xf32> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Sub"(%arg0, %outputs) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_2 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @cond_true_5820(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<*xf32> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Mul"(%arg0, %outputs) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_2 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
}
