module {
  util.global private @conv1_w = #stream.parameter.named<"model"::"conv1_w"> : tensor<16x3x3x3xf32>
  util.global private @conv2_w = #stream.parameter.named<"model"::"conv2_w"> : tensor<16x16x3x3xf32>
  util.global private @conv3_w = #stream.parameter.named<"model"::"conv3_w"> : tensor<16x16x3x3xf32>
  util.global private @conv4_w = #stream.parameter.named<"model"::"conv4_w"> : tensor<32x16x3x3xf32>
  util.global private @fc_w = #stream.parameter.named<"model"::"fc_w"> : tensor<10x32xf32>
  func.func @cnn(%arg0: !torch.vtensor<[1,3,32,32],f32>) -> !torch.vtensor<[1,10],f32> attributes {torch.onnx_meta.ir_version = 14 : si64, torch.onnx_meta.opset_version = 17 : si64, torch.onnx_meta.producer_name = "", torch.onnx_meta.producer_version = ""} {
    %conv1_w = util.global.load @conv1_w : tensor<16x3x3x3xf32>
    %0 = torch_c.from_builtin_tensor %conv1_w : tensor<16x3x3x3xf32> -> !torch.vtensor<[16,3,3,3],f32>
    %1 = torch.operator "onnx.Constant"() {torch.onnx.value = dense_resource<conv1_b> : tensor<16xf32>} : () -> !torch.vtensor<[16],f32> 
    %conv2_w = util.global.load @conv2_w : tensor<16x16x3x3xf32>
    %2 = torch_c.from_builtin_tensor %conv2_w : tensor<16x16x3x3xf32> -> !torch.vtensor<[16,16,3,3],f32>
    %3 = torch.operator "onnx.Constant"() {torch.onnx.value = dense_resource<conv2_b> : tensor<16xf32>} : () -> !torch.vtensor<[16],f32> 
    %conv3_w = util.global.load @conv3_w : tensor<16x16x3x3xf32>
    %4 = torch_c.from_builtin_tensor %conv3_w : tensor<16x16x3x3xf32> -> !torch.vtensor<[16,16,3,3],f32>
    %5 = torch.operator "onnx.Constant"() {torch.onnx.value = dense_resource<conv3_b> : tensor<16xf32>} : () -> !torch.vtensor<[16],f32> 
    %conv4_w = util.global.load @conv4_w : tensor<32x16x3x3xf32>
    %6 = torch_c.from_builtin_tensor %conv4_w : tensor<32x16x3x3xf32> -> !torch.vtensor<[32,16,3,3],f32>
    %7 = torch.operator "onnx.Constant"() {torch.onnx.value = dense_resource<conv4_b> : tensor<32xf32>} : () -> !torch.vtensor<[32],f32> 
    %fc_w = util.global.load @fc_w : tensor<10x32xf32>
    %8 = torch_c.from_builtin_tensor %fc_w : tensor<10x32xf32> -> !torch.vtensor<[10,32],f32>
    %9 = torch.operator "onnx.Constant"() {torch.onnx.value = dense_resource<fc_b> : tensor<10xf32>} : () -> !torch.vtensor<[10],f32> 
    %none = torch.constant.none
    %10 = torch.operator "onnx.Conv"(%arg0, %0, %1) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,3,32,32],f32>, !torch.vtensor<[16,3,3,3],f32>, !torch.vtensor<[16],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %11 = torch.operator "onnx.Relu"(%10) : (!torch.vtensor<[1,16,32,32],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %12 = torch.operator "onnx.Conv"(%11, %2, %3) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,16,32,32],f32>, !torch.vtensor<[16,16,3,3],f32>, !torch.vtensor<[16],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %13 = torch.operator "onnx.Relu"(%12) : (!torch.vtensor<[1,16,32,32],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %14 = torch.operator "onnx.Conv"(%13, %4, %5) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,16,32,32],f32>, !torch.vtensor<[16,16,3,3],f32>, !torch.vtensor<[16],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %15 = torch.operator "onnx.Add"(%11, %14) : (!torch.vtensor<[1,16,32,32],f32>, !torch.vtensor<[1,16,32,32],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %16 = torch.operator "onnx.Relu"(%15) : (!torch.vtensor<[1,16,32,32],f32>) -> !torch.vtensor<[1,16,32,32],f32> 
    %17 = torch.operator "onnx.MaxPool"(%16) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,16,32,32],f32>) -> !torch.vtensor<[1,16,16,16],f32> 
    %18 = torch.operator "onnx.Conv"(%17, %6, %7) {torch.onnx.pads = [1 : si64, 1 : si64, 1 : si64, 1 : si64]} : (!torch.vtensor<[1,16,16,16],f32>, !torch.vtensor<[32,16,3,3],f32>, !torch.vtensor<[32],f32>) -> !torch.vtensor<[1,32,16,16],f32> 
    %19 = torch.operator "onnx.Relu"(%18) : (!torch.vtensor<[1,32,16,16],f32>) -> !torch.vtensor<[1,32,16,16],f32> 
    %20 = torch.operator "onnx.MaxPool"(%19) {torch.onnx.kernel_shape = [2 : si64, 2 : si64], torch.onnx.strides = [2 : si64, 2 : si64]} : (!torch.vtensor<[1,32,16,16],f32>) -> !torch.vtensor<[1,32,8,8],f32> 
    %21 = torch.operator "onnx.GlobalAveragePool"(%20) : (!torch.vtensor<[1,32,8,8],f32>) -> !torch.vtensor<[1,32,1,1],f32> 
    %22 = torch.operator "onnx.Flatten"(%21) : (!torch.vtensor<[1,32,1,1],f32>) -> !torch.vtensor<[1,32],f32> 
    %23 = torch.operator "onnx.Gemm"(%22, %8, %9) {torch.onnx.transB = 1 : si64} : (!torch.vtensor<[1,32],f32>, !torch.vtensor<[10,32],f32>, !torch.vtensor<[10],f32>) -> !torch.vtensor<[1,10],f32> 
    return %23 : !torch.vtensor<[1,10],f32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      conv1_b: "0x080000000555743FE3610B3F22C11DBEE84E8A3F68F9BFBFEAC4AD3FC66C82BD09DD0ABFDFC93F3FC5AA873F5011453FBEEFFF3F3B558A3FF249A43F86340ABF2329DA3D",
      conv2_b: "0x0800000027E3FABFB1A22140C754B53E73111DBF540F913F65D148BF1A12F43D47DF91BE105B9A3A523E0FBFDC53E03ECC663DBF2E71E63DF3E4203FF87218BF80EB553F",
      conv3_b: "0x08000000955F753FD1E22C3DDFA3014009E48D3E2A10B33E9FCA59BF2BE0EEBE51CA1D3FFF3E1B3F1445A73EDEE0983E043DA43F902C6CBE682EC23E025AC4BF00165A3F",
      conv4_b: "0x08000000E279CB3F7270D5BF669E633EE29FFD3D287DE0BF98D0DC3FA6278E3EAE74BDBF0BB6B4BD4FB3EA3E5184263F8174433F432CC6BF281B32BE393BE33FA85B143F9E9127BE9F3FBA3E8F8046BF7C6194BE5486B13B2D7BAEBEADFF933F3C3019BFE549873FF82A473FF8FD993F4AF7A8BFFA57383D58021F3FA593703FF58B40BE",
      fc_b: "0x08000000CE16AC3FCD0EEC3C66CACEBE98298A3F0CBF15BF150D83BDE1945F3FA424E6BEE800853FE99F823F"
    }
  }
#-}

