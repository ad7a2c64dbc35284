module {
  func.func @__inference_f_615(%arg0: tensor<?xf32>, %arg1: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?x1xi64>) attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %y, %idx = "tf.Unique"(%arg1) {device = ""} : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
    %0 = shape.shape_of %arg0 : tensor<?xf32> -> tensor<1xindex>
    %1 = stablehlo.dynamic_broadcast_in_dim %cst, %0, dims = [] : (tensor<f32>, tensor<1xindex>) -> tensor<?xf32>
    %2 = stablehlo.compare  GT, %arg0, %1 : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xi1>
    %3 = "tf.Where"(%2) {device = ""} : (tensor<?xi1>) -> tensor<?x1xi64>
    return %y, %idx, %3 : tensor<?xi32>, tensor<?xi32>, tensor<?x1xi64>
  }
}
