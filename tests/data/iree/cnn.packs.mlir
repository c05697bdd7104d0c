// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.initializer {
  %c1280 = arith.constant 1280 : index
  %c18432 = arith.constant 18432 : index
  %c9216 = arith.constant 9216 : index
  %c1728 = arith.constant 1728 : index
  %cst = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1728} = dense_resource<__elided__> : tensor<16x3x3x3xf32>
  %cst_0 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c9216} = dense_resource<__elided__> : tensor<16x16x3x3xf32>
  %cst_1 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c9216} = dense_resource<__elided__> : tensor<16x16x3x3xf32>
  %cst_2 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c18432} = dense_resource<__elided__> : tensor<32x16x3x3xf32>
  %cst_3 = stream.async.constant on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c1280} = dense_resource<__elided__> : tensor<10x32xf32>
  util.global.store %cst_3, @__constant_tensor_10x32xf32 : !stream.resource<constant>
  util.global.store %c1280, @__constant_tensor_10x32xf32__size : index
  util.global.store %cst_0, @__constant_tensor_16x16x3x3xf32 : !stream.resource<constant>
  util.global.store %cst_1, @__constant_tensor_16x16x3x3xf32_0 : !stream.resource<constant>
  util.global.store %c9216, @__constant_tensor_16x16x3x3xf32_0__size : index
  util.global.store %c9216, @__constant_tensor_16x16x3x3xf32__size : index
  util.global.store %cst, @__constant_tensor_16x3x3x3xf32 : !stream.resource<constant>
  util.global.store %c1728, @__constant_tensor_16x3x3x3xf32__size : index
  util.global.store %cst_2, @__constant_tensor_32x16x3x3xf32 : !stream.resource<constant>
  util.global.store %c18432, @__constant_tensor_32x16x3x3xf32__size : index
  util.return
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @cnn$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
  %c40 = arith.constant 40 : index
  %c128 = arith.constant 128 : index
  %c8192 = arith.constant 8192 : index
  %c32768 = arith.constant 32768 : index
  %c20736 = arith.constant 20736 : index
  %c73984 = arith.constant 73984 : index
  %c65536 = arith.constant 65536 : index
  %c0 = arith.constant 0 : index
  %c13872 = arith.constant 13872 : index
  %c12288 = arith.constant 12288 : index
  %c0_i8 = arith.constant 0 : i8
  %c32 = arith.constant 32 : index
  %c3 = arith.constant 3 : index
  %c1 = arith.constant 1 : index
  %__constant_tensor_16x3x3x3xf32 = util.global.load immutable @__constant_tensor_16x3x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_16x3x3x3xf32__size = util.global.load immutable @__constant_tensor_16x3x3x3xf32__size : index
  %__constant_tensor_16x16x3x3xf32 = util.global.load immutable @__constant_tensor_16x16x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_16x16x3x3xf32__size = util.global.load immutable @__constant_tensor_16x16x3x3xf32__size : index
  %__constant_tensor_16x16x3x3xf32_0 = util.global.load immutable @__constant_tensor_16x16x3x3xf32_0 : !stream.resource<constant>
  %__constant_tensor_16x16x3x3xf32_0__size = util.global.load immutable @__constant_tensor_16x16x3x3xf32_0__size : index
  %__constant_tensor_32x16x3x3xf32 = util.global.load immutable @__constant_tensor_32x16x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_32x16x3x3xf32__size = util.global.load immutable @__constant_tensor_32x16x3x3xf32__size : index
  %__constant_tensor_10x32xf32 = util.global.load immutable @__constant_tensor_10x32xf32 : !stream.resource<constant>
  %__constant_tensor_10x32xf32__size = util.global.load immutable @__constant_tensor_10x32xf32__size : index
  %0 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_16x3x3x3xf32 : !stream.resource<constant>{%__constant_tensor_16x3x3x3xf32__size} -> !stream.resource<*>{%__constant_tensor_16x3x3x3xf32__size}
  %1 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_16x16x3x3xf32 : !stream.resource<constant>{%__constant_tensor_16x16x3x3xf32__size} -> !stream.resource<*>{%__constant_tensor_16x16x3x3xf32__size}
  %2 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_16x16x3x3xf32_0 : !stream.resource<constant>{%__constant_tensor_16x16x3x3xf32_0__size} -> !stream.resource<*>{%__constant_tensor_16x16x3x3xf32_0__size}
  %3 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_32x16x3x3xf32 : !stream.resource<constant>{%__constant_tensor_32x16x3x3xf32__size} -> !stream.resource<*>{%__constant_tensor_32x16x3x3xf32__size}
  %4 = stream.async.clone on(#hal.device.affinity<@__device_0>) %__constant_tensor_10x32xf32 : !stream.resource<constant>{%__constant_tensor_10x32xf32__size} -> !stream.resource<*>{%__constant_tensor_10x32xf32__size}
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("tensor") shape([%c1, %c3, %c32, %c32]) type(%element_type_f32) encoding(%dense_row_major)
  %5 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<1x3x32x32xf32> in !stream.resource<external>{%c12288}
  %6 = stream.timepoint.import on(#hal.device.affinity<@__device_0>) %arg1 : (!hal.fence) => !stream.timepoint
  %7 = stream.timepoint.await %6 => %5 : !stream.resource<external>{%c12288}
  %8 = stream.async.cast on(#hal.device.affinity<@__device_0>) %7 : !stream.resource<external>{%c12288} -> !stream.resource<*>{%c12288}
  %9 = stream.async.splat on(#hal.device.affinity<@__device_0>) %c0_i8 : i8 -> !stream.resource<*>{%c13872}
  %10 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_0::@cnn$async_dispatch_0_slow_memcpy(%8[%c0 to %c12288 for %c12288], %9[%c0 to %c13872 for %c13872]) : (!stream.resource<*>{%c12288}, !stream.resource<*>{%c13872}) -> %9{%c13872}
  %11 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_1::@cnn$async_dispatch_1_conv_16x32x32x3x3x3_f32(%10[%c0 to %c13872 for %c13872], %0[%c0 to %__constant_tensor_16x3x3x3xf32__size for %__constant_tensor_16x3x3x3xf32__size]) : (!stream.resource<*>{%c13872}, !stream.resource<*>{%__constant_tensor_16x3x3x3xf32__size}) -> !stream.resource<*>{%c65536}
  %12 = stream.async.splat on(#hal.device.affinity<@__device_0>) %c0_i8 : i8 -> !stream.resource<*>{%c73984}
  %13 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_2::@cnn$async_dispatch_2_slow_memcpy(%11[%c0 to %c65536 for %c65536], %12[%c0 to %c73984 for %c73984]) : (!stream.resource<*>{%c65536}, !stream.resource<*>{%c73984}) -> %12{%c73984}
  %14 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_3::@cnn$async_dispatch_3_conv_16x32x32x16x3x3_f32(%13[%c0 to %c73984 for %c73984], %1[%c0 to %__constant_tensor_16x16x3x3xf32__size for %__constant_tensor_16x16x3x3xf32__size], %12[%c0 to %c73984 for %c73984]) : (!stream.resource<*>{%c73984}, !stream.resource<*>{%__constant_tensor_16x16x3x3xf32__size}, !stream.resource<*>{%c73984}) -> %12{%c73984}
  %15 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_4::@cnn$async_dispatch_4_conv_16x32x32x16x3x3_f32(%14[%c0 to %c73984 for %c73984], %2[%c0 to %__constant_tensor_16x16x3x3xf32_0__size for %__constant_tensor_16x16x3x3xf32_0__size], %11[%c0 to %c65536 for %c65536]) : (!stream.resource<*>{%c73984}, !stream.resource<*>{%__constant_tensor_16x16x3x3xf32_0__size}, !stream.resource<*>{%c65536}) -> !stream.resource<*>{%c65536}
  %16 = stream.async.splat on(#hal.device.affinity<@__device_0>) %c0_i8 : i8 -> !stream.resource<*>{%c20736}
  %17 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_5::@cnn$async_dispatch_5_conv_16x16x16x2x2_f32(%15[%c0 to %c65536 for %c65536], %16[%c0 to %c20736 for %c20736]) : (!stream.resource<*>{%c65536}, !stream.resource<*>{%c20736}) -> %16{%c20736}
  %18 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_6::@cnn$async_dispatch_6_conv_32x16x16x16x3x3_f32(%17[%c0 to %c20736 for %c20736], %3[%c0 to %__constant_tensor_32x16x3x3xf32__size for %__constant_tensor_32x16x3x3xf32__size]) : (!stream.resource<*>{%c20736}, !stream.resource<*>{%__constant_tensor_32x16x3x3xf32__size}) -> !stream.resource<*>{%c32768}
  %19 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_7::@cnn$async_dispatch_7_conv_32x8x8x2x2_f32(%18[%c0 to %c32768 for %c32768]) : (!stream.resource<*>{%c32768}) -> !stream.resource<*>{%c8192}
  %20 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_8::@cnn$async_dispatch_8_reduction_32x64_f32(%19[%c0 to %c8192 for %c8192]) : (!stream.resource<*>{%c8192}) -> !stream.resource<*>{%c128}
  %21 = stream.async.dispatch on(#hal.device.affinity<@__device_0>) @cnn$async_dispatch_9::@cnn$async_dispatch_9_matmul_1x10x32_f32(%20[%c0 to %c128 for %c128], %4[%c0 to %__constant_tensor_10x32xf32__size for %__constant_tensor_10x32xf32__size]) : (!stream.resource<*>{%c128}, !stream.resource<*>{%__constant_tensor_10x32xf32__size}) -> !stream.resource<*>{%c40}
  %result, %result_timepoint = stream.timepoint.barrier on(#hal.device.affinity<@__device_0>) %21 : !stream.resource<*>{%c40} => !stream.timepoint
  stream.timepoint.chain_external on(#hal.device.affinity<@__device_0>) %result_timepoint => (%arg2 : !hal.fence)
  %22 = stream.async.cast on(#hal.device.affinity<@__device_0>) %result : !stream.resource<*>{%c40} -> !stream.resource<external>{%c40}
  %23 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %22 : tensor<1x10xf32> in !stream.resource<external>{%c40} -> !hal.buffer_view
  util.return %23 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @cnn(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  %0 = util.null : !hal.fence
  %c-1_i32 = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %device_0 = hal.devices.get %c0 : !hal.device
  %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
  %1 = util.call @cnn$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
  %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
  util.return %1 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.initializer {
  %0 = stream.timepoint.immediate => !stream.timepoint
  %c1280 = arith.constant 1280 : index
  %c18432 = arith.constant 18432 : index
  %c9216 = arith.constant 9216 : index
  %c1728 = arith.constant 1728 : index
  %1 = stream.timepoint.immediate => !stream.timepoint
  %buffer_cst = util.buffer.constant <alignment = 64> : !util.buffer = #util.composite<39872xi8, [
    dense_resource<__elided__> : tensor<16x3x3x3xf32>,
    dense_resource<__elided__> : tensor<16x16x3x3xf32>,
    dense_resource<__elided__> : tensor<16x16x3x3xf32>,
    dense_resource<__elided__> : tensor<32x16x3x3xf32>,
    dense_resource<__elided__> : tensor<10x32xf32>,
]>
  %c39872 = arith.constant 39872 : index
  %c0 = arith.constant 0 : index
  %did_map, %result = stream.resource.try_map on(#hal.device.affinity<@__device_0>) %buffer_cst[%c0] : !util.buffer -> i1, !stream.resource<constant>{%c39872}
  %c0_i64 = arith.constant 0 : i64
  %2:2 = scf.if %did_map -> (!stream.timepoint, !stream.resource<constant>) {
    scf.yield %1, %result : !stream.timepoint, !stream.resource<constant>
  } else {
    %11 = stream.resource.alloc uninitialized on(#hal.device.affinity<@__device_0>) : !stream.resource<constant>{%c39872}
    %file = stream.file.constant on(#hal.device.affinity<@__device_0>) %buffer_cst[%c0 for %c39872] : !util.buffer{%c39872} -> !stream.file
    %12 = stream.file.read on(#hal.device.affinity<@__device_0>) await(%1) => %file[%c0_i64], %11[%c0], %c39872 : !stream.file -> !stream.resource<constant>{%c39872} => !stream.timepoint
    scf.yield %12, %11 : !stream.timepoint, !stream.resource<constant>
  }
  %3 = stream.resource.subview %2#1[%c0] : !stream.resource<constant>{%c39872} -> !stream.resource<constant>{%c1728}
  %4 = stream.resource.subview %2#1[%c1728] : !stream.resource<constant>{%c39872} -> !stream.resource<constant>{%c9216}
  %c10944 = arith.constant 10944 : index
  %5 = stream.resource.subview %2#1[%c10944] : !stream.resource<constant>{%c39872} -> !stream.resource<constant>{%c9216}
  %c20160 = arith.constant 20160 : index
  %6 = stream.resource.subview %2#1[%c20160] : !stream.resource<constant>{%c39872} -> !stream.resource<constant>{%c18432}
  %c38592 = arith.constant 38592 : index
  %7 = stream.resource.subview %2#1[%c38592] : !stream.resource<constant>{%c39872} -> !stream.resource<constant>{%c1280}
  %8 = stream.cmd.execute once on(#hal.device.affinity<@__device_0>) with() {
  } => !stream.timepoint
  %9 = stream.timepoint.join max(%2#0, %8) => !stream.timepoint
  %10:5 = stream.timepoint.await sync %9 => %7, %4, %5, %6, %3 : !stream.resource<constant>{%c1280}, !stream.resource<constant>{%c9216}, !stream.resource<constant>{%c9216}, !stream.resource<constant>{%c18432}, !stream.resource<constant>{%c1728}
  util.global.store %10#0, @__constant_tensor_10x32xf32 : !stream.resource<constant>
  util.global.store %10#1, @__constant_tensor_16x16x3x3xf32 : !stream.resource<constant>
  util.global.store %10#2, @__constant_tensor_16x16x3x3xf32_0 : !stream.resource<constant>
  util.global.store %10#4, @__constant_tensor_16x3x3x3xf32 : !stream.resource<constant>
  util.global.store %0, @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  util.global.store %10#3, @__constant_tensor_32x16x3x3xf32 : !stream.resource<constant>
  util.return
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @cnn$async(%arg0: !hal.buffer_view, %arg1: !hal.fence, %arg2: !hal.fence) -> !hal.buffer_view attributes {inlining_policy = #util.inline.never, iree.abi.model = "coarse-fences", iree.abi.stub} {
  %c1280 = arith.constant 1280 : index
  %c18432 = arith.constant 18432 : index
  %c9216 = arith.constant 9216 : index
  %c1728 = arith.constant 1728 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c0_i8 = arith.constant 0 : i8
  %c12288 = arith.constant 12288 : index
  %c13872 = arith.constant 13872 : index
  %c0 = arith.constant 0 : index
  %c65536 = arith.constant 65536 : index
  %c73984 = arith.constant 73984 : index
  %c20736 = arith.constant 20736 : index
  %c32768 = arith.constant 32768 : index
  %c8192 = arith.constant 8192 : index
  %c128 = arith.constant 128 : index
  %c40 = arith.constant 40 : index
  %__constant_tensor_16x3x3x3xf32__timepoint = util.global.load immutable @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  %__constant_tensor_16x3x3x3xf32__timepoint_0 = util.global.load immutable @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  %__constant_tensor_16x3x3x3xf32__timepoint_1 = util.global.load immutable @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  %__constant_tensor_16x3x3x3xf32__timepoint_2 = util.global.load immutable @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  %__constant_tensor_16x3x3x3xf32__timepoint_3 = util.global.load immutable @__constant_tensor_16x3x3x3xf32__timepoint : !stream.timepoint
  %__constant_tensor_16x3x3x3xf32 = util.global.load immutable @__constant_tensor_16x3x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_16x16x3x3xf32 = util.global.load immutable @__constant_tensor_16x16x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_16x16x3x3xf32_0 = util.global.load immutable @__constant_tensor_16x16x3x3xf32_0 : !stream.resource<constant>
  %__constant_tensor_32x16x3x3xf32 = util.global.load immutable @__constant_tensor_32x16x3x3xf32 : !stream.resource<constant>
  %__constant_tensor_10x32xf32 = util.global.load immutable @__constant_tensor_10x32xf32 : !stream.resource<constant>
  %element_type_f32 = hal.element_type<f32> : i32
  %dense_row_major = hal.encoding_type<dense_row_major> : i32
  hal.buffer_view.assert<%arg0 : !hal.buffer_view> message("tensor") shape([%c1, %c3, %c32, %c32]) type(%element_type_f32) encoding(%dense_row_major)
  %0 = stream.tensor.import on(#hal.device.affinity<@__device_0>) %arg0 : !hal.buffer_view -> tensor<1x3x32x32xf32> in !stream.resource<external>{%c12288}
  %1 = stream.timepoint.import on(#hal.device.affinity<@__device_0>) %arg1 : (!hal.fence) => !stream.timepoint
  %2 = stream.timepoint.join max(%1, %__constant_tensor_16x3x3x3xf32__timepoint_0, %__constant_tensor_16x3x3x3xf32__timepoint_1, %__constant_tensor_16x3x3x3xf32__timepoint_2, %__constant_tensor_16x3x3x3xf32__timepoint, %__constant_tensor_16x3x3x3xf32__timepoint_3) => !stream.timepoint
  %c0_4 = arith.constant 0 : index
  %result, %result_timepoint = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) await(%2) => !stream.resource<external>{%c40} => !stream.timepoint
  %3:10 = stream.resource.pack on(#hal.device.affinity<@__device_0>) slices({
    [0, 2] = %c13872,
    [2, 5] = %c65536,
    [2, 4] = %c73984,
    [3, 5] = %c73984,
    [5, 6] = %c65536,
    [5, 7] = %c20736,
    [7, 8] = %c32768,
    [8, 9] = %c8192,
    [9, 10] = %c128
  }) : index
  %result_5, %result_timepoint_6 = stream.resource.alloca uninitialized on(#hal.device.affinity<@__device_0>) await(%2) => !stream.resource<transient>{%3#0} => !stream.timepoint
  %4 = stream.timepoint.join max(%2, %result_timepoint, %result_timepoint_6) => !stream.timepoint
  %5 = stream.cmd.execute on(#hal.device.affinity<@__device_0>) await(%4) => with(%0 as %arg3: !stream.resource<external>{%c12288}, %__constant_tensor_16x3x3x3xf32 as %arg4: !stream.resource<constant>{%c1728}, %__constant_tensor_16x16x3x3xf32 as %arg5: !stream.resource<constant>{%c9216}, %__constant_tensor_16x16x3x3xf32_0 as %arg6: !stream.resource<constant>{%c9216}, %__constant_tensor_32x16x3x3xf32 as %arg7: !stream.resource<constant>{%c18432}, %__constant_tensor_10x32xf32 as %arg8: !stream.resource<constant>{%c1280}, %result as %arg9: !stream.resource<external>{%c40}, %result_5 as %arg10: !stream.resource<transient>{%3#0}) {
    stream.cmd.fill %c0_i8, %arg10[%3#1 for %c13872] : i8 -> !stream.resource<transient>{%3#0}
    stream.cmd.dispatch @cnn$async_dispatch_0::@cnn$async_dispatch_0_slow_memcpy {
      ro %arg3[%c0 for %c12288] : !stream.resource<external>{%c12288},
      rw %arg10[%3#1 for %c13872] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.concurrent {
      stream.cmd.dispatch @cnn$async_dispatch_1::@cnn$async_dispatch_1_conv_16x32x32x3x3x3_f32 {
        ro %arg10[%3#1 for %c13872] : !stream.resource<transient>{%3#0},
        ro %arg4[%c0 for %c1728] : !stream.resource<constant>{%c1728},
        wo %arg10[%3#2 for %c65536] : !stream.resource<transient>{%3#0}
      }
      stream.cmd.fill %c0_i8, %arg10[%3#3 for %c73984] : i8 -> !stream.resource<transient>{%3#0}
    }
    stream.cmd.concurrent {
      stream.cmd.dispatch @cnn$async_dispatch_2::@cnn$async_dispatch_2_slow_memcpy {
        ro %arg10[%3#2 for %c65536] : !stream.resource<transient>{%3#0},
        rw %arg10[%3#3 for %c73984] : !stream.resource<transient>{%3#0}
      }
      stream.cmd.fill %c0_i8, %arg10[%3#4 for %c73984] : i8 -> !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_3::@cnn$async_dispatch_3_conv_16x32x32x16x3x3_f32 {
      ro %arg10[%3#3 for %c73984] : !stream.resource<transient>{%3#0},
      ro %arg5[%c0 for %c9216] : !stream.resource<constant>{%c9216},
      rw %arg10[%3#4 for %c73984] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.concurrent {
      stream.cmd.dispatch @cnn$async_dispatch_4::@cnn$async_dispatch_4_conv_16x32x32x16x3x3_f32 {
        ro %arg10[%3#4 for %c73984] : !stream.resource<transient>{%3#0},
        ro %arg6[%c0 for %c9216] : !stream.resource<constant>{%c9216},
        ro %arg10[%3#2 for %c65536] : !stream.resource<transient>{%3#0},
        wo %arg10[%3#5 for %c65536] : !stream.resource<transient>{%3#0}
      }
      stream.cmd.fill %c0_i8, %arg10[%3#6 for %c20736] : i8 -> !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_5::@cnn$async_dispatch_5_conv_16x16x16x2x2_f32 {
      ro %arg10[%3#5 for %c65536] : !stream.resource<transient>{%3#0},
      rw %arg10[%3#6 for %c20736] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_6::@cnn$async_dispatch_6_conv_32x16x16x16x3x3_f32 {
      ro %arg10[%3#6 for %c20736] : !stream.resource<transient>{%3#0},
      ro %arg7[%c0 for %c18432] : !stream.resource<constant>{%c18432},
      wo %arg10[%3#7 for %c32768] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_7::@cnn$async_dispatch_7_conv_32x8x8x2x2_f32 {
      ro %arg10[%3#7 for %c32768] : !stream.resource<transient>{%3#0},
      wo %arg10[%3#8 for %c8192] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_8::@cnn$async_dispatch_8_reduction_32x64_f32 {
      ro %arg10[%3#8 for %c8192] : !stream.resource<transient>{%3#0},
      wo %arg10[%3#9 for %c128] : !stream.resource<transient>{%3#0}
    }
    stream.cmd.dispatch @cnn$async_dispatch_9::@cnn$async_dispatch_9_matmul_1x10x32_f32 {
      ro %arg10[%3#9 for %c128] : !stream.resource<transient>{%3#0},
      ro %arg8[%c0 for %c1280] : !stream.resource<constant>{%c1280},
      wo %arg9[%c0_4 for %c40] : !stream.resource<external>{%c40}
    }
  } => !stream.timepoint
  %6 = stream.resource.dealloca on(#hal.device.affinity<@__device_0>) await(%5) => %result_5 : !stream.resource<transient>{%3#0} => !stream.timepoint
  %7 = stream.timepoint.join max(%6, %5) => !stream.timepoint
  stream.timepoint.chain_external on(#hal.device.affinity<@__device_0>) %7 => (%arg2 : !hal.fence)
  %8 = stream.tensor.export on(#hal.device.affinity<@__device_0>) %result : tensor<1x10xf32> in !stream.resource<external>{%c40} -> !hal.buffer_view
  util.return %8 : !hal.buffer_view
}

// -----// IR Dump Before LayoutSlicesPass: iree-stream-layout-slices //----- //
util.func public @cnn(%arg0: !hal.buffer_view) -> !hal.buffer_view attributes {iree.abi.stub} {
  %0 = util.null : !hal.fence
  %c-1_i32 = arith.constant -1 : i32
  %c0 = arith.constant 0 : index
  %device_0 = hal.devices.get %c0 : !hal.device
  %fence = hal.fence.create device(%device_0 : !hal.device) flags("None") : !hal.fence
  %1 = util.call @cnn$async(%arg0, %0, %fence) : (!hal.buffer_view, !hal.fence, !hal.fence) -> !hal.buffer_view
  %status = hal.fence.await until([%fence]) timeout_millis(%c-1_i32) flags("None") : i32
  util.return %1 : !hal.buffer_view
}

