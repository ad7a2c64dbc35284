module {
  func.func @__inference_pruned_322(%arg0: tensor<?x8x8x2xf32>) -> tensor<?x3xf32> attributes {allow_soft_placement = false} {
    %cst = stablehlo.constant dense<-0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<64> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_1 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %cst_2 = stablehlo.constant dense<"0xDA4C833E2468683EE7F943BEB8BB043D3CE1683E3019D5BD886639BDCCB5E5BD989A7C3D608CB33DD0C717BD16B630BE00BCA0BA60DFEB3C00DB78BCE0AD723E89C511BE185E0A3D16E311BE7C59543EF01CA1BCE4E1393E5C0CE73D88B229BDB07DF3BDA58C34BED07367BE683F75BED87F843E720095BDA6D3B5BD2AE0923E689250BD8018F7BC722039BE331A21BE5C68BB3DDFFB92BEC0EC59BE880A7E3E70B8073D6C80AA3D20BEB03C2436B63D32EFCBBD2DB656BE8CCB913E885386BEF4DB2E3E749F183EDA49DFBD18BE573DCA2417BE80B99F3DC486D3BDF2CB3CBE817C13BE8877283E4C3B673E809AB3BBA5CD67BE901F83BD8890A6BDEF6752BE7E4E61BE482CCCBD50CB7C3E47E193BED89321BE002DEA3AF812863E008E1FBD0C07823D403693BC24C530BED83834BDAC2D613E60F1EEBC5CCA03BE6052F63C4ADB1D3E00C5673EE2EBD7BD58D9853EB0803C3E1A1CF0BDB29D8B3ED818343D0E6050BE425E8A3E98BA74BEA64740BE766182BEDE047CBE2BF506BE32B90EBE6016763C68F29A3D4CCAAEBD4070FD3DF47863BE1E73003EA059273CE074D1BC68579BBD20ED433CF43B1F3ECB4176BE4C0784BDB058B73DF8BE77BDDDF73CBEA31331BED20BC2BD7024743EDC02743E1C82953E70C6ADBDD70798BE4A5F1A3ED08BBC3C58E26C3EF25C2B3EA41F50BDBFB800BED01B6ABDAA561D3E5C3E6B3E80CE45BD801047BD147A63BD545AE1BDA0EEB93D086ED93D3819A13DE8E52EBE64A43E3E800DC63CF06BE5BC7C998C3E1A33843EA0D714BDF0E1D1BCDEC02ABE855190BEF03C3F3DA85E46BE0098BD3AD0A496BEE25084BE48C58B3DE0F05C3C7EE6303E20C4AE3DC2E665BE317500BE9C4D98BE988E92BD74F9D3BDDCFD78BEECC897BE539E17BE96D446BED8C1C23D1801623DFCB093BE9EEA853E6CF2953DD67D203EF0842D3E80AD1C3B4C38763E460144BE108DAE3DE84393BD57DC88BE544FD23DDF1975BEEEB4113E12D120BE300F4E3E508F35BE4DA03BBE2E384C3E6A6727BECACA43BE8C16A6BD54738CBE1045D6BCD030833E0CF0BC3D9618303E"> : tensor<64x3xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<3xf32>
    %cst_4 = stablehlo.constant dense<[[[[-0.121720642, 0.15324688, 0.302610427, -0.113644049], [-0.0748491287, 0.0112040043, -0.136654377, 0.103125811]], [[0.0508170128, 0.298045427, 0.29755649, -0.0541567802], [-0.0385772288, -3.198080e-01, -2.880560e-01, -0.306668758]], [[-0.124307007, -0.210655376, 0.229199737, 0.040032059], [0.199553579, -0.0458379686, 0.194631666, 0.013504833]]], [[[0.22198835, -0.177764416, -0.301432133, -0.186369106], [-0.0893294066, -0.0867240428, 0.254574329, -0.103260443]], [[0.327600867, -0.13587603, -0.129868269, 0.0547012389], [-0.12899065, 2.761170e-01, -0.0299108028, 0.0928908884]], [[-0.169031471, 0.00406742096, 0.324443907, -0.172279045], [-0.217396423, -0.140453815, -0.0724689066, -0.225259632]]], [[[-0.319712877, -0.239368767, -0.278042793, 0.181328863], [-0.219255611, -0.0652078688, -0.309635967, 0.239577323]], [[-0.260550737, -0.106817245, -0.275103182, 0.26390627], [-0.00501823425, -0.152890846, -0.139004707, 0.310977727]], [[-0.271464825, 2.742010e-01, -0.0416153371, -0.00816488266], [0.282737643, -0.319343269, 0.326544851, 0.264047891]]]]> : tensor<3x3x2x4xf32>
    %cst_5 = stablehlo.constant dense<0.000000e+00> : tensor<4xf32>
    %0 = stablehlo.convolution(%arg0, %cst_4) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<?x8x8x2xf32>, tensor<3x3x2x4xf32>) -> tensor<?x8x8x4xf32>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %1 = shape.shape_of %0 : tensor<?x8x8x4xf32> -> tensor<4xindex>
    %2 = stablehlo.dynamic_broadcast_in_dim %cst_5, %1, dims = [3] : (tensor<4xf32>, tensor<4xindex>) -> tensor<?x8x8x4xf32>
    %3 = stablehlo.add %0, %2 : tensor<?x8x8x4xf32>
    %4 = shape.shape_of %3 : tensor<?x8x8x4xf32> -> tensor<4xindex>
    %5 = stablehlo.dynamic_broadcast_in_dim %cst_1, %4, dims = [] : (tensor<f32>, tensor<4xindex>) -> tensor<?x8x8x4xf32>
    %6 = stablehlo.maximum %3, %5 : tensor<?x8x8x4xf32>
    %7 = "stablehlo.reduce_window"(%6, %cst_0) <{window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %28 = stablehlo.maximum %arg1, %arg2 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<?x8x8x4xf32>, tensor<f32>) -> tensor<?x4x4x4xf32>
    %8 = shape.shape_of %7 : tensor<?x4x4x4xf32> -> tensor<4xindex>
    %9 = arith.index_cast %8 : tensor<4xindex> to tensor<4xi32>
    %10 = stablehlo.slice %9 [0:1] : (tensor<4xi32>) -> tensor<1xi32>
    %11 = stablehlo.concatenate %10, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = "tf.Reshape"(%7, %11) {device = ""} : (tensor<?x4x4x4xf32>, tensor<2xi32>) -> tensor<?x64xf32>
    %13 = stablehlo.dot %12, %cst_2, precision = [DEFAULT, DEFAULT] : (tensor<?x64xf32>, tensor<64x3xf32>) -> tensor<?x3xf32>
    %14 = shape.shape_of %13 : tensor<?x3xf32> -> tensor<2xindex>
    %15 = stablehlo.dynamic_broadcast_in_dim %cst_3, %14, dims = [1] : (tensor<3xf32>, tensor<2xindex>) -> tensor<?x3xf32>
    %16 = stablehlo.add %13, %15 : tensor<?x3xf32>
    %17 = stablehlo.reduce(%16 init: %cst_0) applies stablehlo.maximum across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
    %dim = tensor.dim %17, %c0 : tensor<?xf32>
    %from_elements = tensor.from_elements %dim, %c1 : tensor<2xindex>
    %18 = stablehlo.dynamic_reshape %17, %from_elements : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x1xf32>
    %19 = shape.shape_of %16 : tensor<?x3xf32> -> tensor<2xindex>
    %20 = shape.cstr_broadcastable %19, %from_elements : tensor<2xindex>, tensor<2xindex>
    %21 = shape.assuming %20 -> (tensor<?x3xf32>) {
      %28 = shape.shape_of %16 : tensor<?x3xf32> -> tensor<2xindex>
      %29 = shape.broadcast %28, %from_elements : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
      %30 = stablehlo.dynamic_broadcast_in_dim %16, %29, dims = [0, 1] : (tensor<?x3xf32>, tensor<2xindex>) -> tensor<?x3xf32>
      %31 = stablehlo.dynamic_broadcast_in_dim %18, %29, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xindex>) -> tensor<?x3xf32>
      %32 = stablehlo.subtract %30, %31 : tensor<?x3xf32>
      shape.assuming_yield %32 : tensor<?x3xf32>
    }
    %22 = stablehlo.exponential %21 : tensor<?x3xf32>
    %23 = stablehlo.reduce(%22 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<?x3xf32>, tensor<f32>) -> tensor<?xf32>
    %dim_6 = tensor.dim %23, %c0 : tensor<?xf32>
    %from_elements_7 = tensor.from_elements %dim_6, %c1 : tensor<2xindex>
    %24 = stablehlo.dynamic_reshape %23, %from_elements_7 : (tensor<?xf32>, tensor<2xindex>) -> tensor<?x1xf32>
    %25 = shape.shape_of %22 : tensor<?x3xf32> -> tensor<2xindex>
    %26 = shape.cstr_broadcastable %25, %from_elements_7 : tensor<2xindex>, tensor<2xindex>
    %27 = shape.assuming %26 -> (tensor<?x3xf32>) {
      %28 = shape.shape_of %22 : tensor<?x3xf32> -> tensor<2xindex>
      %29 = shape.broadcast %28, %from_elements_7 : tensor<2xindex>, tensor<2xindex> -> tensor<2xindex>
      %30 = stablehlo.dynamic_broadcast_in_dim %22, %29, dims = [0, 1] : (tensor<?x3xf32>, tensor<2xindex>) -> tensor<?x3xf32>
      %31 = stablehlo.dynamic_broadcast_in_dim %24, %29, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xindex>) -> tensor<?x3xf32>
      %32 = stablehlo.divide %30, %31 : tensor<?x3xf32>
      shape.assuming_yield %32 : tensor<?x3xf32>
    }
    return %27 : tensor<?x3xf32>
  }
}
