module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xcomplex<f32>>, %arg1: tensor<2x3xcomplex<f32>>) -> (tensor<2x3xcomplex<f32>> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0:4 = stablehlo.while(%iterArg = %arg1, %iterArg_1 = %c_0, %iterArg_2 = %c, %iterArg_3 = %arg0) : tensor<2x3xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<2x3xcomplex<f32>>
    cond {
      %c_4 = stablehlo.constant dense<5> : tensor<i32>
      %1 = stablehlo.compare LT, %iterArg_1, %c_4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %1:2 = func.call @closed_call(%iterArg, %iterArg_2, %iterArg_3) : (tensor<2x3xcomplex<f32>>, tensor<i32>, tensor<2x3xcomplex<f32>>) -> (tensor<i32>, tensor<2x3xcomplex<f32>>)
      %c_4 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg_1, %c_4 : tensor<i32>
      stablehlo.return %iterArg, %2, %1#0, %1#1 : tensor<2x3xcomplex<f32>>, tensor<i32>, tensor<i32>, tensor<2x3xcomplex<f32>>
    }
    return %0#3 : tensor<2x3xcomplex<f32>>
  }
  func.func private @closed_call(%arg0: tensor<2x3xcomplex<f32>>, %arg1: tensor<i32>, %arg2: tensor<2x3xcomplex<f32>>) -> (tensor<i32>, tensor<2x3xcomplex<f32>>) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.add %arg1, %c : tensor<i32>
    %1 = stablehlo.multiply %arg2, %arg2 : tensor<2x3xcomplex<f32>>
    %cst = stablehlo.constant dense<(5.000000e-01,0.000000e+00)> : tensor<complex<f32>>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<complex<f32>>) -> tensor<2x3xcomplex<f32>>
    %3 = stablehlo.multiply %1, %2 : tensor<2x3xcomplex<f32>>
    %4 = stablehlo.add %3, %arg0 : tensor<2x3xcomplex<f32>>
    return %0, %4 : tensor<i32>, tensor<2x3xcomplex<f32>>
  }
}
