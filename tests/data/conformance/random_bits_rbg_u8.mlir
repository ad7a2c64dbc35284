module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xui32>) -> (tensor<9xui8> {jax.result_info = "result"}) {
    %0 = stablehlo.reshape %arg0 : (tensor<4xui32>) -> tensor<2x2xui32>
    %1 = stablehlo.bitcast_convert %0 : (tensor<2x2xui32>) -> tensor<2xui64>
    %output_state, %output = stablehlo.rng_bit_generator %1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<9xui8>)
    %2 = stablehlo.bitcast_convert %output_state : (tensor<2xui64>) -> tensor<2x2xui32>
    %3 = stablehlo.reshape %2 : (tensor<2x2xui32>) -> tensor<4xui32>
    return %output : tensor<9xui8>
  }
}
