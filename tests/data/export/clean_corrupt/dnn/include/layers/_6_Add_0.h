#ifndef _6_ADD_0_LAYER_H
#define _6_ADD_0_LAYER_H

#include <cstddef>
#include "utils/cpp/rescaling_utils.hpp"
#include "utils/cpp/typedefs.hpp"



// INPUT CONF
#define _2_TRANSPOSE_1_OUTPUT_0_IN_BATCH 1
#define _2_TRANSPOSE_1_OUTPUT_0_NB_CHANNELS 8
#define _2_TRANSPOSE_1_OUTPUT_0_IN_HEIGHT 8
#define _2_TRANSPOSE_1_OUTPUT_0_IN_WIDTH 8

// OUTPUT CONF
#define _6_ADD_0_OUTPUT_0_NB_OUTPUTS 8
#define _6_ADD_0_OUTPUT_0_OUT_HEIGHT 8
#define _6_ADD_0_OUTPUT_0_OUT_WIDTH 8
#define _6_ADD_0_OUTPUT_0_OUT_BATCH 1

// MEMINFO CONF




#define _6_ADD_0_OUTPUT_0_MEM_SIZE 2048
#define _6_ADD_0_OUTPUT_0_MEM_OFFSET 4864
#define _6_ADD_0_OUTPUT_0_MEM_STRIDE 2048
#define _6_ADD_0_OUTPUT_0_MEM_LENGTH 1
#define _6_ADD_0_OUTPUT_0_MEM_CONT_OFFSET 0
#define _6_ADD_0_OUTPUT_0_MEM_CONT_SIZE 0
#define _6_ADD_0_OUTPUT_0_MEM_WRAP_OFFSET 0
#define _6_ADD_0_OUTPUT_0_MEM_WRAP_SIZE 0


#define _6_ADD_0_NB_MAT 1
#define _6_ADD_0_INPUT1_CONT_SIZE 512
#define _6_ADD_0_INPUT2_CONT_SIZE 512
#define _6_ADD_0_OUTPUT_CONT_SIZE 512

constexpr size_t _6_ADD_0_OFFSET_IN1[] =  { 0 };
constexpr size_t _6_ADD_0_OFFSET_IN2[] = { 0 };

#define _6_ADD_0_ACTIVATION export_cpp::ActivationFunction_T::Linear
#define _6_ADD_0_ELEM_OP export_cpp::ElemWise_T::Add

#define _6_ADD_0_OUTPUT_0_DEV_FMT export_cpp::DataFormat_T::NCHW

static const export_cpp::NoScaling _6_ADD_0_RESCALING = {};

#endif /* _6_ADD_0_LAYER_H */
