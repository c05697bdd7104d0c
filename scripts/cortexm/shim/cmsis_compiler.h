/* The four CMSIS intrinsics aidge-export-arm-cortexm 0.10.1's macs.hpp uses (normally
   from the board files' CMSIS), mapped to GCC's ACLE. */
#ifndef MEMPLAN_CMSIS_COMPILER_SHIM_H
#define MEMPLAN_CMSIS_COMPILER_SHIM_H
#include <arm_acle.h>
#include <stdint.h>
#define __SMLAD(a, b, c) __smlad((a), (b), (c))
#define __SMLALD(a, b, c) __smlald((a), (b), (c))
#define __SXTB16(a) __sxtb16(a)
#define __UXTB16(a) __uxtb16(a)
#endif
