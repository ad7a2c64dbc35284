// fuzz seed 11 index 10021: an arith op of TensorFlow's partial lowering with a duplicated operand was an IndexError in its rule
// expect: error "'arith.muli': its operands or attributes are not in a form TensorFlow writes for it"
module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<2x3xf32> {jax.result_info = "result"}) {
    %0 = arith.muli %arg0 [1:3 3, 1:4] : (tensor<4x5xf32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
