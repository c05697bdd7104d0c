module @jit_cnn attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<3x3x3x16xf32>, %arg1: tensor<3x3x16x16xf32>, %arg2: tensor<3x3x16x16xf32>, %arg3: tensor<3x3x16x32xf32>, %arg4: tensor<2048x64xf32>, %arg5: tensor<64x10xf32>, %arg6: tensor<2x32x32x3xf32>) -> (tensor<2x10xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.convolution(%arg6, %arg0) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x32x32x3xf32>, tensor<3x3x3x16xf32>) -> tensor<2x32x32x16xf32>
    %1 = call @relu(%0) : (tensor<2x32x32x16xf32>) -> tensor<2x32x32x16xf32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<f32>
    %3 = "stablehlo.reduce_window"(%1, %2) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %28 = stablehlo.maximum %arg7, %arg8 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x32x32x16xf32>, tensor<f32>) -> tensor<2x16x16x16xf32>
    %4 = stablehlo.convolution(%3, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x16x16xf32>, tensor<3x3x16x16xf32>) -> tensor<2x16x16x16xf32>
    %5 = call @relu_0(%4) : (tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
    %6 = stablehlo.convolution(%5, %arg2) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x16x16x16xf32>, tensor<3x3x16x16xf32>) -> tensor<2x16x16x16xf32>
    %7 = stablehlo.add %3, %6 : tensor<2x16x16x16xf32>
    %8 = call @relu_0(%7) : (tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32>
    %cst_0 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %9 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<f32>
    %10 = "stablehlo.reduce_window"(%8, %9) <{base_dilations = array<i64: 1, 1, 1, 1>, padding = dense<0> : tensor<4x2xi64>, window_dilations = array<i64: 1, 1, 1, 1>, window_dimensions = array<i64: 1, 2, 2, 1>, window_strides = array<i64: 1, 2, 2, 1>}> ({
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %28 = stablehlo.maximum %arg7, %arg8 : tensor<f32>
      stablehlo.return %28 : tensor<f32>
    }) : (tensor<2x16x16x16xf32>, tensor<f32>) -> tensor<2x8x8x16xf32>
    %11 = stablehlo.convolution(%10, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]], lhs_dilate = [1, 1], rhs_dilate = [1, 1], reverse = [false, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]} : (tensor<2x8x8x16xf32>, tensor<3x3x16x32xf32>) -> tensor<2x8x8x32xf32>
    %12 = call @relu_1(%11) : (tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32>
    %13 = stablehlo.reshape %12 : (tensor<2x8x8x32xf32>) -> tensor<2x2048xf32>
    %14 = stablehlo.dot_general %13, %arg4, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x2048xf32>, tensor<2048x64xf32>) -> tensor<2x64xf32>
    %15 = call @relu_2(%14) : (tensor<2x64xf32>) -> tensor<2x64xf32>
    %16 = stablehlo.dot_general %15, %arg5, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<2x64xf32>, tensor<64x10xf32>) -> tensor<2x10xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %17 = stablehlo.reduce(%16 init: %cst_1) applies stablehlo.maximum across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %cst_2 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %18 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %19 = stablehlo.maximum %18, %17 : tensor<2xf32>
    %20 = stablehlo.broadcast_in_dim %19, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %21 = stablehlo.broadcast_in_dim %20, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %22 = stablehlo.subtract %16, %21 : tensor<2x10xf32>
    %23 = stablehlo.exponential %22 : tensor<2x10xf32>
    %cst_3 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %24 = stablehlo.reduce(%23 init: %cst_3) applies stablehlo.add across dimensions = [1] : (tensor<2x10xf32>, tensor<f32>) -> tensor<2xf32>
    %25 = stablehlo.broadcast_in_dim %24, dims = [0] : (tensor<2xf32>) -> tensor<2x1xf32>
    %26 = stablehlo.broadcast_in_dim %25, dims = [0, 1] : (tensor<2x1xf32>) -> tensor<2x10xf32>
    %27 = stablehlo.divide %23, %26 : tensor<2x10xf32>
    return %27 : tensor<2x10xf32>
  }
  func.func private @relu(%arg0: tensor<2x32x32x16xf32>) -> tensor<2x32x32x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x32x32x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x32x32x16xf32>
    return %1 : tensor<2x32x32x16xf32>
  }
  func.func private @relu_0(%arg0: tensor<2x16x16x16xf32>) -> tensor<2x16x16x16xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x16x16x16xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x16x16x16xf32>
    return %1 : tensor<2x16x16x16xf32>
  }
  func.func private @relu_1(%arg0: tensor<2x8x8x32xf32>) -> tensor<2x8x8x32xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x8x8x32xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x8x8x32xf32>
    return %1 : tensor<2x8x8x32xf32>
  }
  func.func private @relu_2(%arg0: tensor<2x64xf32>) -> tensor<2x64xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x64xf32>
    %1 = stablehlo.maximum %arg0, %0 : tensor<2x64xf32>
    return %1 : tensor<2x64xf32>
  }
}
