
#include <stdint.h>
#include <stddef.h>


#include "forward.hpp"

// Layer & memory configurations

#include "layers/_6_Transpose_4.h"
#include "parameters/_1_PadConvAct_0_weights.hpp"
#include "layers/_2_Transpose_1.h"
#include "parameters/_1_PadConvAct_0_biases.hpp"
#include "kernels/cpp/pooling.hpp"
#include "kernels/cpp/convolution.hpp"
#include "layers/_7_Transpose_5.h"
#include "parameters/_8_PadConv_0_weights.hpp"
#include "layers/_9_Transpose_6.h"
#include "layers/_8_PadConv_0_biases.h"
#include "layers/_8_PadConv_0.h"
#include "layers/_1_PadConvAct_0_weights.h"
#include "parameters/_8_PadConv_0_biases.hpp"
#include "kernels/cpp/transpose.hpp"
#include "layers/_0_Transpose_0.h"
#include "layers/_5_Transpose_3.h"
#include "layers/_1_PadConvAct_0_biases.h"
#include "layers/_3_Transpose_2.h"
#include "layers/_1_PadConvAct_0.h"
#include "layers/_4_PadMaxPool_0.h"
#include "layers/_8_PadConv_0_weights.h"

// Memory block
static unsigned char mem_0[2560];
static unsigned char mem_1[0];


