module @jit_add attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf16>, %arg1: tensor<3x4xf16>) -> (tensor<3x4xf16> {jax.result_info = "result"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<3x4xf16>
    return %0 : tensor<3x4xf16>
  }
}
