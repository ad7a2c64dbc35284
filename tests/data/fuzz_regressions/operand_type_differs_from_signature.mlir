// fuzz seed 4 #87700: ValueError from llvmlite in codegen/llvm/emitters.py: an operand whose
// type differs from the one the op's signature declares was taken at the signature's word
// (an f32 constant used as i32), and the mismatch reached LLVM IR
// expect: error "'%c' has type tensor<f32>, but the op's type signature says tensor<i32>"
func.func @main(%arg0: tensor<4xi32>) -> tensor<4xi32> {
  %c = stablehlo.constant dense<6.0> : tensor<f32>
  %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4xi32>
  %1 = stablehlo.add %arg0, %0 : tensor<4xi32>
  return %1 : tensor<4xi32>
}
