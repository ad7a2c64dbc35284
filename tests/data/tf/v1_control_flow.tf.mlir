module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @main(%arg0: tensor<?xf32>) -> tensor<*xf32> attributes {tf.entry_function = {control_outputs = "", inputs = "x", outputs = "out"}} {
    %0 = tf_executor.graph {
      %output, %token, %control = tf_executor.NextIteration.Source : tensor<*xf32> {T = f32, device = ""}
      %output_0, %token_1, %control_2 = tf_executor.NextIteration.Source : tensor<*xi32> {T = i32, device = ""}
      %outputs, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %output_4, %control_5 = tf_executor.Enter %outputs frame "while/while_context" : (tensor<i32>) -> (tensor<*xi32>, !tf_executor.control) {T = i32, device = ""}
      %output_6, %value_index, %control_7 = tf_executor.Merge %output_4, %output_0 : tensor<*xi32> {N = 2 : i64, T = i32, device = ""}
      %outputs_8, %control_9 = tf_executor.island(%control_7) {
        %cst = "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
        %1 = "tf.Less"(%output_6, %cst) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi1>
        tf_executor.yield %1 : tensor<*xi1>
      }
      %output_10, %control_11 = tf_executor.LoopCond %outputs_8 : (tensor<*xi1>) -> (tensor<i1>, !tf_executor.control) {device = ""}
      %falseOutput, %trueOutput, %control_12 = tf_executor.Switch %output_6, %output_10 : tensor<*xi32> {T = i32, _class = ["loc:@while/Merge"], device = ""}
      %outputs_13, %control_14 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<1> : tensor<i32>}> {device = ""} : () -> tensor<i32>
        %1 = "tf.Identity"(%trueOutput) {device = ""} : (tensor<*xi32>) -> tensor<*xi32>
        %2 = "tf.AddV2"(%1, %cst) {device = ""} : (tensor<*xi32>, tensor<i32>) -> tensor<*xi32>
        tf_executor.yield %2 : tensor<*xi32>
      }
      tf_executor.NextIteration.Sink[%token_1] %outputs_13 : tensor<*xi32> {T = i32, device = ""}
      %outputs_15:2, %control_16 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_49 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Sum"(%arg0, %cst) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<f32>
        %2 = "tf.Greater"(%1, %cst_49) {device = ""} : (tensor<f32>, tensor<f32>) -> tensor<i1>
        %3 = "tf.Identity"(%2) {device = ""} : (tensor<i1>) -> tensor<i1>
        tf_executor.yield %2, %3 : tensor<i1>, tensor<i1>
      }
      %falseOutput_17, %trueOutput_18, %control_19 = tf_executor.Switch %outputs_15#0, %outputs_15#0 : tensor<i1> {T = i1, device = ""}
      %falseOutput_20, %trueOutput_21, %control_22 = tf_executor.Switch %arg0, %outputs_15#1 : tensor<?xf32> {T = f32, _class = ["loc:@x"], device = ""}
      %outputs_23, %control_24 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<2.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Mul"(%trueOutput_21, %cst) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
        tf_executor.yield %1 : tensor<?xf32>
      }
      %falseOutput_25, %trueOutput_26, %control_27 = tf_executor.Switch %arg0, %outputs_15#1 : tensor<?xf32> {T = f32, _class = ["loc:@x"], device = ""}
      %outputs_28, %control_29 = tf_executor.island {
        %cst = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Sub"(%falseOutput_25, %cst) {device = ""} : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
        tf_executor.yield %1 : tensor<?xf32>
      }
      %output_30, %value_index_31, %control_32 = tf_executor.Merge %outputs_28, %outputs_23 : tensor<?xf32> {N = 2 : i64, T = f32, device = ""}
      %output_33, %control_34 = tf_executor.Enter %output_30 frame "while/while_context" : (tensor<?xf32>) -> (tensor<*xf32>, !tf_executor.control) {T = f32, device = ""}
      %output_35, %value_index_36, %control_37 = tf_executor.Merge %output_33, %output : tensor<*xf32> {N = 2 : i64, T = f32, device = ""}
      %falseOutput_38, %trueOutput_39, %control_40 = tf_executor.Switch %output_35, %output_10 : tensor<*xf32> {T = f32, _class = ["loc:@while/Merge_1"], device = ""}
      %output_41, %control_42 = tf_executor.Exit %falseOutput_38 : tensor<*xf32> {T = f32, device = ""}
      %output_43, %control_44 = tf_executor.Enter %arg0 frame "while/while_context" constant  : tensor<?xf32> {T = f32, device = ""}
      %outputs_45, %control_46 = tf_executor.island(%control_14) {
        %cst = "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
        %cst_49 = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
        %1 = "tf.Identity"(%trueOutput_39) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        %2 = "tf.Mul"(%1, %cst_49) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
        %3 = "tf.Sum"(%output_43, %cst) <{keep_dims = false}> {device = ""} : (tensor<?xf32>, tensor<1xi32>) -> tensor<f32>
        %4 = "tf.AddV2"(%2, %3) {device = ""} : (tensor<*xf32>, tensor<f32>) -> tensor<*xf32>
        tf_executor.yield %4 : tensor<*xf32>
      }
      tf_executor.NextIteration.Sink[%token] %outputs_45 : tensor<*xf32> {T = f32, device = ""}
      %outputs_47, %control_48 = tf_executor.island {
        %1 = "tf.Identity"(%output_41) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
        tf_executor.yield %1 : tensor<*xf32>
      }
      tf_executor.fetch %outputs_47 : tensor<*xf32>
    }
    return %0 : tensor<*xf32>
  }
}
