
#include <stdint.h>
#include <stddef.h>


#include "forward.hpp"

// Layer & memory configurations

#include "layers/_0_Conv2D_0_biases.h"
#include "layers/_5_ReduceMean_0.h"
#include "layers/_0_Conv2D_0_weights.h"
#include "layers/_3_Transpose_1.h"
#include "kernels/cpp/transpose.hpp"
#include "layers/_6_FC_0_biases.h"
#include "layers/_2_BatchNorm2D_0_prod_3.h"
#include "kernels/activation.hpp"
#include "parameters/_6_FC_0_weights.hpp"
#include "layers/_2_BatchNorm2D_0_prod_1.h"
#include "layers/_0_Conv2D_0.h"
#include "parameters/_6_FC_0_biases.hpp"
#include "layers/_2_BatchNorm2D_0_prod_2.h"
#include "parameters/_2_BatchNorm2D_0_prod_1.hpp"
#include "layers/_4_ReLU_0.h"
#include "layers/_6_FC_0.h"
#include "parameters/_0_Conv2D_0_weights.hpp"
#include "layers/_6_FC_0_weights.h"
#include "kernels/cpp/fullyconnected.hpp"
#include "parameters/_2_BatchNorm2D_0_prod_0.hpp"
#include "kernels/cpp/reduce.hpp"
#include "parameters/_2_BatchNorm2D_0_prod_2.hpp"
#include "layers/_1_Transpose_0.h"
#include "kernels/cpp/batchnorm.hpp"
#include "layers/_2_BatchNorm2D_0_prod_0.h"
#include "parameters/_0_Conv2D_0_biases.hpp"
#include "parameters/_2_BatchNorm2D_0_prod_3.hpp"
#include "kernels/cpp/convolution.hpp"
#include "layers/_2_BatchNorm2D_0.h"

// Memory block
static unsigned char mem_0[2048];


