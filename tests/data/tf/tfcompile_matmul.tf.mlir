module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<?x3xf32>, %arg1: tensor<3x2xf32>) -> tensor<?x2xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x_hold,y_hold", outputs = "x_y_prod"}} {
    %0 = "tf.MatMul"(%arg0, %arg1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
    return %0 : tensor<?x2xf32>
  }
}
