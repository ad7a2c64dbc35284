module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x4xf32>) -> (tensor<3x4xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<[[1.90679908, -0.479217052, 1.69298494, -0.953230321], [-0.723611772, -1.5276351, -1.03293478, -0.725864291], [1.85631692, -0.945400774, -0.235975519, 0.439483225]]> : tensor<3x4xf32>
    %0 = stablehlo.add %arg0, %cst : tensor<3x4xf32>
    return %0 : tensor<3x4xf32>
  }
}
