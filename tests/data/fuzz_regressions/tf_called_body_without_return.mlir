// fuzz seed 12 index 17597: a while loop's condition function without a return had no location on its error
// expect: error "function body must end with a return"
module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_569(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4:5, %control_5 = tf_executor.island wraps "tf.While"(%outputs_0, %outputs_2, %outputs, %arg0, %arg0) <{body = @while_body_5320, cond = @while_cond_5310, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, i32, i32, f32, f32], _lower_using_switch_merge = true, _num_original_outputs = 5 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<?>, #tf_type.shape<?>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>)
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Identity"(%outputs_4#3) {device = ""} : (tensor<?xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_6 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
  func.func private @while_body_5320(%arg0: tensor<i32> {stablehlo.convolution = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?xf32>, %arg4: tensor<?xf32> {tf._user_specified_name = "x"}) -> (tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<?xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %0:5 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.AddV2"(%arg2, %outputs_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Identity"(%outputs_6) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Mul"(%arg3, %outputs_4) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<*xf32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Sum"(%arg4, %outputs) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.AddV2"(%outputs_10, %outputs_12) {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Identity"(%outputs_14) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.AddV2"(%arg0, %outputs_2) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Identity"(%outputs_18) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<*xi32>
      tf_executor.fetch %outputs_20, %outputs_22, %outputs_8, %outputs_16, %arg4 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<?xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4 : tensor<*xi32>, tensor<*xi32>, tensor<*xi32>, tensor<*xf32>, tensor<?xf32>
  }
  func.func private @while_cond_5310(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?xf32>, %arg4: tensor<*xf32>) -> tensor<*xi1> attributes {tf._construction_context = "kEagerRuntime"} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Less"(%arg2, %outputs) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<*xi1>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Identity"(%outputs_0) {device = ""} : (tensor<*xi1>) -> tensor<*xi1>
      tf_executor.fetch %outputs_2 : tensor<*xi1>
    }
    f %0 : tensor<*xi1>
  }
}
