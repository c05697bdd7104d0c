#ifndef _4_RELU_0_LAYER_H
#define _4_RELU_0_LAYER_H

#include "utils/cpp/rescaling_utils.hpp"
#include "utils/cpp/typedefs.hpp"

#define _4_RELU_0_NB_ELTS 1*4*4*16
#define _4_RELU_0_ACTIVATION export_cpp::ActivationFunction_T::Rectifier
#define _4_RELU_0_OUTPUT_0_DEV_FMT export_cpp::DataFormat_T::NHWC


// INPUT CONF
#define _3_TRANSPOSE_1_OUTPUT_0_IN_BATCH 1
#define _3_TRANSPOSE_1_OUTPUT_0_NB_CHANNELS 16
#define _3_TRANSPOSE_1_OUTPUT_0_IN_HEIGHT 4
#define _3_TRANSPOSE_1_OUTPUT_0_IN_WIDTH 4

// OUTPUT CONF
#define _4_RELU_0_OUTPUT_0_NB_OUTPUTS 16
#define _4_RELU_0_OUTPUT_0_OUT_HEIGHT 4
#define _4_RELU_0_OUTPUT_0_OUT_WIDTH 4
#define _4_RELU_0_OUTPUT_0_OUT_BATCH 1

// MEMINFO CONF



#define _4_RELU_0_OUTPUT_0_MEM_SIZE 64
#define _4_RELU_0_OUTPUT_0_MEM_OFFSET 0
#define _4_RELU_0_OUTPUT_0_MEM_STRIDE 64
#define _4_RELU_0_OUTPUT_0_MEM_LENGTH 4
#define _4_RELU_0_OUTPUT_0_MEM_CONT_OFFSET 0
#define _4_RELU_0_OUTPUT_0_MEM_CONT_SIZE 0
#define _4_RELU_0_OUTPUT_0_MEM_WRAP_OFFSET 0
#define _4_RELU_0_OUTPUT_0_MEM_WRAP_SIZE 0



static const export_cpp::NoScaling _4_RELU_0_RESCALING = {};

#endif /* _4_RELU_0_LAYER_H */
