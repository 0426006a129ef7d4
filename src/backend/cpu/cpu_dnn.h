/* cpu_dnn.h: the CPU backend's DNN interface (backend_dnn.h).
 *
 *   cpu_dnn.c        the entry: picks oneDNN or the direct loops, stages
 *                    operands (types, layouts, TF32 rounding, mirrored
 *                    filters) and blends the result (alpha, beta)
 *   cpu_dnn_onednn.c oneDNN (Debian's libdnnl2), loaded with dlopen on first
 *                    use: f32 convolutions on plain strided memory
 *   cpu_dnn_direct.c direct loops accumulating in double (f64, integer
 *                    types, and whatever oneDNN refuses)
 *
 * Device addresses are host addresses here (the CPU backend's arena).
 */
#ifndef CB_CPU_DNN_H
#define CB_CPU_DNN_H

#include <cuda.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/backend.h"
#include "backend/backend_lib.h"

CUresult cpu_dnn_conv(cb_backend *b, const cb_dnn_conv *c);

/* A dense row-major f32 or f64 view of one operand: dims as the tensor's,
 * strides of a packed array (the last dimension fastest). */
typedef struct cpu_dnn_plain {
    int nd;
    int64_t dim[CB_DNN_MAX_DIMS];
    int64_t stride[CB_DNN_MAX_DIMS];   /* elements */
    void *data;
} cpu_dnn_plain;

/* oneDNN's f32 convolution of c's geometry on x, w, y (f32 memory with the
 * given strides, possibly negative ones refused): returns CUDA_SUCCESS,
 * CUDA_ERROR_NOT_SUPPORTED (no oneDNN, or it has no implementation for
 * this shape: the caller falls back to the direct loops). Writes the
 * direction's output (alpha 1, beta 0). */
CUresult cpu_dnn_onednn_conv(const cb_dnn_conv *c, const cpu_dnn_plain *x, const cpu_dnn_plain *w,
                             const cpu_dnn_plain *y);
/* 1 when oneDNN could be loaded (once). */
int cpu_dnn_onednn_available(void);

/* The direct loops on packed f64 arrays (x, w, y dense row-major as
 * cpu_dnn_plain, of c's dims): writes the direction's output (alpha 1,
 * beta 0). */
CUresult cpu_dnn_direct_conv(const cb_dnn_conv *c, const double *x, const double *w, double *y);

#endif
