// found beside fuzz seed 4242 #19983 (the same 0x7FC00000 in tf.Range's limit): MemoryError in
// tf/shapes.py range_ (np.arange of 2^31 int64s, 16 GiB at compile time); now a run-time iota
// expect: compiled
module {
  func.func @main(%x: tensor<?xi32>) -> tensor<?xi32> {
    %a = "tf.Const"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %b = "tf.Const"() <{value = dense<0x7FC00000> : tensor<i32>}> : () -> tensor<i32>
    %c = "tf.Const"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %r = "tf.Range"(%a, %b, %c) : (tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<?xi32>
    %s = "tf.AddV2"(%r, %x) : (tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
    return %s : tensor<?xi32>
  }
}
