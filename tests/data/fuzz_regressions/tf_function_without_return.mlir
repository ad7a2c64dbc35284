// fuzz seed 11 index 1375: a function whose return was replaced by a tf op had no location on its error
// expect: error "function body must end with a return"
module @jit_nextafter attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<0xbf16>, %arg1: tensor<0xbf16>) -> (tensor<0xbf16> {jax.result_info = "result"}) {
    %0 = chlo.next_after %arg0, %arg1 : tensor<0xbf16>, tensor<0xbf16> -> tensor<0xbf16>
    tf._construction_context %0 : tensor<0xbf16>
  }
}
