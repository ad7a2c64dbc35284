// fuzz seed 2 #14470 and #11111: TypeError / IndexError in frontend/pretty.py decode_slice:
// a slice bound that is not start:limit[:stride]
// expect: error 'expected slice bounds like [0:4, 1:5:2]'
func.func @main(%arg0: tensor<3x4xf32>) -> tensor<3x2xf32> {
  %0 = stablehlo.slice %arg0 [0:3, 1] : (tensor<3x4xf32>) -> tensor<3x2xf32>
  %1 = stablehlo.slice %arg0 [0:, 1:3] : (tensor<3x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
