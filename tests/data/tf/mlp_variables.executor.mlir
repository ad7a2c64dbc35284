module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @"__inference_<lambda>_170"(%arg0: tensor<?x8xf32> {tf._user_specified_name = "x"}, %arg1: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg2: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg3: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg4: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}) -> tensor<*xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "sequential_1_1/dense_2_1/Cast/ReadVariableOp,sequential_1_1/dense_2_1/BiasAdd/ReadVariableOp,sequential_1_1/dense_3_1/Cast/ReadVariableOp,sequential_1_1/dense_3_1/BiasAdd/ReadVariableOp", inputs = "x,sequential_1_1_dense_2_1_cast_readvariableop_resource,sequential_1_1_dense_2_1_biasadd_readvariableop_resource,sequential_1_1_dense_3_1_cast_readvariableop_resource,sequential_1_1_dense_3_1_biasadd_readvariableop_resource", outputs = "identity_RetVal"}} {
    %0 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.ReadVariableOp"(%arg2) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.ReadVariableOp"(%arg1) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.ReadVariableOp"(%arg4) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.ReadVariableOp"(%arg3) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
      %control_6 = tf_executor.island(%control_1, %control, %control_5, %control_3) wraps "tf.NoOp"() {device = ""} : () -> ()
      %outputs_7, %control_8 = tf_executor.island wraps "tf.MatMul"(%arg0, %outputs_0) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x8xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_9, %control_10 = tf_executor.island wraps "tf.BiasAdd"(%outputs_7, %outputs) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_11, %control_12 = tf_executor.island wraps "tf.Relu"(%outputs_9) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_13, %control_14 = tf_executor.island wraps "tf.MatMul"(%outputs_11, %outputs_4) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_15, %control_16 = tf_executor.island wraps "tf.BiasAdd"(%outputs_13, %outputs_2) <{data_format = "NHWC"}> {device = ""} : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
      %outputs_17, %control_18 = tf_executor.island(%control_6) wraps "tf.Identity"(%outputs_15) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_17, %control_1, %control, %control_5, %control_3 : tensor<*xf32>, !tf_executor.control, !tf_executor.control, !tf_executor.control, !tf_executor.control
    }
    return %0 : tensor<*xf32>
  }
}
