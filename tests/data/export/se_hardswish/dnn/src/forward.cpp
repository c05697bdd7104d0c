
#include <stdint.h>
#include <stddef.h>


#include "forward.hpp"

// Layer & memory configurations

#include "parameters/_10_Conv2D_0_weights.hpp"
#include "layers/_14_Conv2D_1_weights.h"
#include "parameters/_7_ConvAct_0_weights.hpp"
#include "layers/_1_PadConv_0.h"
#include "layers/_1_PadConv_0_biases.h"
#include "layers/_10_Conv2D_0_biases.h"
#include "layers/_5_Transpose_3.h"
#include "parameters/_1_PadConv_0_weights.hpp"
#include "layers/_14_Conv2D_1_biases.h"
#include "kernels/cpp/pooling.hpp"
#include "layers/_0_Transpose_0.h"
#include "layers/_3_Transpose_2.h"
#include "kernels/cpp/transpose.hpp"
#include "layers/_1_PadConv_0_weights.h"
#include "layers/_14_Conv2D_1.h"
#include "layers/_7_ConvAct_0_weights.h"
#include "layers/_10_Conv2D_0_weights.h"
#include "layers/_2_Transpose_1.h"
#include "layers/_10_Conv2D_0.h"
#include "layers/_12_HardSwish_0.h"
#include "parameters/_14_Conv2D_1_biases.hpp"
#include "layers/_8_Transpose_5.h"
#include "layers/_7_ConvAct_0.h"
#include "kernels/cpp/hardswish.hpp"
#include "parameters/_7_ConvAct_0_biases.hpp"
#include "layers/_11_Transpose_7.h"
#include "layers/_15_Transpose_9.h"
#include "parameters/_14_Conv2D_1_weights.hpp"
#include "parameters/_1_PadConv_0_biases.hpp"
#include "parameters/_10_Conv2D_0_biases.hpp"
#include "kernels/cpp/convolution.hpp"
#include "layers/_9_Transpose_6.h"
#include "layers/_7_ConvAct_0_biases.h"
#include "layers/_13_Transpose_8.h"
#include "layers/_6_Transpose_4.h"
#include "layers/_4_GlobalAveragePooling_0.h"

// Memory block
static unsigned char mem_0[8960];


