module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_597(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<?xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
    %cst_0 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.Sum"(%arg0, %cst) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<f32>
    %1 = "tf.Greater"(%0, %cst_0) {device = ""} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %2 = "tf.If"(%1, %arg0) <{else_branch = @cond_false_5830, is_stateless = true, then_branch = @cond_true_5820}> {Tcond = i1, Tin = [f32], Tout = [f32], _lower_using_switch_merge = true, _read_only_resource_inputs = [], device = ""} : (tensor<i1>, tensor<?xf32>) -> tensor<?xf32>
    %3 = "tf.Identity"(%2) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    %4 = "tf.Identity"(%3) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    return %4 : tensor<?xf32>
  }
  func.func private @cond_false_5830(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<?xf32> attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.Sub"(%arg0, %cst) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    return %1 : tensor<?xf32>
  }
  func.func private @cond_true_5820(%arg0: tensor<?xf32> {tf._user_specified_name = "x"}) -> tensor<?xf32> attributes {tf._construction_context = "kEagerRuntime"} {
    %cst = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %0 = "tf.Mul"(%arg0, %cst) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %1 = "tf.Identity"(%0) {device = ""} : (tensor<?xf32>) -> tensor<?xf32>
    return %1 : tensor<?xf32>
  }
}