void model_forward (const float* _0_Transpose_0_input_0,int8_t** _9_Transpose_6_output_0_ptr, int64_t** _6_Transpose_4_output_0_ptr)
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



    
    
    

    int8_t* _1_PadConvAct_0_output_0 = (int8_t*) (mem_0 + _1_PADCONVACT_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_0_TRANSPOSE_0_OUTPUT_0_IN_BATCH,
                           _0_TRANSPOSE_0_OUTPUT_0_NB_CHANNELS,
                           _0_TRANSPOSE_0_OUTPUT_0_IN_HEIGHT,
                           _0_TRANSPOSE_0_OUTPUT_0_IN_WIDTH,
                           _1_PADCONVACT_0_OUTPUT_0_NB_OUTPUTS,
                           _1_PADCONVACT_0_OUTPUT_0_OUT_HEIGHT,
                           _1_PADCONVACT_0_OUTPUT_0_OUT_WIDTH,
                           _1_PADCONVACT_0_PADDING_Y,
                           _1_PADCONVACT_0_PADDING_X,
                           _1_PADCONVACT_0_STRIDE_Y,
                           _1_PADCONVACT_0_STRIDE_X,
                           _1_PADCONVACT_0_DILATION_Y,
                           _1_PADCONVACT_0_DILATION_X,
                           _1_PADCONVACT_0_KERNEL_HEIGHT,
                           _1_PADCONVACT_0_KERNEL_WIDTH,
                           _1_PADCONVACT_0_ACTIVATION,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _0_TRANSPOSE_0_OUTPUT_0_MEM_STRIDE,
                           _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                           _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _1_PADCONVACT_0_OUTPUT_0_MEM_STRIDE>
                           (_0_Transpose_0_output_0, _1_PadConvAct_0_output_0, _1_PadConvAct_0_weights_output_0, _1_PadConvAct_0_biases_output_0, _1_PADCONVACT_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _1_PadConvAct_0\n");
    FILE* _1_PADCONVACT_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_1_PadConvAct_0_output_0.txt", "w");
    export_cpp::saveOutputs<_1_PADCONVACT_0_OUTPUT_0_NB_OUTPUTS,
                            _1_PADCONVACT_0_OUTPUT_0_OUT_HEIGHT,
                            _1_PADCONVACT_0_OUTPUT_0_OUT_WIDTH,
                            _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                            _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _1_PADCONVACT_0_OUTPUT_0_DEV_FMT>
                            (_1_PadConvAct_0_output_0,
                            _1_PADCONVACT_0_OUTPUT_0_STREAM);
    fclose(_1_PADCONVACT_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    int8_t* _2_Transpose_1_output_0 = (int8_t*) (mem_0 + _2_TRANSPOSE_1_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int8_t,
                                     _2_TRANSPOSE_1_NB_DIMS,
                                     _2_TRANSPOSE_1_NB_ELTS,
                                     _2_TRANSPOSE_1_PERMUTE,
                                     _2_TRANSPOSE_1_DIMS,
                                     _2_TRANSPOSE_1_OUT_STRIDES,
                                    _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _1_PADCONVACT_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _1_PADCONVACT_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _1_PADCONVACT_0_OUTPUT_0_MEM_STRIDE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                                    _2_TRANSPOSE_1_OUTPUT_0_MEM_STRIDE>
                                     (_1_PadConvAct_0_output_0,
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



    
    
    

    int8_t* _3_Transpose_2_output_0 = (int8_t*) (mem_0 + _3_TRANSPOSE_2_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int8_t,
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



    
    
    

    int8_t* _4_PadMaxPool_0_output_0 = (int8_t*) (mem_0 + _4_PADMAXPOOL_0_OUTPUT_0_MEM_OFFSET);
    int64_t* _4_PadMaxPool_0_output_1 = (int64_t*) (mem_0 + _4_PADMAXPOOL_0_OUTPUT_1_MEM_OFFSET);

    export_cpp::pooling_forward<_3_TRANSPOSE_2_OUTPUT_0_IN_BATCH,
                                _3_TRANSPOSE_2_OUTPUT_0_NB_CHANNELS,
                                _3_TRANSPOSE_2_OUTPUT_0_IN_HEIGHT,
                                _3_TRANSPOSE_2_OUTPUT_0_IN_WIDTH,
                                _4_PADMAXPOOL_0_OUTPUT_0_NB_OUTPUTS,
                                _4_PADMAXPOOL_0_OUTPUT_0_OUT_HEIGHT,
                                _4_PADMAXPOOL_0_OUTPUT_0_OUT_WIDTH,
                                _4_PADMAXPOOL_0_PADDING_Y,
                                _4_PADMAXPOOL_0_PADDING_X,
                                _4_PADMAXPOOL_0_STRIDE_Y,
                                _4_PADMAXPOOL_0_STRIDE_X,
                                _4_PADMAXPOOL_0_KERNEL_HEIGHT,
                                _4_PADMAXPOOL_0_KERNEL_WIDTH,
                                _4_PADMAXPOOL_0_POOLING_TYPE,
                                _4_PADMAXPOOL_0_ACTIVATION,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_OFFSET,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_CONT_SIZE,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_OFFSET,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_WRAP_SIZE,
                                _3_TRANSPOSE_2_OUTPUT_0_MEM_STRIDE,
                                _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_OFFSET,
                                _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_SIZE,
                                _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_SIZE,
                                _4_PADMAXPOOL_0_OUTPUT_0_MEM_STRIDE>
                                (_3_Transpose_2_output_0, _4_PadMaxPool_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _4_PadMaxPool_0\n");
    FILE* _4_PADMAXPOOL_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_4_PadMaxPool_0_output_0.txt", "w");
    export_cpp::saveOutputs<_4_PADMAXPOOL_0_OUTPUT_0_NB_OUTPUTS,
                            _4_PADMAXPOOL_0_OUTPUT_0_OUT_HEIGHT,
                            _4_PADMAXPOOL_0_OUTPUT_0_OUT_WIDTH,
                            _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_SIZE,
                            _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _4_PADMAXPOOL_0_OUTPUT_0_DEV_FMT>
                            (_4_PadMaxPool_0_output_0,
                            _4_PADMAXPOOL_0_OUTPUT_0_STREAM);
    fclose(_4_PADMAXPOOL_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    int8_t* _5_Transpose_3_output_0 = (int8_t*) (mem_0 + _5_TRANSPOSE_3_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int8_t,
                                     _5_TRANSPOSE_3_NB_DIMS,
                                     _5_TRANSPOSE_3_NB_ELTS,
                                     _5_TRANSPOSE_3_PERMUTE,
                                     _5_TRANSPOSE_3_DIMS,
                                     _5_TRANSPOSE_3_OUT_STRIDES,
                                    _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _4_PADMAXPOOL_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _4_PADMAXPOOL_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _4_PADMAXPOOL_0_OUTPUT_0_MEM_STRIDE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_STRIDE>
                                     (_4_PadMaxPool_0_output_0,
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



    
    
    

    int64_t* _6_Transpose_4_output_0 = (int64_t*) (mem_0 + _6_TRANSPOSE_4_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int64_t,
                                     _6_TRANSPOSE_4_NB_DIMS,
                                     _6_TRANSPOSE_4_NB_ELTS,
                                     _6_TRANSPOSE_4_PERMUTE,
                                     _6_TRANSPOSE_4_DIMS,
                                     _6_TRANSPOSE_4_OUT_STRIDES,
                                    _4_PADMAXPOOL_0_OUTPUT_1_MEM_CONT_OFFSET,
                                    _4_PADMAXPOOL_0_OUTPUT_1_MEM_CONT_SIZE,
                                    _4_PADMAXPOOL_0_OUTPUT_1_MEM_WRAP_OFFSET,
                                    _4_PADMAXPOOL_0_OUTPUT_1_MEM_WRAP_SIZE,
                                    _4_PADMAXPOOL_0_OUTPUT_1_MEM_STRIDE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_OFFSET,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_CONT_SIZE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_WRAP_SIZE,
                                    _6_TRANSPOSE_4_OUTPUT_0_MEM_STRIDE>
                                     (_4_PadMaxPool_0_output_1,
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



    
    
    

    int8_t* _7_Transpose_5_output_0 = (int8_t*) (mem_0 + _7_TRANSPOSE_5_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int8_t,
                                     _7_TRANSPOSE_5_NB_DIMS,
                                     _7_TRANSPOSE_5_NB_ELTS,
                                     _7_TRANSPOSE_5_PERMUTE,
                                     _7_TRANSPOSE_5_DIMS,
                                     _7_TRANSPOSE_5_OUT_STRIDES,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_CONT_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_WRAP_SIZE,
                                    _5_TRANSPOSE_3_OUTPUT_0_MEM_STRIDE,
                                    _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                                    _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                                    _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                                    _7_TRANSPOSE_5_OUTPUT_0_MEM_STRIDE>
                                     (_5_Transpose_3_output_0,
                                     _7_Transpose_5_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _7_Transpose_5\n");
    FILE* _7_TRANSPOSE_5_OUTPUT_0_STREAM = fopen("data/export_outputs/_7_Transpose_5_output_0.txt", "w");
    export_cpp::saveOutputs<_7_TRANSPOSE_5_OUTPUT_0_NB_OUTPUTS,
                            _7_TRANSPOSE_5_OUTPUT_0_OUT_HEIGHT,
                            _7_TRANSPOSE_5_OUTPUT_0_OUT_WIDTH,
                            _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                            _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                            _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                            _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                            _7_TRANSPOSE_5_OUTPUT_0_DEV_FMT>
                            (_7_Transpose_5_output_0,
                            _7_TRANSPOSE_5_OUTPUT_0_STREAM);
    fclose(_7_TRANSPOSE_5_OUTPUT_0_STREAM);
    #endif



    
    
    

    int8_t* _8_PadConv_0_output_0 = (int8_t*) (mem_0 + _8_PADCONV_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_7_TRANSPOSE_5_OUTPUT_0_IN_BATCH,
                           _7_TRANSPOSE_5_OUTPUT_0_NB_CHANNELS,
                           _7_TRANSPOSE_5_OUTPUT_0_IN_HEIGHT,
                           _7_TRANSPOSE_5_OUTPUT_0_IN_WIDTH,
                           _8_PADCONV_0_OUTPUT_0_NB_OUTPUTS,
                           _8_PADCONV_0_OUTPUT_0_OUT_HEIGHT,
                           _8_PADCONV_0_OUTPUT_0_OUT_WIDTH,
                           _8_PADCONV_0_PADDING_Y,
                           _8_PADCONV_0_PADDING_X,
                           _8_PADCONV_0_STRIDE_Y,
                           _8_PADCONV_0_STRIDE_X,
                           _8_PADCONV_0_DILATION_Y,
                           _8_PADCONV_0_DILATION_X,
                           _8_PADCONV_0_KERNEL_HEIGHT,
                           _8_PADCONV_0_KERNEL_WIDTH,
                           _8_PADCONV_0_ACTIVATION,
                           _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_OFFSET,
                           _7_TRANSPOSE_5_OUTPUT_0_MEM_CONT_SIZE,
                           _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_OFFSET,
                           _7_TRANSPOSE_5_OUTPUT_0_MEM_WRAP_SIZE,
                           _7_TRANSPOSE_5_OUTPUT_0_MEM_STRIDE,
                           _8_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _8_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                           _8_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _8_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _8_PADCONV_0_OUTPUT_0_MEM_STRIDE>
                           (_7_Transpose_5_output_0, _8_PadConv_0_output_0, _8_PadConv_0_weights_output_0, _8_PadConv_0_biases_output_0, _8_PADCONV_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _8_PadConv_0\n");
    FILE* _8_PADCONV_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_8_PadConv_0_output_0.txt", "w");
    export_cpp::saveOutputs<_8_PADCONV_0_OUTPUT_0_NB_OUTPUTS,
                            _8_PADCONV_0_OUTPUT_0_OUT_HEIGHT,
                            _8_PADCONV_0_OUTPUT_0_OUT_WIDTH,
                            _8_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _8_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                            _8_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _8_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _8_PADCONV_0_OUTPUT_0_DEV_FMT>
                            (_8_PadConv_0_output_0,
                            _8_PADCONV_0_OUTPUT_0_STREAM);
    fclose(_8_PADCONV_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    int8_t* _9_Transpose_6_output_0 = (int8_t*) (mem_0 + _9_TRANSPOSE_6_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<int8_t,
                                     _9_TRANSPOSE_6_NB_DIMS,
                                     _9_TRANSPOSE_6_NB_ELTS,
                                     _9_TRANSPOSE_6_PERMUTE,
                                     _9_TRANSPOSE_6_DIMS,
                                     _9_TRANSPOSE_6_OUT_STRIDES,
                                    _8_PADCONV_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _8_PADCONV_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _8_PADCONV_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _8_PADCONV_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _8_PADCONV_0_OUTPUT_0_MEM_STRIDE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_OFFSET,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_CONT_SIZE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_WRAP_SIZE,
                                    _9_TRANSPOSE_6_OUTPUT_0_MEM_STRIDE>
                                     (_8_PadConv_0_output_0,
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



    
    *_9_Transpose_6_output_0_ptr = _9_Transpose_6_output_0;
    *_6_Transpose_4_output_0_ptr = _6_Transpose_4_output_0;
}
