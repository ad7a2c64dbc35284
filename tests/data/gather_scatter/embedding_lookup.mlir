module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xi32>) -> (tensor<2x3x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<10> : tensor<i32>
    %cst = stablehlo.constant dense<[[0.806886851, -0.590948045, 0.130393431, -0.269111753, 0.409773827, -0.91851896, 0.381907672, -0.294984281], [-0.711048305, 0.354592592, 0.799137651, 0.0689150691, 0.397658318, -0.055802349, 0.081034772, -0.996832251], [-0.537281632, 0.408909678, -0.00220556348, 0.755203723, -0.768907189, 0.614420354, -0.450863779, -0.480099708], [-0.217865884, 0.575483501, -0.670775294, 3.440410e-01, 0.993685424, 0.0772874802, -0.892292916, -0.297376484], [-0.30166021, 0.212518141, -0.594808519, -0.500399113, -0.16686736, 0.344086856, 0.831247925, 0.586938143], [-0.844568968, 0.546217799, 5.396030e-01, -0.38128221, -0.113272361, 0.134229124, 0.389550269, -0.529721856], [0.15042749, -0.430967093, -0.883243143, -0.882537782, 0.339955777, -0.933886587, 0.248317406, 0.0108697889], [-0.0228496045, -0.189210176, 0.340523809, 0.924850344, -0.848583161, 0.349246114, 0.13263528, -0.581945181], [-0.276934743, -0.634674966, 0.0849309191, -0.585010946, 0.833104133, 0.730176866, 0.965621292, 0.978301167], [-0.0158219226, -0.547131896, 0.383855194, 0.562516749, 0.90648359, -0.620559335, 0.910612404, 0.070434317]]> : tensor<10x8xf32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %1 = stablehlo.compare LT, %arg0, %0, SIGNED : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi1>
    %2 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<2x3xi32>
    %3 = stablehlo.add %arg0, %2 : tensor<2x3xi32>
    %4 = stablehlo.select %1, %3, %arg0 : tensor<2x3xi1>, tensor<2x3xi32>
    %5 = stablehlo.broadcast_in_dim %4, dims = [0, 1] : (tensor<2x3xi32>) -> tensor<2x3x1xi32>
    %6 = "stablehlo.gather"(%cst, %5) <{dimension_numbers = #stablehlo.gather<offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, slice_sizes = array<i64: 1, 8>}> : (tensor<10x8xf32>, tensor<2x3x1xi32>) -> tensor<2x3x8xf32>
    return %6 : tensor<2x3x8xf32>
  }
}
