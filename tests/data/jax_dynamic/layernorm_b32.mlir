module @jit__layernorm attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x32xf32>) -> (tensor<?x32xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x32xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 32). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    return %2 : tensor<?x32xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x32xf32>) -> (tensor<?x32xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<9.99999974E-6> : tensor<f32>
    %c = stablehlo.constant dense<32> : tensor<1xi32>
    %cst_0 = stablehlo.constant dense<3.200000e+01> : tensor<f32>
    %c_1 = stablehlo.constant dense<1> : tensor<1xi32>
    %cst_2 = stablehlo.constant dense<[0.68964088, 1.49987137, 1.08666086, 1.33510053, 0.765712201, 0.612481236, 1.28602517, 1.01994216, 1.43626416, 1.1444869, 0.695720374, 1.00831711, 1.17733788, 1.28220916, 0.786341906, 1.29155719, 0.921443939, 1.3469907, 1.09441602, 0.656873584, 1.43379855, 1.14633024, 0.628104627, 1.42219055, 1.39795732, 0.845652997, 1.38548374, 0.778394938, 1.19347906, 0.554587841, 0.821867228, 0.795040488]> : tensor<32xf32>
    %cst_3 = stablehlo.constant dense<[0.0846299082, -0.0705308095, -0.0558234341, -0.00653383974, 0.0981270894, 0.00926903635, -0.0881858617, 3.37321806E-4, -0.00165513332, -0.0855972543, -0.0134696011, 0.00623235852, -0.0271565802, -0.0368968174, 0.0555201508, 0.0271769539, 0.0382180326, 7.516570e-02, 0.0347682536, -0.00311976136, -0.0251587704, -0.038482178, -0.0931351855, -0.0908195152, 0.0398449898, 0.0325681865, -0.0339683518, -0.00625122478, 0.0896157249, 0.0884060263, -0.0677940398, 5.127460e-02]> : tensor<32xf32>
    %cst_4 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg1 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.dynamic_broadcast_in_dim %0, %2, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %4 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %5 = stablehlo.concatenate %4, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.dynamic_broadcast_in_dim %cst_0, %5, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %7 = stablehlo.divide %3, %6 : tensor<?x1xf32>
    %8 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %9 = stablehlo.concatenate %8, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %10 = stablehlo.dynamic_broadcast_in_dim %7, %9, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %11 = stablehlo.subtract %arg1, %10 : tensor<?x32xf32>
    %12 = stablehlo.multiply %11, %11 : tensor<?x32xf32>
    %13 = stablehlo.reduce(%12 init: %cst_4) applies stablehlo.add across dimensions = [1] : (tensor<?x32xf32>, tensor<f32>) -> tensor<?xf32>
    %14 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %15 = stablehlo.concatenate %14, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %16 = stablehlo.dynamic_broadcast_in_dim %13, %15, dims = [0] : (tensor<?xf32>, tensor<2xi32>) -> tensor<?x1xf32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %19 = stablehlo.dynamic_broadcast_in_dim %cst_0, %18, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %20 = stablehlo.divide %16, %19 : tensor<?x1xf32>
    %21 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %22 = stablehlo.concatenate %21, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %23 = stablehlo.dynamic_broadcast_in_dim %7, %22, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %24 = stablehlo.subtract %arg1, %23 : tensor<?x32xf32>
    %25 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %26 = stablehlo.concatenate %25, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %27 = stablehlo.dynamic_broadcast_in_dim %cst, %26, dims = [] : (tensor<f32>, tensor<2xi32>) -> tensor<?x1xf32>
    %28 = stablehlo.add %20, %27 : tensor<?x1xf32>
    %29 = stablehlo.rsqrt %28 : tensor<?x1xf32>
    %30 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %31 = stablehlo.concatenate %30, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %32 = stablehlo.dynamic_broadcast_in_dim %29, %31, dims = [0, 1] : (tensor<?x1xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %33 = stablehlo.multiply %24, %32 : tensor<?x32xf32>
    %34 = stablehlo.broadcast_in_dim %cst_2, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %35 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %36 = stablehlo.concatenate %35, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %37 = stablehlo.dynamic_broadcast_in_dim %34, %36, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %38 = stablehlo.multiply %33, %37 : tensor<?x32xf32>
    %39 = stablehlo.broadcast_in_dim %cst_3, dims = [1] : (tensor<32xf32>) -> tensor<1x32xf32>
    %40 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %41 = stablehlo.concatenate %40, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %42 = stablehlo.dynamic_broadcast_in_dim %39, %41, dims = [0, 1] : (tensor<1x32xf32>, tensor<2xi32>) -> tensor<?x32xf32>
    %43 = stablehlo.add %38, %42 : tensor<?x32xf32>
    return %43 : tensor<?x32xf32>
  }
}
