module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @"__inference_<lambda>_170"(%arg0: tensor<?x8xf32> {tf._user_specified_name = "x"}, %arg1: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg2: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg3: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}, %arg4: tensor<*x!tf_type.resource> {tf._user_specified_name = "resource"}) -> tensor<?x?xf32> attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "sequential_1_1/dense_2_1/Cast/ReadVariableOp,sequential_1_1/dense_2_1/BiasAdd/ReadVariableOp,sequential_1_1/dense_3_1/Cast/ReadVariableOp,sequential_1_1/dense_3_1/BiasAdd/ReadVariableOp", inputs = "x,sequential_1_1_dense_2_1_cast_readvariableop_resource,sequential_1_1_dense_2_1_biasadd_readvariableop_resource,sequential_1_1_dense_3_1_cast_readvariableop_resource,sequential_1_1_dense_3_1_biasadd_readvariableop_resource", outputs = "identity_RetVal"}} {
    %0 = "tf.ReadVariableOp"(%arg2) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
    %1 = "tf.ReadVariableOp"(%arg1) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
    %2 = "tf.ReadVariableOp"(%arg4) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
    %3 = "tf.ReadVariableOp"(%arg3) {device = ""} : (tensor<*x!tf_type.resource>) -> tensor<*xf32>
    %4 = "tf.MatMul"(%arg0, %1) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x8xf32>, tensor<*xf32>) -> tensor<?x?xf32>
    %5 = "tf.BiasAdd"(%4, %0) <{data_format = "NHWC"}> {device = ""} : (tensor<?x?xf32>, tensor<*xf32>) -> tensor<?x?xf32>
    %6 = "tf.Relu"(%5) {device = ""} : (tensor<?x?xf32>) -> tensor<?x?xf32>
    %7 = "tf.MatMul"(%6, %3) <{grad_a = false, grad_b = false, transpose_a = false, transpose_b = false}> {device = ""} : (tensor<?x?xf32>, tensor<*xf32>) -> tensor<?x?xf32>
    %8 = "tf.BiasAdd"(%7, %2) <{data_format = "NHWC"}> {device = ""} : (tensor<?x?xf32>, tensor<*xf32>) -> tensor<?x?xf32>
    %9 = "tf.Identity"(%8) {device = ""} : (tensor<?x?xf32>) -> tensor<?x?xf32>
    return %9 : tensor<?x?xf32>
  }
}
