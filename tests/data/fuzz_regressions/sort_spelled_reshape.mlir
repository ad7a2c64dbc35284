// fuzz seed 4 #66255: KeyError in passes/bufferize.py lower_fusion: a sort renamed reshape
// (two operands, two results, a comparator) passed verification, as reshape's operand count
// and results were not checked
// expect: error "'mhlo.reshape': expects 1 operands, got 2"
func.func @main(%arg0: tensor<4x50xf32>) -> tensor<4x50xi32> {
  %0 = stablehlo.iota dim = 1 : tensor<4x50xi32>
  %1:2 = "stablehlo.reshape"(%arg0, %0) <{dimension = 1 : i64, is_stable = true}> ({
  ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>, %arg3: tensor<i32>, %arg4: tensor<i32>):
    %2 = stablehlo.compare LT, %arg1, %arg2, TOTALORDER : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }) : (tensor<4x50xf32>, tensor<4x50xi32>) -> (tensor<4x50xf32>, tensor<4x50xi32>)
  return %1#1 : tensor<4x50xi32>
}
