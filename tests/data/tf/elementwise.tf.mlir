module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_f_393(%arg0: tensor<3x5xf32> {tf._user_specified_name = "x"}, %arg1: tensor<3x5xf32> {tf._user_specified_name = "y"}, %arg2: tensor<3x5xi32> {tf._user_specified_name = "k"}) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xi32>, tensor<3x5xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x,y,k", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal"}} {
    %cst = "tf.Const"() <{value = dense<4.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_0 = "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %cst_1 = "tf.Const"() <{value = dense<0.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_2 = "tf.Const"() <{value = dense<2.500000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_3 = "tf.Const"() <{value = dense<1.000000e+00> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_4 = "tf.Const"() <{value = dense<5.000000e-01> : tensor<f32>}> {device = ""} : () -> tensor<f32>
    %cst_5 = "tf.Const"() <{value = dense<3> : tensor<i32>}> {device = ""} : () -> tensor<i32>
    %0 = "tf.Cast"(%arg2) <{Truncate = false}> {device = ""} : (tensor<3x5xi32>) -> tensor<3x5xf32>
    %1 = "tf.FloorMod"(%arg2, %cst_0) {device = ""} : (tensor<3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
    %2 = "tf.FloorDiv"(%arg2, %cst_5) {device = ""} : (tensor<3x5xi32>, tensor<i32>) -> tensor<3x5xi32>
    %3 = "tf.AddV2"(%2, %1) {device = ""} : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
    %4 = "tf.Abs"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %5 = "tf.AddV2"(%4, %cst_4) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
    %6 = "tf.Rsqrt"(%5) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %7 = "tf.Exp"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %8 = "tf.Greater"(%arg0, %cst_1) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xi1>
    %9 = "tf.Cast"(%8) <{Truncate = false}> {device = ""} : (tensor<3x5xi1>) -> tensor<3x5xi32>
    %10 = "tf.AddV2"(%3, %9) {device = ""} : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi32>
    %11 = "tf.Identity"(%10) {device = ""} : (tensor<3x5xi32>) -> tensor<3x5xi32>
    %12 = "tf.LeakyRelu"(%arg0) <{alpha = 2.000000e-01 : f32}> {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %13 = "tf.Minimum"(%arg0, %cst_2) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
    %14 = "tf.Tanh"(%arg0) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %15 = "tf.Mul"(%arg0, %cst) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
    %16 = "tf.Relu6"(%15) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %17 = "tf.Abs"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %18 = "tf.Log1p"(%17) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %19 = "tf.AddV2"(%7, %18) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %20 = "tf.AddV2"(%17, %cst_3) {device = ""} : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
    %21 = "tf.RealDiv"(%0, %20) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %22 = "tf.Elu"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %23 = "tf.AddV2"(%16, %22) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %24 = "tf.AddV2"(%23, %12) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %25 = "tf.Greater"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xi1>
    %26 = "tf.Maximum"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %27 = "tf.Sub"(%26, %13) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %28 = "tf.Neg"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %29 = "tf.SelectV2"(%25, %arg0, %28) {device = ""} : (tensor<3x5xi1>, tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %30 = "tf.AddV2"(%27, %29) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %31 = "tf.Identity"(%30) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %32 = "tf.Pow"(%5, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %33 = "tf.AddV2"(%32, %21) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %34 = "tf.Identity"(%33) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %35 = "tf.Sigmoid"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %36 = "tf.Mul"(%14, %35) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %37 = "tf.Sub"(%19, %36) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %38 = "tf.Identity"(%37) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %39 = "tf.Softplus"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %40 = "tf.AddV2"(%24, %39) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %41 = "tf.Identity"(%40) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %42 = "tf.Square"(%arg1) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %43 = "tf.AddV2"(%6, %42) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %44 = "tf.SquaredDifference"(%arg0, %arg1) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %45 = "tf.AddV2"(%43, %44) {device = ""} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %46 = "tf.Identity"(%45) {device = ""} : (tensor<3x5xf32>) -> tensor<3x5xf32>
    return %38, %46, %31, %41, %11, %34 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xf32>, tensor<3x5xi32>, tensor<3x5xf32>
  }
}