void model_forward (const float* _0_Conv2D_0_input_0,float** _6_FC_0_output_0_ptr)
{
    
    

    float* _0_Conv2D_0_output_0 = (float*) (mem_0 + _0_CONV2D_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::convolution_forward<_0_CONV2D_0_INPUT_0_IN_BATCH,
                           _0_CONV2D_0_INPUT_0_NB_CHANNELS,
                           _0_CONV2D_0_INPUT_0_IN_HEIGHT,
                           _0_CONV2D_0_INPUT_0_IN_WIDTH,
                           _0_CONV2D_0_OUTPUT_0_NB_OUTPUTS,
                           _0_CONV2D_0_OUTPUT_0_OUT_HEIGHT,
                           _0_CONV2D_0_OUTPUT_0_OUT_WIDTH,
                           _0_CONV2D_0_PADDING_Y,
                           _0_CONV2D_0_PADDING_X,
                           _0_CONV2D_0_STRIDE_Y,
                           _0_CONV2D_0_STRIDE_X,
                           _0_CONV2D_0_DILATION_Y,
                           _0_CONV2D_0_DILATION_X,
                           _0_CONV2D_0_KERNEL_HEIGHT,
                           _0_CONV2D_0_KERNEL_WIDTH,
                           _0_CONV2D_0_ACTIVATION,
                           _0_CONV2D_0_INPUT_0_MEM_CONT_OFFSET,
                           _0_CONV2D_0_INPUT_0_MEM_CONT_SIZE,
                           _0_CONV2D_0_INPUT_0_MEM_WRAP_OFFSET,
                           _0_CONV2D_0_INPUT_0_MEM_WRAP_SIZE,
                           _0_CONV2D_0_INPUT_0_MEM_STRIDE,
                           _0_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                           _0_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                           _0_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                           _0_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                           _0_CONV2D_0_OUTPUT_0_MEM_STRIDE>
                           (_0_Conv2D_0_input_0, _0_Conv2D_0_output_0, _0_Conv2D_0_weights_output_0, _0_Conv2D_0_biases_output_0, _0_CONV2D_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _0_Conv2D_0\n");
    FILE* _0_CONV2D_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_0_Conv2D_0_output_0.txt", "w");
    export_cpp::saveOutputs<_0_CONV2D_0_OUTPUT_0_NB_OUTPUTS,
                            _0_CONV2D_0_OUTPUT_0_OUT_HEIGHT,
                            _0_CONV2D_0_OUTPUT_0_OUT_WIDTH,
                            _0_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _0_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                            _0_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _0_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _0_CONV2D_0_OUTPUT_0_DEV_FMT>
                            (_0_Conv2D_0_output_0,
                            _0_CONV2D_0_OUTPUT_0_STREAM);
    fclose(_0_CONV2D_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _1_Transpose_0_output_0 = (float*) (mem_0 + _1_TRANSPOSE_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _1_TRANSPOSE_0_NB_DIMS,
                                     _1_TRANSPOSE_0_NB_ELTS,
                                     _1_TRANSPOSE_0_PERMUTE,
                                     _1_TRANSPOSE_0_DIMS,
                                     _1_TRANSPOSE_0_OUT_STRIDES,
                                    _0_CONV2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _0_CONV2D_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _0_CONV2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _0_CONV2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _0_CONV2D_0_OUTPUT_0_MEM_STRIDE,
                                    _1_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _1_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _1_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _1_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _1_TRANSPOSE_0_OUTPUT_0_MEM_STRIDE>
                                     (_0_Conv2D_0_output_0,
                                     _1_Transpose_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _1_Transpose_0\n");
    FILE* _1_TRANSPOSE_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_1_Transpose_0_output_0.txt", "w");
    export_cpp::saveOutputs<_1_TRANSPOSE_0_OUTPUT_0_NB_OUTPUTS,
                            _1_TRANSPOSE_0_OUTPUT_0_OUT_HEIGHT,
                            _1_TRANSPOSE_0_OUTPUT_0_OUT_WIDTH,
                            _1_TRANSPOSE_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _1_TRANSPOSE_0_OUTPUT_0_MEM_CONT_SIZE,
                            _1_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _1_TRANSPOSE_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _1_TRANSPOSE_0_OUTPUT_0_DEV_FMT>
                            (_1_Transpose_0_output_0,
                            _1_TRANSPOSE_0_OUTPUT_0_STREAM);
    fclose(_1_TRANSPOSE_0_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _2_BatchNorm2D_0_output_0 = (float*) (mem_0 + _2_BATCHNORM2D_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::batchnorm_forward<_2_BATCHNORM2D_0_OUTPUT_0_OUT_BATCH,
                                  _2_BATCHNORM2D_0_OUTPUT_0_NB_OUTPUTS,
                                  _2_BATCHNORM2D_0_OUTPUT_0_OUT_HEIGHT,
                                  _2_BATCHNORM2D_0_OUTPUT_0_OUT_WIDTH,
                                  _2_BATCHNORM2D_0_ACTIVATION>
                                  (_1_Transpose_0_output_0, _2_BatchNorm2D_0_output_0, 
                                   _2_BatchNorm2D_0_prod_0_output_0, _2_BatchNorm2D_0_prod_1_output_0, 
                                   _2_BatchNorm2D_0_prod_2_output_0, _2_BatchNorm2D_0_prod_3_output_0, 
                                   _2_BATCHNORM2D_0_EPSILON, _2_BATCHNORM2D_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _2_BatchNorm2D_0\n");
    FILE* _2_BATCHNORM2D_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_2_BatchNorm2D_0_output_0.txt", "w");
    export_cpp::saveOutputs<_2_BATCHNORM2D_0_OUTPUT_0_NB_OUTPUTS,
                            _2_BATCHNORM2D_0_OUTPUT_0_OUT_HEIGHT,
                            _2_BATCHNORM2D_0_OUTPUT_0_OUT_WIDTH,
                            _2_BATCHNORM2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _2_BATCHNORM2D_0_OUTPUT_0_MEM_CONT_SIZE,
                            _2_BATCHNORM2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _2_BATCHNORM2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _2_BATCHNORM2D_0_OUTPUT_0_DEV_FMT>
                            (_2_BatchNorm2D_0_output_0,
                            _2_BATCHNORM2D_0_OUTPUT_0_STREAM);
    fclose(_2_BATCHNORM2D_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _3_Transpose_1_output_0 = (float*) (mem_0 + _3_TRANSPOSE_1_OUTPUT_0_MEM_OFFSET);

    export_cpp::transpose_ND_forward<float,
                                     _3_TRANSPOSE_1_NB_DIMS,
                                     _3_TRANSPOSE_1_NB_ELTS,
                                     _3_TRANSPOSE_1_PERMUTE,
                                     _3_TRANSPOSE_1_DIMS,
                                     _3_TRANSPOSE_1_OUT_STRIDES,
                                    _2_BATCHNORM2D_0_OUTPUT_0_MEM_CONT_OFFSET,
                                    _2_BATCHNORM2D_0_OUTPUT_0_MEM_CONT_SIZE,
                                    _2_BATCHNORM2D_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _2_BATCHNORM2D_0_OUTPUT_0_MEM_WRAP_SIZE,
                                    _2_BATCHNORM2D_0_OUTPUT_0_MEM_STRIDE,
                                    _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                                    _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                                    _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                    _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                                    _3_TRANSPOSE_1_OUTPUT_0_MEM_STRIDE>
                                     (_2_BatchNorm2D_0_output_0,
                                     _3_Transpose_1_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _3_Transpose_1\n");
    FILE* _3_TRANSPOSE_1_OUTPUT_0_STREAM = fopen("data/export_outputs/_3_Transpose_1_output_0.txt", "w");
    export_cpp::saveOutputs<_3_TRANSPOSE_1_OUTPUT_0_NB_OUTPUTS,
                            _3_TRANSPOSE_1_OUTPUT_0_OUT_HEIGHT,
                            _3_TRANSPOSE_1_OUTPUT_0_OUT_WIDTH,
                            _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                            _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                            _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                            _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                            _3_TRANSPOSE_1_OUTPUT_0_DEV_FMT>
                            (_3_Transpose_1_output_0,
                            _3_TRANSPOSE_1_OUTPUT_0_STREAM);
    fclose(_3_TRANSPOSE_1_OUTPUT_0_STREAM);
    #endif



    
    
    

    float* _4_ReLU_0_output_0 = (float*) (mem_0 + _4_RELU_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::activation_forward<_4_RELU_0_NB_ELTS,
                                   _4_RELU_0_ACTIVATION,
                                   _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_OFFSET,
                                   _3_TRANSPOSE_1_OUTPUT_0_MEM_CONT_SIZE,
                                   _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_OFFSET,
                                   _3_TRANSPOSE_1_OUTPUT_0_MEM_WRAP_SIZE,
                                   _3_TRANSPOSE_1_OUTPUT_0_MEM_STRIDE,
                                   _4_RELU_0_OUTPUT_0_MEM_CONT_OFFSET,
                                   _4_RELU_0_OUTPUT_0_MEM_CONT_SIZE,
                                   _4_RELU_0_OUTPUT_0_MEM_WRAP_OFFSET,
                                   _4_RELU_0_OUTPUT_0_MEM_WRAP_SIZE,
                                   _4_RELU_0_OUTPUT_0_MEM_STRIDE,
                                   float>
                                   (_3_Transpose_1_output_0, _4_ReLU_0_output_0, _4_RELU_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _4_ReLU_0\n");
    FILE* _4_RELU_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_4_ReLU_0_output_0.txt", "w");
    export_cpp::saveOutputs<_4_RELU_0_OUTPUT_0_NB_OUTPUTS,
                            _4_RELU_0_OUTPUT_0_OUT_HEIGHT,
                            _4_RELU_0_OUTPUT_0_OUT_WIDTH,
                            _4_RELU_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _4_RELU_0_OUTPUT_0_MEM_CONT_SIZE,
                            _4_RELU_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _4_RELU_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _4_RELU_0_OUTPUT_0_DEV_FMT>
                            (_4_ReLU_0_output_0,
                            _4_RELU_0_OUTPUT_0_STREAM);
    fclose(_4_RELU_0_OUTPUT_0_STREAM);
    #endif




    
    
    

    float* _5_ReduceMean_0_output_0 = (float*) (mem_0 + _5_REDUCEMEAN_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::reduce_forward<_4_RELU_0_OUTPUT_0_NB_ELTS,
                                   _5_REDUCEMEAN_0_NB_AXES_TO_REDUCES,
                                   _5_REDUCEMEAN_0_ELEM_OP,
                                   _5_REDUCEMEAN_0_AXES_TO_REDUCE,
                                   _4_RELU_0_OUTPUT_0_DIMS,
                                   _5_REDUCEMEAN_0_PREAXIS_STRIDES,
                                   _5_REDUCEMEAN_0_POSTAXIS_STRIDES>
                                     (_4_ReLU_0_output_0,
                                     _5_ReduceMean_0_output_0);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _5_ReduceMean_0\n");
    FILE* _5_REDUCEMEAN_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_5_ReduceMean_0_output_0.txt", "w");
    export_cpp::saveOutputs<_5_REDUCEMEAN_0_OUTPUT_0_NB_OUTPUTS,
                            _5_REDUCEMEAN_0_OUTPUT_0_OUT_HEIGHT,
                            _5_REDUCEMEAN_0_OUTPUT_0_OUT_WIDTH,
                            _5_REDUCEMEAN_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _5_REDUCEMEAN_0_OUTPUT_0_MEM_CONT_SIZE,
                            _5_REDUCEMEAN_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _5_REDUCEMEAN_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _5_REDUCEMEAN_0_OUTPUT_0_DEV_FMT>
                            (_5_ReduceMean_0_output_0,
                            _5_REDUCEMEAN_0_OUTPUT_0_STREAM);
    fclose(_5_REDUCEMEAN_0_OUTPUT_0_STREAM);
    #endif






    
    
    

    float* _6_FC_0_output_0 = (float*) (mem_0 + _6_FC_0_OUTPUT_0_MEM_OFFSET);

    export_cpp::fullyconnected_default_forward<_5_REDUCEMEAN_0_OUTPUT_0_IN_BATCH,
                              _5_REDUCEMEAN_0_OUTPUT_0_NB_CHANNELS,
                              _5_REDUCEMEAN_0_OUTPUT_0_IN_HEIGHT,
                              _5_REDUCEMEAN_0_OUTPUT_0_IN_WIDTH,
                              _6_FC_0_OUTPUT_0_NB_OUTPUTS,
                              _6_FC_0_OUTPUT_0_OUT_HEIGHT,
                              _6_FC_0_OUTPUT_0_OUT_WIDTH,
                              _6_FC_0_ACTIVATION,
                              _5_REDUCEMEAN_0_OUTPUT_0_MEM_CONT_OFFSET,
                              _5_REDUCEMEAN_0_OUTPUT_0_MEM_CONT_SIZE,
                              _5_REDUCEMEAN_0_OUTPUT_0_MEM_WRAP_OFFSET,
                              _5_REDUCEMEAN_0_OUTPUT_0_MEM_WRAP_SIZE,
                              _5_REDUCEMEAN_0_OUTPUT_0_MEM_STRIDE,
                              _6_FC_0_OUTPUT_0_MEM_CONT_OFFSET,
                              _6_FC_0_OUTPUT_0_MEM_CONT_SIZE,
                              _6_FC_0_OUTPUT_0_MEM_WRAP_OFFSET,
                              _6_FC_0_OUTPUT_0_MEM_WRAP_SIZE,
                              _6_FC_0_OUTPUT_0_MEM_STRIDE>
                              (_5_ReduceMean_0_output_0, _6_FC_0_output_0, _6_FC_0_weights_output_0, _6_FC_0_biases_output_0, _6_FC_0_RESCALING);

    #ifdef SAVE_OUTPUTS
    printf("[NOTICE] - Saving outputs of node _6_FC_0\n");
    FILE* _6_FC_0_OUTPUT_0_STREAM = fopen("data/export_outputs/_6_FC_0_output_0.txt", "w");
    export_cpp::saveOutputs<_6_FC_0_OUTPUT_0_NB_OUTPUTS,
                            _6_FC_0_OUTPUT_0_OUT_HEIGHT,
                            _6_FC_0_OUTPUT_0_OUT_WIDTH,
                            _6_FC_0_OUTPUT_0_MEM_CONT_OFFSET,
                            _6_FC_0_OUTPUT_0_MEM_CONT_SIZE,
                            _6_FC_0_OUTPUT_0_MEM_WRAP_OFFSET,
                            _6_FC_0_OUTPUT_0_MEM_WRAP_SIZE,
                            _6_FC_0_OUTPUT_0_DEV_FMT>
                            (_6_FC_0_output_0,
                            _6_FC_0_OUTPUT_0_STREAM);
    fclose(_6_FC_0_OUTPUT_0_STREAM);
    #endif




    
    *_6_FC_0_output_0_ptr = _6_FC_0_output_0;
}
