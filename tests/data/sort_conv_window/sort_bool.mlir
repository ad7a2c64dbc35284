module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x21xi1>) -> (tensor<3x21xi1> {jax.result_info = "result"}) {
    %0 = call @sort(%arg0) : (tensor<3x21xi1>) -> tensor<3x21xi1>
    return %0 : tensor<3x21xi1>
  }
  func.func private @sort(%arg0: tensor<3x21xi1>) -> tensor<3x21xi1> {
    %0 = "stablehlo.sort"(%arg0) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      %1 = stablehlo.compare LT, %arg1, %arg2, UNSIGNED : (tensor<i1>, tensor<i1>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    }) : (tensor<3x21xi1>) -> tensor<3x21xi1>
    return %0 : tensor<3x21xi1>
  }
}
