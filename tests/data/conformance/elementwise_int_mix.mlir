module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xi32>, %arg1: tensor<4x5xi32>) -> (tensor<4x5xi32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<4x5xi32>
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %2 = stablehlo.shift_right_arithmetic %arg0, %1 : tensor<4x5xi32>
    %3 = stablehlo.xor %0, %2 : tensor<4x5xi32>
    %4 = stablehlo.abs %arg0 : tensor<4x5xi32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %5 = call @remainder(%4, %c_0) : (tensor<4x5xi32>, tensor<i32>) -> tensor<4x5xi32>
    %6 = stablehlo.add %3, %5 : tensor<4x5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %8 = stablehlo.compare EQ, %arg1, %7, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %c_2 = stablehlo.constant dense<1> : tensor<i32>
    %9 = call @_where_0(%8, %c_2, %arg1) : (tensor<4x5xi1>, tensor<i32>, tensor<4x5xi32>) -> tensor<4x5xi32>
    %10 = stablehlo.divide %arg0, %9 : tensor<4x5xi32>
    %11 = stablehlo.subtract %6, %10 : tensor<4x5xi32>
    %12 = stablehlo.popcnt %arg1 : tensor<4x5xi32>
    %13 = stablehlo.add %11, %12 : tensor<4x5xi32>
    return %13 : tensor<4x5xi32>
  }
  func.func private @remainder(%arg0: tensor<4x5xi32>, %arg1: tensor<i32>) -> tensor<4x5xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<4x5xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<4x5xi32>, tensor<4x5xi32>) -> tensor<4x5xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<4x5xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<4x5xi1>, tensor<4x5xi1>) -> tensor<4x5xi1>
    %12 = stablehlo.and %11, %6 : tensor<4x5xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %14 = stablehlo.add %4, %13 : tensor<4x5xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<4x5xi1>, tensor<4x5xi32>
    return %15 : tensor<4x5xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<4x5xi1>, %arg1: tensor<i32>, %arg2: tensor<4x5xi32>) -> tensor<4x5xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<i32>) -> tensor<4x5xi32>
    %2 = stablehlo.select %arg0, %1, %arg2 : tensor<4x5xi1>, tensor<4x5xi32>
    return %2 : tensor<4x5xi32>
  }
}
