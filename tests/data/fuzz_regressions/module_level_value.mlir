// fuzz seed 2 #11719: KeyError in passes/bufferize.py lower_fusion: a function used a value
// defined at module level; functions are isolated from above, as in MLIR
// expect: error "use of undefined value '%cst'"
module {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<4xf32>
    return %1 : tensor<4xf32>
  }
}
