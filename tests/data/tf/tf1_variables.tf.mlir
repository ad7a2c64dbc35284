module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<?x3xf32>) -> tensor<?x2xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "y"}} {
    %0 = "tf.VarHandleOp"() <{container = "", shared_name = "b"}> {_class = ["loc:@b"], allowed_devices = [], debug_name = "b/", device = ""} : () -> tensor<!tf_type.resource<tensor<2xf32>>>
    %1 = "tf.ReadVariableOp"(%0) {device = ""} : (tensor<!tf_type.resource<tensor<2xf32>>>) -> tensor<2xf32>
    %2 = "tf.VarHandleOp"() <{container = "", shared_name = "w"}> {_class = ["loc:@w"], allowed_devices = [], debug_name = "w/", device = ""} : () -> tensor<!tf_type.resource<tensor<3x2xf32>>>
    %3 = "tf.ReadVariableOp"(%2) {device = ""} : (tensor<!tf_type.resource<tensor<3x2xf32>>>) -> tensor<3x2xf32>
    %4 = "tf.MatMul"(%arg0, %3) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
    %5 = "tf.AddV2"(%4, %1) {device = ""} : (tensor<?x2xf32>, tensor<2xf32>) -> tensor<?x2xf32>
    %6 = "tf.Relu"(%5) {device = ""} : (tensor<?x2xf32>) -> tensor<?x2xf32>
    return %6 : tensor<?x2xf32>
  }
}
