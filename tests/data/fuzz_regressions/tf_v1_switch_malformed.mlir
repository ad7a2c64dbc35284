// fuzz seed 11 index 11856: a tf_executor.Switch with the wrong number of results was an IndexError in functionalize
// expect: error "TF1 control flow ('tf_executor.Switch' and the nodes around it) is not in the form TensorFlow writes it"
module @jit_mul attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<0x4xbf16>, %arg1: tensor<0x4xbf16>) -> (tensor<0x4xbf16> {jax.result_info = "result"}) {
    %0 = tf_executor.Switch %arg0, %arg1 : tensor<0x4xbf16>
    return %0 : tensor<0x4xbf16>
  }
}
