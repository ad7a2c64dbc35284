// fuzz seed 11 #1078: "malformed attr_entry (ValueError: invalid literal for int() ...)", the
// parser's catch-all for a bug: an array<i64: ...> element that is no integer
// expect: error "malformed i64 element in array<i64: 2, -inf>"
func.func @main(%arg0: tensor<4x4xf32>, %arg1: tensor<f32>) -> tensor<2x2xf32> {
  %0 = "stablehlo.reduce_window"(%arg0, %arg1) <{window_dimensions = array<i64: 2, -inf>, window_strides = array<i64: 2, 2>}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %1 = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}
