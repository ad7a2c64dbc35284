// fuzz seed 3 #12640 and #45117: a hang (minutes of Python loop) in ops/windows.py
// padding_pairs: a padding attribute whose type was a splat of 2**33 elements
// expect: error "'mhlo.reduce_window': padding needs 2 (low, high) pairs, got 8589934592 values"
func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<f32>) -> tensor<3x3xf32> {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{padding = dense<0> : tensor<2x4294967296xi64>, window_dimensions = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
