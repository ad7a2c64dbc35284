// fuzz seed 11 index 9251 (from conformance/cholesky_lapack_f32.mlir): a LAPACK custom call
// whose operand type did not parse as a tensor was rewritten before the verifier saw it
// (AttributeError: 'OpaqueType' object has no attribute 'rank').
// expect: error 'type tensor<5xxf32> is not supported'
func.func public @main(%arg0: tensor<5xxf32>) -> (tensor<5xxf32>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%arg0) {mhlo.backend_config = {uplo = 76 : ui8}, mhlo.frontend_attributes = {num_batch_dims = "0"}} : (tensor<5xxf32>) -> (tensor<5xxf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<5xxf32>, tensor<i32>
}
