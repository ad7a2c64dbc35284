// issue 16: zero-size fused constants crashed the compiler (IndexError in ops/data_movement.py
// _constant_at, at the loop stage): splats, empty literals and empty hex, fused into
// elementwise ops, a reduction and a transpose; the fuzzer's dim_rename now makes them
// expect: compiled
func.func @main(%arg0: tensor<0x4xf32>, %arg1: tensor<0xf32>, %arg2: tensor<0x3xi32>, %arg3: tensor<2x0xf32>) -> (tensor<0x4xf32>, tensor<0xf32>, tensor<3xi32>, tensor<0x5xf32>, tensor<0x2xf32>) {
  %cst = stablehlo.constant dense<1.0> : tensor<0x4xf32>
  %0 = stablehlo.add %arg0, %cst : tensor<0x4xf32>
  %cst_0 = stablehlo.constant dense<[]> : tensor<0xf32>
  %1 = stablehlo.multiply %arg1, %cst_0 : tensor<0xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %c_1 = stablehlo.constant dense<> : tensor<0x3xi32>
  %2 = stablehlo.add %arg2, %c_1 : tensor<0x3xi32>
  %3 = stablehlo.reduce(%2 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<0x3xi32>, tensor<i32>) -> tensor<3xi32>
  %cst_2 = stablehlo.constant dense<"0x"> : tensor<0x5xf32>
  %4 = stablehlo.exponential %cst_2 : tensor<0x5xf32>
  %cst_3 = stablehlo.constant dense<[[], []]> : tensor<2x0xf32>
  %5 = stablehlo.add %arg3, %cst_3 : tensor<2x0xf32>
  %6 = stablehlo.transpose %5, dims = [1, 0] : (tensor<2x0xf32>) -> tensor<0x2xf32>
  return %0, %1, %3, %4, %6 : tensor<0x4xf32>, tensor<0xf32>, tensor<3xi32>, tensor<0x5xf32>, tensor<0x2xf32>
}
