module attributes {tf.versions = {bad_consumers = [], min_consumer = 0 : i32, producer = 2474 : i32}} {
  func.func @__inference_pruned_149(%arg0: tensor<?x4x6x2xf32>) -> (tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>) attributes {allow_soft_placement = false, tf.entry_function = {control_outputs = "", inputs = "x", outputs = "identity_RetVal,identity_1_RetVal,identity_2_RetVal,identity_3_RetVal,identity_4_RetVal,identity_5_RetVal,identity_6_RetVal,identity_7_RetVal,identity_8_RetVal"}} {
    %0:9 = tf_executor.graph {
      %outputs, %control = tf_executor.island wraps "tf.Const"() <{value = dense<[6, 11]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_0, %control_1 = tf_executor.island wraps "tf.Const"() <{value = dense<[2, 3]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_2, %control_3 = tf_executor.island wraps "tf.Const"() <{value = dense<[8, 4]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_4, %control_5 = tf_executor.island wraps "tf.Const"() <{value = dense<[5, 13]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_6, %control_7 = tf_executor.island wraps "tf.Const"() <{value = dense<[[[[-0.742859602, -0.00144427514], [0.202996716, -9.426220e-01], [-0.704147815, 0.856422066], [-0.859158873, -0.74045211], [0.89665693, 0.243767187]], [[-0.262013763, 0.022780044], [0.325685918, -0.449382365], [-0.724063873, 0.57607919], [0.34072116, 0.0247646272], [0.633472859, 0.0981505364]], [[0.961827278, -0.590981066], [0.107460722, -0.0327506065], [-0.293450296, 0.183190614], [-0.529397547, 0.604405344], [0.734667122, -0.742480636]]], [[[-0.0658535883, -0.445710212], [-0.833765983, 0.791888594], [-0.14010261, -0.704617381], [0.346724719, -0.595567942], [0.802862167, -0.565703511]], [[-0.933850646, -0.598462105], [-0.308504254, -0.0621836744], [0.812268674, 0.394722164], [-0.321358681, -0.966245591], [-0.680352628, 0.992871761]], [[-0.0805680379, 0.38207984], [-0.890663862, -0.931899428], [0.69178021, 0.175763875], [-0.382580519, -0.365246713], [-0.821525514, -0.654660821]]], [[[-0.950827777, 0.678249717], [-0.0673936084, -0.745594144], [0.47849375, -0.608694315], [-0.876159548, 0.196784213], [0.791515529, -0.946113169]], [[0.61027199, -0.61965996], [-0.814197182, -0.964075922], [-0.414049864, 0.454223484], [-0.0136420978, 7.058400e-01], [-0.565577388, -0.369634509]], [[-0.483718306, 0.956602275], [8.820120e-01, -0.318627656], [-1.279970e-01, -0.371360749], [0.493017823, -0.91997379], [-0.865122139, -0.191924825]]]]> : tensor<3x3x5x2xf32>}> {device = ""} : () -> tensor<3x3x5x2xf32>
      %outputs_8, %control_9 = tf_executor.island wraps "tf.Const"() <{value = dense<8> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_10, %control_11 = tf_executor.island wraps "tf.Const"() <{value = dense<12> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_12, %control_13 = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_14, %control_15 = tf_executor.island wraps "tf.Const"() <{value = dense<9> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_16, %control_17 = tf_executor.island wraps "tf.Const"() <{value = dense<13> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_18, %control_19 = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_20, %control_21 = tf_executor.island wraps "tf.Const"() <{value = dense<4> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_22, %control_23 = tf_executor.island wraps "tf.Const"() <{value = dense<6> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_24, %control_25 = tf_executor.island wraps "tf.Const"() <{value = dense<5> : tensor<i32>}> {device = ""} : () -> tensor<i32>
      %outputs_26, %control_27 = tf_executor.island wraps "tf.Const"() <{value = dense<[7, 5]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_28, %control_29 = tf_executor.island wraps "tf.Const"() <{value = dense<[3, 9]> : tensor<2xi32>}> {device = ""} : () -> tensor<2xi32>
      %outputs_30, %control_31 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_32, %control_33 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_34, %control_35 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_36, %control_37 = tf_executor.island wraps "tf.Const"() <{value = dense<0> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_38, %control_39 = tf_executor.island wraps "tf.Const"() <{value = dense<2> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_40, %control_41 = tf_executor.island wraps "tf.Const"() <{value = dense<1> : tensor<1xi32>}> {device = ""} : () -> tensor<1xi32>
      %outputs_42, %control_43 = tf_executor.island wraps "tf.StridedSlice"(%outputs_6, %outputs_36, %outputs_38, %outputs_40) <{begin_mask = 1 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 0 : i64}> {device = ""} : (tensor<3x3x5x2xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xf32>
      %outputs_44, %control_45 = tf_executor.island wraps "tf.ResizeBilinear"(%arg0, %outputs) <{align_corners = true, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_46, %control_47 = tf_executor.island wraps "tf.Identity"(%outputs_44) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_48, %control_49 = tf_executor.island wraps "tf.ResizeBilinear"(%arg0, %outputs_0) <{align_corners = false, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_50, %control_51 = tf_executor.island wraps "tf.Identity"(%outputs_48) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_52, %control_53 = tf_executor.island wraps "tf.ResizeNearestNeighbor"(%arg0, %outputs_2) <{align_corners = true, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_54, %control_55 = tf_executor.island wraps "tf.Identity"(%outputs_52) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_56, %control_57 = tf_executor.island wraps "tf.ResizeNearestNeighbor"(%arg0, %outputs_4) <{align_corners = false, half_pixel_centers = false}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_58, %control_59 = tf_executor.island wraps "tf.Identity"(%outputs_56) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_60, %control_61 = tf_executor.island wraps "tf.Shape"(%arg0) {device = ""} : (tensor<?x4x6x2xf32>) -> tensor<*xi32>
      %outputs_62, %control_63 = tf_executor.island wraps "tf.StridedSlice"(%outputs_60, %outputs_30, %outputs_32, %outputs_34) <{begin_mask = 0 : i64, ellipsis_mask = 0 : i64, end_mask = 0 : i64, new_axis_mask = 0 : i64, shrink_axis_mask = 1 : i64}> {device = ""} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<*xi32>
      %outputs_64, %control_65 = tf_executor.island wraps "tf.Pack"(%outputs_62, %outputs_8, %outputs_10, %outputs_12) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_66, %control_67 = tf_executor.island wraps "tf.Conv2DBackpropInput"(%outputs_64, %outputs_6, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<*xi32>, tensor<3x3x5x2xf32>, tensor<?x4x6x2xf32>) -> tensor<*xf32>
      %outputs_68, %control_69 = tf_executor.island wraps "tf.Identity"(%outputs_66) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_70, %control_71 = tf_executor.island wraps "tf.Pack"(%outputs_62, %outputs_14, %outputs_16, %outputs_18) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_72, %control_73 = tf_executor.island wraps "tf.Conv2DBackpropInput"(%outputs_70, %outputs_6, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "VALID", strides = [1, 2, 2, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<*xi32>, tensor<3x3x5x2xf32>, tensor<?x4x6x2xf32>) -> tensor<*xf32>
      %outputs_74, %control_75 = tf_executor.island wraps "tf.Identity"(%outputs_72) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_76, %control_77 = tf_executor.island wraps "tf.Pack"(%outputs_62, %outputs_20, %outputs_22, %outputs_24) <{axis = 0 : i64}> {device = ""} : (tensor<*xi32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<*xi32>
      %outputs_78, %control_79 = tf_executor.island wraps "tf.Conv2DBackpropInput"(%outputs_76, %outputs_42, %arg0) <{data_format = "NHWC", dilations = [1, 1, 1, 1], explicit_paddings = [], padding = "SAME", strides = [1, 1, 1, 1], use_cudnn_on_gpu = true}> {device = ""} : (tensor<*xi32>, tensor<*xf32>, tensor<?x4x6x2xf32>) -> tensor<*xf32>
      %outputs_80, %control_81 = tf_executor.island wraps "tf.Identity"(%outputs_78) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_82, %control_83 = tf_executor.island wraps "tf.ResizeBilinear"(%arg0, %outputs_26) <{align_corners = false, half_pixel_centers = true}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_84, %control_85 = tf_executor.island wraps "tf.Identity"(%outputs_82) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      %outputs_86, %control_87 = tf_executor.island wraps "tf.ResizeNearestNeighbor"(%arg0, %outputs_28) <{align_corners = false, half_pixel_centers = true}> {device = ""} : (tensor<?x4x6x2xf32>, tensor<2xi32>) -> tensor<*xf32>
      %outputs_88, %control_89 = tf_executor.island wraps "tf.Identity"(%outputs_86) {device = ""} : (tensor<*xf32>) -> tensor<*xf32>
      tf_executor.fetch %outputs_68, %outputs_74, %outputs_80, %outputs_84, %outputs_88, %outputs_46, %outputs_54, %outputs_50, %outputs_58 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
    }
    return %0#0, %0#1, %0#2, %0#3, %0#4, %0#5, %0#6, %0#7, %0#8 : tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>, tensor<*xf32>
  }
}
