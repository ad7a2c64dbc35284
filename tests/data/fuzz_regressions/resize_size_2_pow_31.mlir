// fuzz seed 4242 #19983: MemoryError in tf/shapes.py resize_bilinear: an output size of
// 0x7FC00000 (a NaN's bits as an integer) made it build 8 GiB of compile-time tables
// expect: error "is past 16777216 pixels along an axis"
module {
  func.func @main(%arg0: tensor<?x4x6x2xf32>) -> tensor<?x2x3x2xf32> {
    %c = "tf.Const"() <{value = dense<[2, 0x7FC00000]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %0 = "tf.ResizeBilinear"(%arg0, %c) <{align_corners = false, half_pixel_centers = false}> : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<?x2x3x2xf32>
    return %0 : tensor<?x2x3x2xf32>
  }
}
