// fuzz seed 5 #42320 and #79040: ValueError from llvmlite in codegen/llvm/emitters.py: a
// broadcast_in_dim whose result element type differs from its operand's (ui8 to i32, f64 to
// f32) was not checked, and LLVM IR mixed the two types
// expect: error "'mhlo.broadcast_in_dim': result type tensor<3xf32> does not match the inferred type tensor<3xf64>"
func.func @main(%arg0: tensor<3xf32>) -> tensor<3xf32> {
  %cst = stablehlo.constant dense<2.000000e+00> : tensor<f64>
  %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f64>) -> tensor<3xf32>
  %1 = stablehlo.multiply %arg0, %0 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
