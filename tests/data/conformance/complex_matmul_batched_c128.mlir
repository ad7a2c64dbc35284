module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3x4xcomplex<f64>>, %arg1: tensor<2x4x3xcomplex<f64>>) -> (tensor<2x3x3xcomplex<f64>> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0], contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] : (tensor<2x3x4xcomplex<f64>>, tensor<2x4x3xcomplex<f64>>) -> tensor<2x3x3xcomplex<f64>>
    return %0 : tensor<2x3x3xcomplex<f64>>
  }
}