void model_forward (const float* _0_Transpose_0_input_0,float** _15_Transpose_9_output_0_ptr)
{
    
    

    float* _0_Transpose_0_output_0 = (float*) (mem_0 + _0_TRANSPOSE_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _0_TRANSPOSE_0_NB_DIMS,
                                     _0_TRANSPOSE_0_NB_ELTS,
                                     _0_TRANSPOSE_0_PERMUTE,
                                     _0_TRANSPOSE_0_DIMS,
                                     _0_TRANSPOSE_0_OUT_STRIDES,
                                    _0_TRANSPOSE_0_INPUT_0_MEM_CONT_OFFSET,
                                    _0_TRANSPOSE_0_INPUT_0_MEM_CONT_SIZE,
                                    _0_TRANSPOSE_0_INPUT_0_MEM_WRAP_OFFSET,
                                    _0_TRANSPOSE_0_INPUT_0_MEM_WRAP_SIZE,
                                    _0_TRANSPOSE_0_INPUT_0_MEM_STRIDE,
                                    _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _0_TRANSPOSE_0_OUTPUT_0_MEM_STRIDE>
                                     (_0_Transpose_0_input_0,
                                     _0_Transpose_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _0_Transpose_0\n");
    FILE* _0_TRANSPOSE_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_0_Transpose_0_output_0.txt", "w");
    export_cpp::saveOutputs<_0_TRANSPOSE_0_OUTPUT_0_NB_OUTPUTS,
                            _0_TRANSPOSE_0_OUTPUT_0_OUT_HEIGHT,
                            _0_TRANSPOSE_0_OUTPUT_0_OUT_WIDTH,
                            _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                            _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _0_TRANSPOSE_0_OUTPUT_0_DEV_FMT>
                            (_0_Transpose_0_output_0,
                            _0_TRANSPOSE_0_OUTPUT_0_STREAM);
    fclose(_0_TRANSPOSE_0_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _1_PadConv_0_output_0 = (float*) (mem_0 + _1_PADCONV_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_0_TRANSPOSE_0_OUTPUT_0_IN_BATCH,
                           _0_TRANSPOSE_0_OUTPUT_0_NB_CHANNELS,
                           _0_TRANSPOSE_0_OUTPUT_0_IN_HEIGHT,
                           _0_TRANSPOSE_0_OUTPUT_0_IN_WIDTH,
                           _1_PADCONV_0_OUTPUT_0_NB_OUTPUTS,
                           _1_PADCONV_0_OUTPUT_0_OUT_HEIGHT,
                           _1_PADCONV_0_OUTPUT_0_OUT_WIDTH,
                           _1_PADCONV_0_PADDING_Y,
                           _1_PADCONV_0_PADDING_X,
                           _1_PADCONV_0_STRIDE_Y,
                           _1_PADCONV_0_STRIDE_X,
                           _1_PADCONV_0_DILATION_Y,
                           _1_PADCONV_0_DILATION_X,
                           _1_PADCONV_0_KERNEL_HEIGHT,
                           _1_PADCONV_0_KERNEL_WIDTH,
                           _1_PADCONV_0_ACTIVATION,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_STRIDE,
                           _1_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _1_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                           _1_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _1_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _1_PADCONV_0_OUTPUT_0_MEM_STRIDE>
                           (_0_Transpose_0_output_0, _1_PadConv_0_output_0, _1_PadConv_0_weights_output_0, _1_PadConv_0_biases_output_0, _1_PADCONV_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _1_PadConv_0\n");
    FILE* _1_PADCONV_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_1_PadConv_0_output_0.txt", "w");
    export_cpp::saveOutputs<_1_PADCONV_0_OUTPUT_0_NB_OUTPUTS,
                            _1_PADCONV_0_OUTPUT_0_OUT_HEIGHT,
                            _1_PADCONV_0_OUTPUT_0_OUT_WIDTH,
                            _1_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _1_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                            _1_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _1_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _1_PADCONV_0_OUTPUT_0_DEV_FMT>
                            (_1_PadConv_0_output_0,
                            _1_PADCONV_0_OUTPUT_0_STREAM);
    fclose(_1_PADCONV_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _2_Transpose_1_output_0 = (float*) (mem_0 + _2_TRANSPOSE_1_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _2_TRANSPOSE_1_NB_DIMS,
                                     _2_TRANSPOSE_1_NB_ELTS,
                                     _2_TRANSPOSE_1_PERMUTE,
                                     _2_TRANSPOSE_1_DIMS,
                                     _2_TRANSPOSE_1_OUT_STRIDES,
                                    _1_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _1_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _1_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _1_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _1_PADCONV_0_OUTPUT_0_MEM_STRIDE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_STRIDE>
                                     (_1_PadConv_0_output_0,
                                     _2_Transpose_1_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _2_Transpose_1\n");
    FILE* _2_TRANSPOSE_1_OUTPUT_0_STREAM = fopen("data/export_outputs/_2_Transpose_1_output_0.txt", "w");
    export_cpp::saveOutputs<_2_TRANSPOSE_1_OUTPUT_0_NB_OUTPUTS,
                            _2_TRANSPOSE_1_OUTPUT_0_OUT_HEIGHT,
                            _2_TRANSPOSE_1_OUTPUT_0_OUT_WIDTH,
                            _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                            _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                            _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                            _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                            _2_TRANSPOSE_1_OUTPUT_0_DEV_FMT>
                            (_2_Transpose_1_output_0,
                            _2_TRANSPOSE_1_OUTPUT_0_STREAM);
    fclose(_2_TRANSPOSE_1_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _3_Transpose_2_output_0 = (float*) (mem_0 + _3_TRANSPOSE_2_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _3_TRANSPOSE_2_NB_DIMS,
                                     _3_TRANSPOSE_2_NB_ELTS,
                                     _3_TRANSPOSE_2_PERMUTE,
                                     _3_TRANSPOSE_2_DIMS,
                                     _3_TRANSPOSE_2_OUT_STRIDES,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_STRIDE,
                                    _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_OFFSET,
                                    _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_SIZE,
                                    _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_SIZE,
                                    _3_TRANSPOSE_2_OUTPUT_0_MEM_STRIDE>
                                     (_2_Transpose_1_output_0,
                                     _3_Transpose_2_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _3_Transpose_2\n");
    FILE* _3_TRANSPOSE_2_OUTPUT_0_STREAM = fopen("data/export_outputs/_3_Transpose_2_output_0.txt", "w");
    export_cpp::saveOutputs<_3_TRANSPOSE_2_OUTPUT_0_NB_OUTPUTS,
                            _3_TRANSPOSE_2_OUTPUT_0_OUT_HEIGHT,
                            _3_TRANSPOSE_2_OUTPUT_0_OUT_WIDTH,
                            _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_OFFSET,
                            _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_SIZE,
                            _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_OFFSET,
                            _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_SIZE,
                            _3_TRANSPOSE_2_OUTPUT_0_DEV_FMT>
                            (_3_Transpose_2_output_0,
                            _3_TRANSPOSE_2_OUTPUT_0_STREAM);
    fclose(_3_TRANSPOSE_2_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _4_GlobalAveragePooling_0_output_0 = (float*) (mem_0 + _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::pooling_forward<_3_TRANSPOSE_2_OUTPUT_0_IN_BATCH,
                                _3_TRANSPOSE_2_OUTPUT_0_NB_CHANNELS,
                                _3_TRANSPOSE_2_OUTPUT_0_IN_HEIGHT,
                                _3_TRANSPOSE_2_OUTPUT_0_IN_WIDTH,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_NB_OUTPUTS,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_OUT_HEIGHT,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_OUT_WIDTH,
                                _4_GLOBALAVERAGEPOOLING_0_PADDING_Y,
                                _4_GLOBALAVERAGEPOOLING_0_PADDING_X,
                                _4_GLOBALAVERAGEPOOLING_0_STRIDE_Y,
                                _4_GLOBALAVERAGEPOOLING_0_STRIDE_X,
                                _4_GLOBALAVERAGEPOOLING_0_KERNEL_HEIGHT,
                                _4_GLOBALAVERAGEPOOLING_0_KERNEL_WIDTH,
                                _4_GLOBALAVERAGEPOOLING_0_POOLING_TYPE,
                                _4_GLOBALAVERAGEPOOLING_0_ACTIVATION,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_OFFSET,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_SIZE,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_OFFSET,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_SIZE,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_STRIDE,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_OFFSET,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_SIZE,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_SIZE,
                                _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_STRIDE>
                                (_3_Transpose_2_output_0, _4_GlobalAveragePooling_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _4_GlobalAveragePooling_0\n");
    FILE* _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_4_GlobalAveragePooling_0_output_0.txt", "w");
    export_cpp::saveOutputs<_4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_NB_OUTPUTS,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_OUT_HEIGHT,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_OUT_WIDTH,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_SIZE,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_DEV_FMT>
                            (_4_GlobalAveragePooling_0_output_0,
                            _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_STREAM);
    fclose(_4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _5_Transpose_3_output_0 = (float*) (mem_0 + _5_TRANSPOSE_3_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _5_TRANSPOSE_3_NB_DIMS,
                                     _5_TRANSPOSE_3_NB_ELTS,
                                     _5_TRANSPOSE_3_PERMUTE,
                                     _5_TRANSPOSE_3_DIMS,
                                     _5_TRANSPOSE_3_OUT_STRIDES,
                                    _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _4_GLOBALAVERAGEPOOLING_0_OUTPUT_0_MEM_STRIDE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_STRIDE>
                                     (_4_GlobalAveragePooling_0_output_0,
                                     _5_Transpose_3_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _5_Transpose_3\n");
    FILE* _5_TRANSPOSE_3_OUTPUT_0_STREAM = fopen("data/export_outputs/_5_Transpose_3_output_0.txt", "w");
    export_cpp::saveOutputs<_5_TRANSPOSE_3_OUTPUT_0_NB_OUTPUTS,
                            _5_TRANSPOSE_3_OUTPUT_0_OUT_HEIGHT,
                            _5_TRANSPOSE_3_OUTPUT_0_OUT_WIDTH,
                            _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_OFFSET,
                            _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_SIZE,
                            _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_OFFSET,
                            _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_SIZE,
                            _5_TRANSPOSE_3_OUTPUT_0_DEV_FMT>
                            (_5_Transpose_3_output_0,
                            _5_TRANSPOSE_3_OUTPUT_0_STREAM);
    fclose(_5_TRANSPOSE_3_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _6_Transpose_4_output_0 = (float*) (mem_0 + _6_TRANSPOSE_4_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _6_TRANSPOSE_4_NB_DIMS,
                                     _6_TRANSPOSE_4_NB_ELTS,
                                     _6_TRANSPOSE_4_PERMUTE,
                                     _6_TRANSPOSE_4_DIMS,
                                     _6_TRANSPOSE_4_OUT_STRIDES,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_STRIDE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_OFFSET,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_SIZE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_SIZE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_STRIDE>
                                     (_5_Transpose_3_output_0,
                                     _6_Transpose_4_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _6_Transpose_4\n");
    FILE* _6_TRANSPOSE_4_OUTPUT_0_STREAM = fopen("data/export_outputs/_6_Transpose_4_output_0.txt", "w");
    export_cpp::saveOutputs<_6_TRANSPOSE_4_OUTPUT_0_NB_OUTPUTS,
                            _6_TRANSPOSE_4_OUTPUT_0_OUT_HEIGHT,
                            _6_TRANSPOSE_4_OUTPUT_0_OUT_WIDTH,
                            _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_OFFSET,
                            _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_SIZE,
                            _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_OFFSET,
                            _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_SIZE,
                            _6_TRANSPOSE_4_OUTPUT_0_DEV_FMT>
                            (_6_Transpose_4_output_0,
                            _6_TRANSPOSE_4_OUTPUT_0_STREAM);
    fclose(_6_TRANSPOSE_4_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _7_ConvAct_0_output_0 = (float*) (mem_0 + _7_CONVACT_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_6_TRANSPOSE_4_OUTPUT_0_IN_BATCH,
                           _6_TRANSPOSE_4_OUTPUT_0_NB_CHANNELS,
                           _6_TRANSPOSE_4_OUTPUT_0_IN_HEIGHT,
                           _6_TRANSPOSE_4_OUTPUT_0_IN_WIDTH,
                           _7_CONVACT_0_OUTPUT_0_NB_OUTPUTS,
                           _7_CONVACT_0_OUTPUT_0_OUT_HEIGHT,
                           _7_CONVACT_0_OUTPUT_0_OUT_WIDTH,
                           _7_CONVACT_0_PADDING_Y,
                           _7_CONVACT_0_PADDING_X,
                           _7_CONVACT_0_STRIDE_Y,
                           _7_CONVACT_0_STRIDE_X,
                           _7_CONVACT_0_DILATION_Y,
                           _7_CONVACT_0_DILATION_X,
                           _7_CONVACT_0_KERNEL_HEIGHT,
                           _7_CONVACT_0_KERNEL_WIDTH,
                           _7_CONVACT_0_ACTIVATION,
                           _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_OFFSET,
                           _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_SIZE,
                           _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_OFFSET,
                           _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_SIZE,
                           _6_TRANSPOSE_4_OUTPUT_0_MEM_STRIDE,
                           _7_CONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _7_CONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                           _7_CONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _7_CONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _7_CONVACT_0_OUTPUT_0_MEM_STRIDE>
                           (_6_Transpose_4_output_0, _7_ConvAct_0_output_0, _7_ConvAct_0_weights_output_0, _7_ConvAct_0_biases_output_0, _7_CONVACT_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _7_ConvAct_0\n");
    FILE* _7_CONVACT_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_7_ConvAct_0_output_0.txt", "w");
    export_cpp::saveOutputs<_7_CONVACT_0_OUTPUT_0_NB_OUTPUTS,
                            _7_CONVACT_0_OUTPUT_0_OUT_HEIGHT,
                            _7_CONVACT_0_OUTPUT_0_OUT_WIDTH,
                            _7_CONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _7_CONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                            _7_CONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _7_CONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _7_CONVACT_0_OUTPUT_0_DEV_FMT>
                            (_7_ConvAct_0_output_0,
                            _7_CONVACT_0_OUTPUT_0_STREAM);
    fclose(_7_CONVACT_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _8_Transpose_5_output_0 = (float*) (mem_0 + _8_TRANSPOSE_5_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _8_TRANSPOSE_5_NB_DIMS,
                                     _8_TRANSPOSE_5_NB_ELTS,
                                     _8_TRANSPOSE_5_PERMUTE,
                                     _8_TRANSPOSE_5_DIMS,
                                     _8_TRANSPOSE_5_OUT_STRIDES,
                                    _7_CONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _7_CONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _7_CONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _7_CONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _7_CONVACT_0_OUTPUT_0_MEM_STRIDE,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_STRIDE>
                                     (_7_ConvAct_0_output_0,
                                     _8_Transpose_5_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _8_Transpose_5\n");
    FILE* _8_TRANSPOSE_5_OUTPUT_0_STREAM = fopen("data/export_outputs/_8_Transpose_5_output_0.txt", "w");
    export_cpp::saveOutputs<_8_TRANSPOSE_5_OUTPUT_0_NB_OUTPUTS,
                            _8_TRANSPOSE_5_OUTPUT_0_OUT_HEIGHT,
                            _8_TRANSPOSE_5_OUTPUT_0_OUT_WIDTH,
                            _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                            _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                            _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                            _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                            _8_TRANSPOSE_5_OUTPUT_0_DEV_FMT>
                            (_8_Transpose_5_output_0,
                            _8_TRANSPOSE_5_OUTPUT_0_STREAM);
    fclose(_8_TRANSPOSE_5_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _9_Transpose_6_output_0 = (float*) (mem_0 + _9_TRANSPOSE_6_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _9_TRANSPOSE_6_NB_DIMS,
                                     _9_TRANSPOSE_6_NB_ELTS,
                                     _9_TRANSPOSE_6_PERMUTE,
                                     _9_TRANSPOSE_6_DIMS,
                                     _9_TRANSPOSE_6_OUT_STRIDES,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                                    _8_TRANSPOSE_5_OUTPUT_0_MEM_STRIDE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_OFFSET,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_SIZE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_SIZE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_STRIDE>
                                     (_8_Transpose_5_output_0,
                                     _9_Transpose_6_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _9_Transpose_6\n");
    FILE* _9_TRANSPOSE_6_OUTPUT_0_STREAM = fopen("data/export_outputs/_9_Transpose_6_output_0.txt", "w");
    export_cpp::saveOutputs<_9_TRANSPOSE_6_OUTPUT_0_NB_OUTPUTS,
                            _9_TRANSPOSE_6_OUTPUT_0_OUT_HEIGHT,
                            _9_TRANSPOSE_6_OUTPUT_0_OUT_WIDTH,
                            _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_OFFSET,
                            _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_SIZE,
                            _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_OFFSET,
                            _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_SIZE,
                            _9_TRANSPOSE_6_OUTPUT_0_DEV_FMT>
                            (_9_Transpose_6_output_0,
                            _9_TRANSPOSE_6_OUTPUT_0_STREAM);
    fclose(_9_TRANSPOSE_6_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _10_Conv2D_0_output_0 = (float*) (mem_0 + _10_CONV2D_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_9_TRANSPOSE_6_OUTPUT_0_IN_BATCH,
                           _9_TRANSPOSE_6_OUTPUT_0_NB_CHANNELS,
                           _9_TRANSPOSE_6_OUTPUT_0_IN_HEIGHT,
                           _9_TRANSPOSE_6_OUTPUT_0_IN_WIDTH,
                           _10_CONV2D_0_OUTPUT_0_NB_OUTPUTS,
                           _10_CONV2D_0_OUTPUT_0_OUT_HEIGHT,
                           _10_CONV2D_0_OUTPUT_0_OUT_WIDTH,
                           _10_CONV2D_0_PADDING_Y,
                           _10_CONV2D_0_PADDING_X,
                           _10_CONV2D_0_STRIDE_Y,
                           _10_CONV2D_0_STRIDE_X,
                           _10_CONV2D_0_DILATION_Y,
                           _10_CONV2D_0_DILATION_X,
                           _10_CONV2D_0_KERNEL_HEIGHT,
                           _10_CONV2D_0_KERNEL_WIDTH,
                           _10_CONV2D_0_ACTIVATION,
                           _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_OFFSET,
                           _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_SIZE,
                           _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_OFFSET,
                           _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_SIZE,
                           _9_TRANSPOSE_6_OUTPUT_0_MEM_STRIDE,
                           _10_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _10_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                           _10_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _10_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _10_CONV2D_0_OUTPUT_0_MEM_STRIDE>
                           (_9_Transpose_6_output_0, _10_Conv2D_0_output_0, _10_Conv2D_0_weights_output_0, _10_Conv2D_0_biases_output_0, _10_CONV2D_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _10_Conv2D_0\n");
    FILE* _10_CONV2D_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_10_Conv2D_0_output_0.txt", "w");
    export_cpp::saveOutputs<_10_CONV2D_0_OUTPUT_0_NB_OUTPUTS,
                            _10_CONV2D_0_OUTPUT_0_OUT_HEIGHT,
                            _10_CONV2D_0_OUTPUT_0_OUT_WIDTH,
                            _10_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _10_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                            _10_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _10_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _10_CONV2D_0_OUTPUT_0_DEV_FMT>
                            (_10_Conv2D_0_output_0,
                            _10_CONV2D_0_OUTPUT_0_STREAM);
    fclose(_10_CONV2D_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _11_Transpose_7_output_0 = (float*) (mem_0 + _11_TRANSPOSE_7_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _11_TRANSPOSE_7_NB_DIMS,
                                     _11_TRANSPOSE_7_NB_ELTS,
                                     _11_TRANSPOSE_7_PERMUTE,
                                     _11_TRANSPOSE_7_DIMS,
                                     _11_TRANSPOSE_7_OUT_STRIDES,
                                    _10_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _10_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _10_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _10_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _10_CONV2D_0_OUTPUT_0_MEM_STRIDE,
                                    _11_TRANSPOSE_7_OUTPUT_0_MEM_CONT_OFFSET,
                                    _11_TRANSPOSE_7_OUTPUT_0_MEM_CONT_SIZE,
                                    _11_TRANSPOSE_7_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _11_TRANSPOSE_7_OUTPUT_0_MEM_WRAP_SIZE,
                                    _11_TRANSPOSE_7_OUTPUT_0_MEM_STRIDE>
                                     (_10_Conv2D_0_output_0,
                                     _11_Transpose_7_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _11_Transpose_7\n");
    FILE* _11_TRANSPOSE_7_OUTPUT_0_STREAM = fopen("data/export_outputs/_11_Transpose_7_output_0.txt", "w");
    export_cpp::saveOutputs<_11_TRANSPOSE_7_OUTPUT_0_NB_OUTPUTS,
                            _11_TRANSPOSE_7_OUTPUT_0_OUT_HEIGHT,
                            _11_TRANSPOSE_7_OUTPUT_0_OUT_WIDTH,
                            _11_TRANSPOSE_7_OUTPUT_0_MEM_CONT_OFFSET,
                            _11_TRANSPOSE_7_OUTPUT_0_MEM_CONT_SIZE,
                            _11_TRANSPOSE_7_OUTPUT_0_MEM_WRAP_OFFSET,
                            _11_TRANSPOSE_7_OUTPUT_0_MEM_WRAP_SIZE,
                            _11_TRANSPOSE_7_OUTPUT_0_DEV_FMT>
                            (_11_Transpose_7_output_0,
                            _11_TRANSPOSE_7_OUTPUT_0_STREAM);
    fclose(_11_TRANSPOSE_7_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _12_HardSwish_0_output_0 = (float*) (mem_0 + _12_HARDSWISH_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::hardswish_forward<_12_HARDSWISH_0_NB_ELTS>
                            (_11_Transpose_7_output_0, _12_HardSwish_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _12_HardSwish_0\n");
    FILE* _12_HARDSWISH_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_12_HardSwish_0_output_0.txt", "w");
    export_cpp::saveOutputs<_12_HARDSWISH_0_OUTPUT_0_NB_OUTPUTS,
                            _12_HARDSWISH_0_OUTPUT_0_OUT_HEIGHT,
                            _12_HARDSWISH_0_OUTPUT_0_OUT_WIDTH,
                            _12_HARDSWISH_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _12_HARDSWISH_0_OUTPUT_0_MEM_CONT_SIZE,
                            _12_HARDSWISH_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _12_HARDSWISH_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _12_HARDSWISH_0_OUTPUT_0_DEV_FMT>
                            (_12_HardSwish_0_output_0,
                            _12_HARDSWISH_0_OUTPUT_0_STREAM);
    fclose(_12_HARDSWISH_0_OUTPUT_0_STREAM);
    #endif


    
    
    

    float* _13_Transpose_8_output_0 = (float*) (mem_0 + _13_TRANSPOSE_8_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _13_TRANSPOSE_8_NB_DIMS,
                                     _13_TRANSPOSE_8_NB_ELTS,
                                     _13_TRANSPOSE_8_PERMUTE,
                                     _13_TRANSPOSE_8_DIMS,
                                     _13_TRANSPOSE_8_OUT_STRIDES,
                                    _12_HARDSWISH_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _12_HARDSWISH_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _12_HARDSWISH_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _12_HARDSWISH_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _12_HARDSWISH_0_OUTPUT_0_MEM_STRIDE,
                                    _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_OFFSET,
                                    _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_SIZE,
                                    _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_SIZE,
                                    _13_TRANSPOSE_8_OUTPUT_0_MEM_STRIDE>
                                     (_12_HardSwish_0_output_0,
                                     _13_Transpose_8_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _13_Transpose_8\n");
    FILE* _13_TRANSPOSE_8_OUTPUT_0_STREAM = fopen("data/export_outputs/_13_Transpose_8_output_0.txt", "w");
    export_cpp::saveOutputs<_13_TRANSPOSE_8_OUTPUT_0_NB_OUTPUTS,
                            _13_TRANSPOSE_8_OUTPUT_0_OUT_HEIGHT,
                            _13_TRANSPOSE_8_OUTPUT_0_OUT_WIDTH,
                            _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_OFFSET,
                            _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_SIZE,
                            _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_OFFSET,
                            _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_SIZE,
                            _13_TRANSPOSE_8_OUTPUT_0_DEV_FMT>
                            (_13_Transpose_8_output_0,
                            _13_TRANSPOSE_8_OUTPUT_0_STREAM);
    fclose(_13_TRANSPOSE_8_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _14_Conv2D_1_output_0 = (float*) (mem_0 + _14_CONV2D_1_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_13_TRANSPOSE_8_OUTPUT_0_IN_BATCH,
                           _13_TRANSPOSE_8_OUTPUT_0_NB_CHANNELS,
                           _13_TRANSPOSE_8_OUTPUT_0_IN_HEIGHT,
                           _13_TRANSPOSE_8_OUTPUT_0_IN_WIDTH,
                           _14_CONV2D_1_OUTPUT_0_NB_OUTPUTS,
                           _14_CONV2D_1_OUTPUT_0_OUT_HEIGHT,
                           _14_CONV2D_1_OUTPUT_0_OUT_WIDTH,
                           _14_CONV2D_1_PADDING_Y,
                           _14_CONV2D_1_PADDING_X,
                           _14_CONV2D_1_STRIDE_Y,
                           _14_CONV2D_1_STRIDE_X,
                           _14_CONV2D_1_DILATION_Y,
                           _14_CONV2D_1_DILATION_X,
                           _14_CONV2D_1_KERNEL_HEIGHT,
                           _14_CONV2D_1_KERNEL_WIDTH,
                           _14_CONV2D_1_ACTIVATION,
                           _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_OFFSET,
                           _13_TRANSPOSE_8_OUTPUT_0_MEM_CONT_SIZE,
                           _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_OFFSET,
                           _13_TRANSPOSE_8_OUTPUT_0_MEM_WRAP_SIZE,
                           _13_TRANSPOSE_8_OUTPUT_0_MEM_STRIDE,
                           _14_CONV2D_1_OUTPUT_0_MEM_CONT_OFFSET,
                           _14_CONV2D_1_OUTPUT_0_MEM_CONT_SIZE,
                           _14_CONV2D_1_OUTPUT_0_MEM_WRAP_OFFSET,
                           _14_CONV2D_1_OUTPUT_0_MEM_WRAP_SIZE,
                           _14_CONV2D_1_OUTPUT_0_MEM_STRIDE>
                           (_13_Transpose_8_output_0, _14_Conv2D_1_output_0, _14_Conv2D_1_weights_output_0, _14_Conv2D_1_biases_output_0, _14_CONV2D_1_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _14_Conv2D_1\n");
    FILE* _14_CONV2D_1_OUTPUT_0_STREAM = fopen("data/export_outputs/_14_Conv2D_1_output_0.txt", "w");
    export_cpp::saveOutputs<_14_CONV2D_1_OUTPUT_0_NB_OUTPUTS,
                            _14_CONV2D_1_OUTPUT_0_OUT_HEIGHT,
                            _14_CONV2D_1_OUTPUT_0_OUT_WIDTH,
                            _14_CONV2D_1_OUTPUT_0_MEM_CONT_OFFSET,
                            _14_CONV2D_1_OUTPUT_0_MEM_CONT_SIZE,
                            _14_CONV2D_1_OUTPUT_0_MEM_WRAP_OFFSET,
                            _14_CONV2D_1_OUTPUT_0_MEM_WRAP_SIZE,
                            _14_CONV2D_1_OUTPUT_0_DEV_FMT>
                            (_14_Conv2D_1_output_0,
                            _14_CONV2D_1_OUTPUT_0_STREAM);
    fclose(_14_CONV2D_1_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _15_Transpose_9_output_0 = (float*) (mem_0 + _15_TRANSPOSE_9_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _15_TRANSPOSE_9_NB_DIMS,
                                     _15_TRANSPOSE_9_NB_ELTS,
                                     _15_TRANSPOSE_9_PERMUTE,
                                     _15_TRANSPOSE_9_DIMS,
                                     _15_TRANSPOSE_9_OUT_STRIDES,
                                    _14_CONV2D_1_OUTPUT_0_MEM_CONT_OFFSET,
                                    _14_CONV2D_1_OUTPUT_0_MEM_CONT_SIZE,
                                    _14_CONV2D_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _14_CONV2D_1_OUTPUT_0_MEM_WRAP_SIZE,
                                    _14_CONV2D_1_OUTPUT_0_MEM_STRIDE,
                                    _15_TRANSPOSE_9_OUTPUT_0_MEM_CONT_OFFSET,
                                    _15_TRANSPOSE_9_OUTPUT_0_MEM_CONT_SIZE,
                                    _15_TRANSPOSE_9_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _15_TRANSPOSE_9_OUTPUT_0_MEM_WRAP_SIZE,
                                    _15_TRANSPOSE_9_OUTPUT_0_MEM_STRIDE>
                                     (_14_Conv2D_1_output_0,
                                     _15_Transpose_9_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _15_Transpose_9\n");
    FILE* _15_TRANSPOSE_9_OUTPUT_0_STREAM = fopen("data/export_outputs/_15_Transpose_9_output_0.txt", "w");
    export_cpp::saveOutputs<_15_TRANSPOSE_9_OUTPUT_0_NB_OUTPUTS,
                            _15_TRANSPOSE_9_OUTPUT_0_OUT_HEIGHT,
                            _15_TRANSPOSE_9_OUTPUT_0_OUT_WIDTH,
                            _15_TRANSPOSE_9_OUTPUT_0_MEM_CONT_OFFSET,
                            _15_TRANSPOSE_9_OUTPUT_0_MEM_CONT_SIZE,
                            _15_TRANSPOSE_9_OUTPUT_0_MEM_WRAP_OFFSET,
                            _15_TRANSPOSE_9_OUTPUT_0_MEM_WRAP_SIZE,
                            _15_TRANSPOSE_9_OUTPUT_0_DEV_FMT>
                            (_15_Transpose_9_output_0,
                            _15_TRANSPOSE_9_OUTPUT_0_STREAM);
    fclose(_15_TRANSPOSE_9_OUTPUT_0_STREAM);
    #endif



    
    *_15_Transpose_9_output_0_ptr = _15_Transpose_9_output_0;
}
