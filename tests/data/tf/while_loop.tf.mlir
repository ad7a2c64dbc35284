module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_569(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<?xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_0 = "tf.Const"() <{value = dense<-1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0:5 = "tf.While"(%cst, %cst_0, %cst, %arg0, %arg0) <{body = @while_body_5320, cond = @while_cond_5310, is_stateless = true, parallel_iterations = 10 : i64, shape_invariant}> {T = [i32, i32, i32, f32, f32], _lower_using_switch_merge = true, _num_original_outputs = 5 : i64, _read_only_resource_inputs = [], device = "", output_shapes = [#tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<>, #tf_type.shape<?>, #tf_type.shape<?>]} : (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>)
    %1 = "tf.Identity"(%0#3) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    return %1 : tensor<?xf32>
  }
  func.func private @while_body_5320(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?xf32>, %arg4: tensor<?xf32> {tf._user_specified_name = "x"}) -> (tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>) attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_0 = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.AddV2"(%arg2, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i32>) -> tensor<i32>
    %2 = "tf.Mul"(%arg3, %cst_1) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %3 = "tf.Sum"(%arg4, %cst) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<f32>
    %4 = "tf.AddV2"(%2, %3) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %5 = "tf.Identity"(%4) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    %6 = "tf.AddV2"(%arg0, %cst_0) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %7 = "tf.Identity"(%6) {device = ""} : (tensor<i32>) -> tensor<i32>
    %8 = "tf.Identity"(%arg1) {device = ""} : (tensor<i32>) -> tensor<i32>
    return %7, %8, %1, %5, %arg4 : tensor<i32>, tensor<i32>, tensor<i32>, tensor<?xf32>, tensor<?xf32>
  }
  func.func private @while_cond_5310(%arg0: tensor<i32> {tf._user_specified_name = "while/loop_counter"}, %arg1: tensor<i32> {tf._user_specified_name = "while/maximum_iterations"}, %arg2: tensor<i32>, %arg3: tensor<?xf32>, %arg4: tensor<?xf32>) -> tensor<i1> attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Less"(%arg2, %cst) {device = ""} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<i1>) -> tensor<i1>
    return %1 : tensor<i1>
  }
}
