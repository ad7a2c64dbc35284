module @jit__lambda attributes {jax.uses_shape_polymorphism = true, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<?x8xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<1> : tensor<i32>
    %0 = stablehlo.get_dimension_size %arg0, dim = 0 : (tensor<?x8xf32>) -> tensor<i32>
    %1 = stablehlo.compare GE, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.custom_call @shape_assertion(%1, %0) {api_version = 2 : i32, error_message = "Input shapes do not match the polymorphic shapes specification. Expected value >= 1 for dimension variable 'b'. Using the following polymorphic shapes specifications: args[0].shape = (b, 8). Obtained dimension variables: 'b' = {0} from specification 'b' for dimension args[0].shape[0] (= {0}), . Please see https://docs.jax.dev/en/latest/export/shape_poly.html#shape-assertion-errors for more details.", has_side_effect = true} : (tensor<i1>, tensor<i32>) -> ()
    %2 = call @_wrapped_jax_export_main(%0, %arg0) : (tensor<i32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    return %2 : tensor<?x8xf32>
  }
  func.func private @_wrapped_jax_export_main(%arg0: tensor<i32> {jax.global_constant = "b"}, %arg1: tensor<?x8xf32>) -> (tensor<?x8xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<4> : tensor<1xi32>
    %c_0 = stablehlo.constant dense<3> : tensor<1xi32>
    %c_1 = stablehlo.constant dense<8> : tensor<1xi32>
    %c_2 = stablehlo.constant dense<2> : tensor<1xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<1xi32>
    %c_4 = stablehlo.constant dense<7> : tensor<1xi32>
    %c_5 = stablehlo.constant dense<0> : tensor<1xi32>
    %0 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %1 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %2 = stablehlo.concatenate %1, %c_4, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %3 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %4 = stablehlo.real_dynamic_slice %arg1, %0, %2, %3 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    %5 = stablehlo.concatenate %c_5, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %6 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %7 = stablehlo.concatenate %6, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %8 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %9 = stablehlo.real_dynamic_slice %arg1, %5, %7, %8 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x4xf32>
    %10 = stablehlo.add %4, %9 : tensor<?x4xf32>
    %11 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %12 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %13 = stablehlo.concatenate %12, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %14 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %15 = stablehlo.real_dynamic_slice %10, %11, %13, %14 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %16 = stablehlo.concatenate %c_5, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %17 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %18 = stablehlo.concatenate %17, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %19 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %20 = stablehlo.real_dynamic_slice %10, %16, %18, %19 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x2xf32>
    %21 = stablehlo.add %15, %20 : tensor<?x2xf32>
    %22 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %23 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %24 = stablehlo.concatenate %23, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %25 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %26 = stablehlo.real_dynamic_slice %21, %22, %24, %25 : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %27 = stablehlo.concatenate %c_5, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %28 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %29 = stablehlo.concatenate %28, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %30 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %31 = stablehlo.real_dynamic_slice %21, %27, %29, %30 : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %32 = stablehlo.add %26, %31 : tensor<?x1xf32>
    %33 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %34 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %35 = stablehlo.concatenate %34, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %36 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %37 = stablehlo.real_dynamic_slice %32, %33, %35, %36 : (tensor<?x1xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x0xf32>
    %38 = stablehlo.concatenate %c_5, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %39 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %40 = stablehlo.concatenate %39, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %41 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %42 = stablehlo.real_dynamic_slice %21, %38, %40, %41 : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x0xf32>
    %43 = stablehlo.add %37, %42 : tensor<?x0xf32>
    %44 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %45 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %46 = stablehlo.concatenate %45, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %47 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %48 = stablehlo.real_dynamic_slice %21, %44, %46, %47 : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %49 = stablehlo.concatenate %48, %43, dim = 1 : (tensor<?x1xf32>, tensor<?x0xf32>) -> tensor<?x1xf32>
    %50 = stablehlo.pad %49, %cst, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x2xf32>
    %51 = stablehlo.pad %32, %cst, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x2xf32>
    %52 = stablehlo.add %50, %51 : tensor<?x2xf32>
    %53 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %54 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %55 = stablehlo.concatenate %54, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %56 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %57 = stablehlo.real_dynamic_slice %52, %53, %55, %56 : (tensor<?x2xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %58 = stablehlo.concatenate %c_5, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %59 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %60 = stablehlo.concatenate %59, %c, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %61 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %62 = stablehlo.real_dynamic_slice %10, %58, %60, %61 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %63 = stablehlo.add %57, %62 : tensor<?x1xf32>
    %64 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %65 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %66 = stablehlo.concatenate %65, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %67 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %68 = stablehlo.real_dynamic_slice %10, %64, %66, %67 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %69 = stablehlo.concatenate %68, %63, dim = 1 : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x2xf32>
    %70 = stablehlo.pad %69, %cst, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    %71 = stablehlo.pad %52, %cst, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<?x2xf32>, tensor<f32>) -> tensor<?x4xf32>
    %72 = stablehlo.add %70, %71 : tensor<?x4xf32>
    %73 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %74 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %75 = stablehlo.concatenate %74, %c_0, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %76 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %77 = stablehlo.real_dynamic_slice %72, %73, %75, %76 : (tensor<?x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
    %78 = stablehlo.concatenate %c_5, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %79 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %80 = stablehlo.concatenate %79, %c_1, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %81 = stablehlo.concatenate %c_3, %c_2, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %82 = stablehlo.real_dynamic_slice %arg1, %78, %80, %81 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x3xf32>
    %83 = stablehlo.add %77, %82 : tensor<?x3xf32>
    %84 = stablehlo.concatenate %c_5, %c_5, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %85 = stablehlo.reshape %arg0 : (tensor<i32>) -> tensor<1xi32>
    %86 = stablehlo.concatenate %85, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %87 = stablehlo.concatenate %c_3, %c_3, dim = 0 : (tensor<1xi32>, tensor<1xi32>) -> tensor<2xi32>
    %88 = stablehlo.real_dynamic_slice %arg1, %84, %86, %87 : (tensor<?x8xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<?x1xf32>
    %89 = stablehlo.concatenate %88, %83, dim = 1 : (tensor<?x1xf32>, tensor<?x3xf32>) -> tensor<?x4xf32>
    %90 = stablehlo.pad %89, %cst, low = [0, 0], high = [0, 1], interior = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x8xf32>
    %91 = stablehlo.pad %72, %cst, low = [0, 1], high = [0, 0], interior = [0, 1] : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x8xf32>
    %92 = stablehlo.add %90, %91 : tensor<?x8xf32>
    return %92 : tensor<?x8xf32>
  }
}
