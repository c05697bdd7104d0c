// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.initializer {
  %c10240 = arith.constant 10240 : index
  %c512 = arith.constant 512 : index
  %c131072 = arith.constant 131072 : index
  %c2048 = arith.constant 2048 : index
  %c524288 = arith.constant 524288 : index
  %c1024 = arith.constant 1024 : index
  %c65536 = arith.constant 65536 : index
  %cst = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c65536} = dense_resource<__elided__> : tensor<256x64xf32>
  %cst_0 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1024} = dense_resource<__elided__> : tensor<256xf32>
  %cst_1 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c524288} = dense_resource<__elided__> : tensor<512x256xf32>
  %cst_2 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c2048} = dense_resource<__elided__> : tensor<512xf32>
  %cst_3 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c524288} = dense_resource<__elided__> : tensor<256x512xf32>
  %cst_4 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1024} = dense_resource<__elided__> : tensor<256xf32>
  %cst_5 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c131072} = dense_resource<__elided__> : tensor<128x256xf32>
  %cst_6 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c512} = dense_resource<__elided__> : tensor<128xf32>
  %cst_7 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c131072} = dense_resource<__elided__> : tensor<256x128xf32>
  %cst_8 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1024} = dense_resource<__elided__> : tensor<256xf32>
  %cst_9 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c10240} = dense_resource<__elided__> : tensor<10x256xf32>
  util.global.store %cst_9, @__constant_tensor_10x256xf32 : !stream.resource<constant>
  util.global.store %c10240, @__constant_tensor_10x256xf32__size : index
  util.global.store %cst_5, @__constant_tensor_128x256xf32 : !stream.resource<constant>
  util.global.store %c131072, @__constant_tensor_128x256xf32__size : index
  util.global.store %cst_6, @__constant_tensor_128xf32 : !stream.resource<constant>
  util.global.store %c512, @__constant_tensor_128xf32__size : index
  util.global.store %cst_7, @__constant_tensor_256x128xf32 : !stream.resource<constant>
  util.global.store %c131072, @__constant_tensor_256x128xf32__size : index
  util.global.store %cst_3, @__constant_tensor_256x512xf32 : !stream.resource<constant>
  util.global.store %c524288, @__constant_tensor_256x512xf32__size : index
  util.global.store %cst, @__constant_tensor_256x64xf32 : !stream.resource<constant>
  util.global.store %c65536, @__constant_tensor_256x64xf32__size : index
  util.global.store %cst_0, @__constant_tensor_256xf32 : !stream.resource<constant>
  util.global.store %cst_4, @__constant_tensor_256xf32_0 : !stream.resource<constant>
  util.global.store %c1024, @__constant_tensor_256xf32_0__size : index
  util.global.store %cst_8, @__constant_tensor_256xf32_1 : !stream.resource<constant>
  util.global.store %c1024, @__constant_tensor_256xf32_1__size : index
  util.global.store %c1024, @__constant_tensor_256xf32__size : index
  util.global.store %cst_1, @__constant_tensor_512x256xf32 : !stream.resource<constant>
  util.global.store %c524288, @__constant_tensor_512x256xf32__size : index
  util.global.store %cst_2, @__constant_tensor_512xf32 : !stream.resource<constant>
  util.global.store %c2048, @__constant_tensor_512xf32__size : index
  util.return
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @mlp$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
  %c320 = arith.constant 320 : index
  %c4096 = arith.constant 4096 : index
  %c16384 = arith.constant 16384 : index
  %c0 = arith.constant 0 : index
  %c8192 = arith.constant 8192 : index
  %c2048 = arith.constant 2048 : index
  %c64 = arith.constant 64 : index
  %c8 = arith.constant 8 : index
  %__constant_tensor_256x64xf32 = util.global.load immutable @__constant_tensor_256x64xf32 : !stream.resource<constant>
  %__constant_tensor_256x64xf32__size = util.global.load immutable @__constant_tensor_256x64xf32__size : index
  %__constant_tensor_256xf32 = util.global.load immutable @__constant_tensor_256xf32 : !stream.resource<constant>
  %__constant_tensor_256xf32__size = util.global.load immutable @__constant_tensor_256xf32__size : index
  %__constant_tensor_512x256xf32 = util.global.load immutable @__constant_tensor_512x256xf32 : !stream.resource<constant>
  %__constant_tensor_512x256xf32__size = util.global.load immutable @__constant_tensor_512x256xf32__size : index
  %__constant_tensor_512xf32 = util.global.load immutable @__constant_tensor_512xf32 : !stream.resource<constant>
  %__constant_tensor_512xf32__size = util.global.load immutable @__constant_tensor_512xf32__size : index
  %__constant_tensor_256x512xf32 = util.global.load immutable @__constant_tensor_256x512xf32 : !stream.resource<constant>
  %__constant_tensor_256x512xf32__size = util.global.load immutable @__constant_tensor_256x512xf32__size : index
  %__constant_tensor_256xf32_0 = util.global.load immutable @__constant_tensor_256xf32_0 : !stream.resource<constant>
  %__constant_tensor_256xf32_0__size = util.global.load immutable @__constant_tensor_256xf32_0__size : index
  %__constant_tensor_128x256xf32 = util.global.load immutable @__constant_tensor_128x256xf32 : !stream.resource<constant>
  %__constant_tensor_128x256xf32__size = util.global.load immutable @__constant_tensor_128x256xf32__size : index
  %__constant_tensor_128xf32 = util.global.load immutable @__constant_tensor_128xf32 : !stream.resource<constant>
  %__constant_tensor_128xf32__size = util.global.load immutable @__constant_tensor_128xf32__size : index
  %__constant_tensor_256x128xf32 = util.global.load immutable @__constant_tensor_256x128xf32 : !stream.resource<constant>
  %__constant_tensor_256x128xf32__size = util.global.load immutable @__constant_tensor_256x128xf32__size : index
  %__constant_tensor_256xf32_1 = util.global.load immutable @__constant_tensor_256xf32_1 : !stream.resource<constant>
  %__constant_tensor_256xf32_1__size = util.global.load immutable @__constant_tensor_256xf32_1__size : index
  %__constant_tensor_10x256xf32 = util.global.load immutable @__constant_tensor_10x256xf32 : !stream.resource<constant>
  %__constant_tensor_10x256xf32__size = util.global.load immutable @__constant_tensor_10x256xf32__size : index
  %0 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256x64xf32 : !stream.resource<constant>{%__constant_tensor_256x64xf32__size} -> !stream.resource<*>{%__constant_tensor_256x64xf32__size}
  %1 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256xf32 : !stream.resource<constant>{%__constant_tensor_256xf32__size} -> !stream.resource<*>{%__constant_tensor_256xf32__size}
  %2 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_512x256xf32 : !stream.resource<constant>{%__constant_tensor_512x256xf32__size} -> !stream.resource<*>{%__constant_tensor_512x256xf32__size}
  %3 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_512xf32 : !stream.resource<constant>{%__constant_tensor_512xf32__size} -> !stream.resource<*>{%__constant_tensor_512xf32__size}
  %4 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256x512xf32 : !stream.resource<constant>{%__constant_tensor_256x512xf32__size} -> !stream.resource<*>{%__constant_tensor_256x512xf32__size}
  %5 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256xf32_0 : !stream.resource<constant>{%__constant_tensor_256xf32_0__size} -> !stream.resource<*>{%__constant_tensor_256xf32_0__size}
  %6 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_128x256xf32 : !stream.resource<constant>{%__constant_tensor_128x256xf32__size} -> !stream.resource<*>{%__constant_tensor_128x256xf32__size}
  %7 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_128xf32 : !stream.resource<constant>{%__constant_tensor_128xf32__size} -> !stream.resource<*>{%__constant_tensor_128xf32__size}
  %8 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256x128xf32 : !stream.resource<constant>{%__constant_tensor_256x128xf32__size} -> !stream.resource<*>{%__constant_tensor_256x128xf32__size}
  %9 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_256xf32_1 : !stream.resource<constant>{%__constant_tensor_256xf32_1__size} -> !stream.resource<*>{%__constant_tensor_256xf32_1__size}
  %10 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_10x256xf32 : !stream.resource<constant>{%__constant_tensor_10x256xf32__size} -> !stream.resource<*>{%__constant_tensor_10x256xf32__size}
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("tensor") shape([%c8, %c64]) type(%element_type_f32) encoding(%dense_row_major)
  %11 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<8x64xf32> in !stream.resource<external>{%c2048}
  %12 = stream.timepoint.import on(#hal.device.affinity<@__device_0>) %arg1 : (!hal.fence) => !stream.timepoint
  %13 = stream.timepoint.await %12 => %11 : !stream.resource<external>{%c2048}
  %14 = stream.async.cast on(#hal.device.affinity<@__device_0>) %13 : !stream.resource<external>{%c2048} -> !stream.resource<*>{%c2048}
  %15 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_0::@mlp$async_dispatch_0_matmul_8x256x64_f32(%14[%c0 to %c2048 for %c2048], %0[%c0 to %__constant_tensor_256x64xf32__size for %__constant_tensor_256x64xf32__size], %1[%c0 to %__constant_tensor_256xf32__size for %__constant_tensor_256xf32__size]) : (!stream.resource<*>{%c2048}, !stream.resource<*>{%__constant_tensor_256x64xf32__size}, !stream.resource<*>{%__constant_tensor_256xf32__size}) -> !stream.resource<*>{%c8192}
  %16 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_1::@mlp$async_dispatch_1_matmul_8x512x256_f32(%15[%c0 to %c8192 for %c8192], %2[%c0 to %__constant_tensor_512x256xf32__size for %__constant_tensor_512x256xf32__size], %3[%c0 to %__constant_tensor_512xf32__size for %__constant_tensor_512xf32__size]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%__constant_tensor_512x256xf32__size}, !stream.resource<*>{%__constant_tensor_512xf32__size}) -> !stream.resource<*>{%c16384}
  %17 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_2::@mlp$async_dispatch_2_matmul_8x128x256_f32(%15[%c0 to %c8192 for %c8192], %6[%c0 to %__constant_tensor_128x256xf32__size for %__constant_tensor_128x256xf32__size], %7[%c0 to %__constant_tensor_128xf32__size for %__constant_tensor_128xf32__size]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%__constant_tensor_128x256xf32__size}, !stream.resource<*>{%__constant_tensor_128xf32__size}) -> !stream.resource<*>{%c4096}
  %18 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_3::@mlp$async_dispatch_3_matmul_8x256x128_f32(%17[%c0 to %c4096 for %c4096], %8[%c0 to %__constant_tensor_256x128xf32__size for %__constant_tensor_256x128xf32__size]) : (!stream.resource<*>{%c4096}, !stream.resource<*>{%__constant_tensor_256x128xf32__size}) -> !stream.resource<*>{%c8192}
  %19 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_4::@mlp$async_dispatch_4_matmul_8x256x512_f32(%16[%c0 to %c16384 for %c16384], %4[%c0 to %__constant_tensor_256x512xf32__size for %__constant_tensor_256x512xf32__size], %5[%c0 to %__constant_tensor_256xf32_0__size for %__constant_tensor_256xf32_0__size], %18[%c0 to %c8192 for %c8192], %9[%c0 to %__constant_tensor_256xf32_1__size for %__constant_tensor_256xf32_1__size], %15[%c0 to %c8192 for %c8192]) : (!stream.resource<*>{%c16384}, !stream.resource<*>{%__constant_tensor_256x512xf32__size}, !stream.resource<*>{%__constant_tensor_256xf32_0__size}, !stream.resource<*>{%c8192}, !stream.resource<*>{%__constant_tensor_256xf32_1__size}, !stream.resource<*>{%c8192}) -> !stream.resource<*>{%c8192}
  %20 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_5::@mlp$async_dispatch_5_matmul_8x10x256_f32(%19[%c0 to %c8192 for %c8192], %10[%c0 to %__constant_tensor_10x256xf32__size for %__constant_tensor_10x256xf32__size]) : (!stream.resource<*>{%c8192}, !stream.resource<*>{%__constant_tensor_10x256xf32__size}) -> !stream.resource<*>{%c320}
  %21 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @mlp$async_dispatch_6::@mlp$async_dispatch_6_softmax_8x10xf32_dispatch_tensor_store(%20[%c0 to %c320 for %c320]) : (!stream.resource<*>{%c320}) -> !stream.resource<*>{%c320}
  %result, %result_timepoint = stream.timepoint.barrier on(#hal.device.affinity<@__device_0>) %21 : !stream.resource<*>{%c320} => !stream.timepoint
  stream.timepoint.chain_external on(#hal.device.affinity<@__device_0>) %result_timepoint => (%arg2 : !hal.fence)
  %22 = stream.async.cast on(#hal.device.affinity<@__device_0>) %result : !stream.resource<*>{%c320} -> !stream.resource<external>{%c320}
  %23 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %22 : tensor<8x10xf32> in !stream.resource<external>{%c320} -> !hal.buffer_view
  util.return %23 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  %0 = util.null : !hal.fence
  %c-1_i32 = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %device_0 = hal.devices.get %c0 : !hal.device
  %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
  %1 = util.call @mlp$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
  %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
  util.return %1 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.initializer {
  %0 = stream.timepoint.immediate => !stream.timepoint
  %c10240 = arith.constant 10240 : index
  %c512 = arith.constant 512 : index
  %c131072 = arith.constant 131072 : index
  %c2048 = arith.constant 2048 : index
  %c524288 = arith.constant 524288 : index
  %c1024 = arith.constant 1024 : index
  %c65536 = arith.constant 65536 : index
  %1 = stream.timepoint.immediate => !stream.timepoint
  %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<1392128xi8, [
    dense_resource<__elided__> : tensor<256x64xf32>,
    dense_resource<__elided__> : tensor<256xf32>,
    dense_resource<__elided__> : tensor<512x256xf32>,
    dense_resource<__elided__> : tensor<512xf32>,
    dense_resource<__elided__> : tensor<256x512xf32>,
    dense_resource<__elided__> : tensor<256xf32>,
    dense_resource<__elided__> : tensor<128x256xf32>,
    dense_resource<__elided__> : tensor<128xf32>,
    dense_resource<__elided__> : tensor<256x128xf32>,
    dense_resource<__elided__> : tensor<256xf32>,
    dense_resource<__elided__> : tensor<10x256xf32>,
]>
  %c1392128 = arith.constant 1392128 : index
  %c0 = arith.constant 0 : index
  %did_map, %result = stream.resource.try_map on(#hal.device.affinity<@__device_0>) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c1392128}
  %c0_i64 = arith.constant 0 : i64
  %2:2 = scf.if %did_map -> (!stream.timepoint, !stream.resource<constant>) {
    scf.yield %1, %result : !stream.timepoint, !stream.resource<constant>
  } else {
    %17 = stream.resource.alloc uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1392128}
    %file = stream.file.constant on(#hal.device.affinity<@__device_0>) %buffer_cst[%c0 for %c1392128] : !util.buffer{%c1392128} -> !stream.file
    %18 = stream.file.read on(#hal.device.affinity<@__device_0>) await(%1) => %file[%c0_i64], %17[%c0], %c1392128 : !stream.file -> !stream.resource<constant>{%c1392128} => !stream.timepoint
    scf.yield %18, %17 : !stream.timepoint, !stream.resource<constant>
  }
  %3 = stream.resource.subview %2#1[%c0] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c65536}
  %4 = stream.resource.subview %2#1[%c65536] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c1024}
  %c66560 = arith.constant 66560 : index
  %5 = stream.resource.subview %2#1[%c66560] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c524288}
  %c590848 = arith.constant 590848 : index
  %6 = stream.resource.subview %2#1[%c590848] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c2048}
  %c592896 = arith.constant 592896 : index
  %7 = stream.resource.subview %2#1[%c592896] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c524288}
  %c1117184 = arith.constant 1117184 : index
  %8 = stream.resource.subview %2#1[%c1117184] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c1024}
  %c1118208 = arith.constant 1118208 : index
  %9 = stream.resource.subview %2#1[%c1118208] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c131072}
  %c1249280 = arith.constant 1249280 : index
  %10 = stream.resource.subview %2#1[%c1249280] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c512}
  %c1249792 = arith.constant 1249792 : index
  %11 = stream.resource.subview %2#1[%c1249792] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c131072}
  %c1380864 = arith.constant 1380864 : index
  %12 = stream.resource.subview %2#1[%c1380864] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c1024}
  %c1381888 = arith.constant 1381888 : index
  %13 = stream.resource.subview %2#1[%c1381888] : !stream.resource<constant>{%c1392128} -> !stream.resource<constant>{%c10240}
  %14 = stream.cmd.execute once on(#hal.device.affinity<@__device_0>) with() {
  } => !stream.timepoint
  %15 = stream.timepoint.join max(%2#0, %14) => !stream.timepoint
  %16:11 = stream.timepoint.await sync %15 => %13, %9, %10, %11, %12, %7, %8, %3, %4, %5, %6 : !stream.resource<constant>{%c10240}, !stream.resource<constant>{%c131072}, !stream.resource<constant>{%c512}, !stream.resource<constant>{%c131072}, !stream.resource<constant>{%c1024}, !stream.resource<constant>{%c524288}, !stream.resource<constant>{%c1024}, !stream.resource<constant>{%c65536}, !stream.resource<constant>{%c1024}, !stream.resource<constant>{%c524288}, !stream.resource<constant>{%c2048}
  util.global.store %16#0, @__constant_tensor_10x256xf32 : !stream.resource<constant>
  util.global.store %16#1, @__constant_tensor_128x256xf32 : !stream.resource<constant>
  util.global.store %16#2, @__constant_tensor_128xf32 : !stream.resource<constant>
  util.global.store %16#3, @__constant_tensor_256x128xf32 : !stream.resource<constant>
  util.global.store %16#5, @__constant_tensor_256x512xf32 : !stream.resource<constant>
  util.global.store %16#7, @__constant_tensor_256x64xf32 : !stream.resource<constant>
  util.global.store %0, @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  util.global.store %16#8, @__constant_tensor_256xf32 : !stream.resource<constant>
  util.global.store %16#6, @__constant_tensor_256xf32_0 : !stream.resource<constant>
  util.global.store %16#4, @__constant_tensor_256xf32_1 : !stream.resource<constant>
  util.global.store %16#9, @__constant_tensor_512x256xf32 : !stream.resource<constant>
  util.global.store %16#10, @__constant_tensor_512xf32 : !stream.resource<constant>
  util.return
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @mlp$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
  %c10240 = arith.constant 10240 : index
  %c512 = arith.constant 512 : index
  %c131072 = arith.constant 131072 : index
  %c524288 = arith.constant 524288 : index
  %c1024 = arith.constant 1024 : index
  %c65536 = arith.constant 65536 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  %c2048 = arith.constant 2048 : index
  %c8192 = arith.constant 8192 : index
  %c0 = arith.constant 0 : index
  %c16384 = arith.constant 16384 : index
  %c4096 = arith.constant 4096 : index
  %c320 = arith.constant 320 : index
  %__constant_tensor_256x64xf32__timepoint = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_0 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_1 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_2 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_3 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_4 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_5 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_6 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_7 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_8 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32__timepoint_9 = util.global.load immutable @__constant_tensor_256x64xf32__timepoint : !stream.timepoint
  %__constant_tensor_256x64xf32 = util.global.load immutable @__constant_tensor_256x64xf32 : !stream.resource<constant>
  %__constant_tensor_256xf32 = util.global.load immutable @__constant_tensor_256xf32 : !stream.resource<constant>
  %__constant_tensor_512x256xf32 = util.global.load immutable @__constant_tensor_512x256xf32 : !stream.resource<constant>
  %__constant_tensor_512xf32 = util.global.load immutable @__constant_tensor_512xf32 : !stream.resource<constant>
  %__constant_tensor_256x512xf32 = util.global.load immutable @__constant_tensor_256x512xf32 : !stream.resource<constant>
  %__constant_tensor_256xf32_0 = util.global.load immutable @__constant_tensor_256xf32_0 : !stream.resource<constant>
  %__constant_tensor_128x256xf32 = util.global.load immutable @__constant_tensor_128x256xf32 : !stream.resource<constant>
  %__constant_tensor_128xf32 = util.global.load immutable @__constant_tensor_128xf32 : !stream.resource<constant>
  %__constant_tensor_256x128xf32 = util.global.load immutable @__constant_tensor_256x128xf32 : !stream.resource<constant>
  %__constant_tensor_256xf32_1 = util.global.load immutable @__constant_tensor_256xf32_1 : !stream.resource<constant>
  %__constant_tensor_10x256xf32 = util.global.load immutable @__constant_tensor_10x256xf32 : !stream.resource<constant>
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("tensor") shape([%c8, %c64]) type(%element_type_f32) encoding(%dense_row_major)
  %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<8x64xf32> in !stream.resource<external>{%c2048}
  %1 = stream.timepoint.import on(#hal.device.affinity<@__device_0>) %arg1 : (!hal.fence) => !stream.timepoint
  %2 = stream.timepoint.join max(%1, %__constant_tensor_256x64xf32__timepoint_4, %__constant_tensor_256x64xf32__timepoint_1, %__constant_tensor_256x64xf32__timepoint_0, %__constant_tensor_256x64xf32__timepoint, %__constant_tensor_256x64xf32__timepoint_8, %__constant_tensor_256x64xf32__timepoint_7, %__constant_tensor_256x64xf32__timepoint_6, %__constant_tensor_256x64xf32__timepoint_5, %__constant_tensor_256x64xf32__timepoint_3, %__constant_tensor_256x64xf32__timepoint_2, %__constant_tensor_256x64xf32__timepoint_9) => !stream.timepoint
  %c0_10 = arith.constant 0 : index
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) await(%2) => !stream.resource<external>{%c320} => !stream.timepoint
  %3:7 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
    [0, 3] = %c8192,
    [1, 3] = %c16384,
    [1, 2] = %c4096,
    [2, 3] = %c8192,
    [3, 4] = %c8192,
    [4, 5] = %c320
  }) : index
  %result_11, %result_timepoint_12 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) await(%2) => !stream.resource<transient>{%3#0} => !stream.timepoint
  %4 = stream.timepoint.join max(%2, %result_timepoint, %result_timepoint_12) => !stream.timepoint
  %5 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%4) => with(%0 as %arg3: !stream.resource<external>{%c2048}, %__constant_tensor_256x64xf32 as %arg4: !stream.resource<constant>{%c65536}, %__constant_tensor_256xf32 as %arg5: !stream.resource<constant>{%c1024}, %__constant_tensor_512x256xf32 as %arg6: !stream.resource<constant>{%c524288}, %__constant_tensor_512xf32 as %arg7: !stream.resource<constant>{%c2048}, %__constant_tensor_128x256xf32 as %arg8: !stream.resource<constant>{%c131072}, %__constant_tensor_128xf32 as %arg9: !stream.resource<constant>{%c512}, %__constant_tensor_256x128xf32 as %arg10: !stream.resource<constant>{%c131072}, %__constant_tensor_256x512xf32 as %arg11: !stream.resource<constant>{%c524288}, %__constant_tensor_256xf32_0 as %arg12: !stream.resource<constant>{%c1024}, %__constant_tensor_256xf32_1 as %arg13: !stream.resource<constant>{%c1024}, %__constant_tensor_10x256xf32 as %arg14: !stream.resource<constant>{%c10240}, %result as %arg15: !stream.resource<external>{%c320}, %result_11 as %arg16: !stream.resource<transient>{%3#0}) {
    stream.cmd.dispatch @mlp$async_dispatch_0::@mlp$async_dispatch_0_matmul_8x256x64_f32 {
      ro %arg3[%c0 for %c2048] : !stream.resource<external>{%c2048},
      ro %arg4[%c0 for %c65536] : !stream.resource<constant>{%c65536},
      ro %arg5[%c0 for %c1024] : !stream.resource<constant>{%c1024},
      wo %arg16[%3#1 for %c8192] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.concurrent {
      stream.cmd.dispatch @mlp$async_dispatch_1::@mlp$async_dispatch_1_matmul_8x512x256_f32 {
        ro %arg16[%3#1 for %c8192] : !stream.resource<transient>{%3#0},
        ro %arg6[%c0 for %c524288] : !stream.resource<constant>{%c524288},
        ro %arg7[%c0 for %c2048] : !stream.resource<constant>{%c2048},
        wo %arg16[%3#2 for %c16384] : !stream.resource<transient>{%3#0}
      }
      stream.cmd.dispatch @mlp$async_dispatch_2::@mlp$async_dispatch_2_matmul_8x128x256_f32 {
        ro %arg16[%3#1 for %c8192] : !stream.resource<transient>{%3#0},
        ro %arg8[%c0 for %c131072] : !stream.resource<constant>{%c131072},
        ro %arg9[%c0 for %c512] : !stream.resource<constant>{%c512},
        wo %arg16[%3#3 for %c4096] : !stream.resource<transient>{%3#0}
      }
    }
    stream.cmd.dispatch @mlp$async_dispatch_3::@mlp$async_dispatch_3_matmul_8x256x128_f32 {
      ro %arg16[%3#3 for %c4096] : !stream.resource<transient>{%3#0},
      ro %arg10[%c0 for %c131072] : !stream.resource<constant>{%c131072},
      wo %arg16[%3#4 for %c8192] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @mlp$async_dispatch_4::@mlp$async_dispatch_4_matmul_8x256x512_f32 {
      ro %arg16[%3#2 for %c16384] : !stream.resource<transient>{%3#0},
      ro %arg11[%c0 for %c524288] : !stream.resource<constant>{%c524288},
      ro %arg12[%c0 for %c1024] : !stream.resource<constant>{%c1024},
      ro %arg16[%3#4 for %c8192] : !stream.resource<transient>{%3#0},
      ro %arg13[%c0 for %c1024] : !stream.resource<constant>{%c1024},
      ro %arg16[%3#1 for %c8192] : !stream.resource<transient>{%3#0},
      wo %arg16[%3#5 for %c8192] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @mlp$async_dispatch_5::@mlp$async_dispatch_5_matmul_8x10x256_f32 {
      ro %arg16[%3#5 for %c8192] : !stream.resource<transient>{%3#0},
      ro %arg14[%c0 for %c10240] : !stream.resource<constant>{%c10240},
      wo %arg16[%3#6 for %c320] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @mlp$async_dispatch_6::@mlp$async_dispatch_6_softmax_8x10xf32_dispatch_tensor_store {
      ro %arg16[%3#6 for %c320] : !stream.resource<transient>{%3#0},
      wo %arg15[%c0_10 for %c320] : !stream.resource<external>{%c320}
    }
  } => !stream.timepoint
  %6 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%5) => %result_11 : !stream.resource<transient>{%3#0} => !stream.timepoint
  %7 = stream.timepoint.join max(%6, %5) => !stream.timepoint
  stream.timepoint.chain_external on(#hal.device.affinity<@__device_0>) %7 => (%arg2 : !hal.fence)
  %8 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %result : tensor<8x10xf32> in !stream.resource<external>{%c320} -> !hal.buffer_view
  util.return %8 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @mlp(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  %0 = util.null : !hal.fence
  %c-1_i32 = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %device_0 = hal.devices.get %c0 : !hal.device
  %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
  %1 = util.call @mlp$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
  %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
  util.return %1 : !hal.buffer_view
}

