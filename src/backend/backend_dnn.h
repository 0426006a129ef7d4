/* backend_dnn.h: the DNN part of a backend's library interface
 * (cb_backend_lib.dnn_conv, backend_lib.h).
 *
 * The cuDNN facade (src/lib/cudnn) computes convolutions through it; the
 * CPU backend fills it with oneDNN (Debian's libdnnl-dev, loaded with dlopen
 * on first use) and its own direct loops where oneDNN does not fit
 * (src/backend/cpu/cpu_dnn*.c). docs/cudnn.md.
 *
 * Conventions:
 *   - a tensor is a device address with up to CB_DNN_MAX_DIMS dimensions in
 *     logical order -- activations N, C, spatial...; filters K, C / groups,
 *     spatial... -- each with its own stride in elements (any layout: NCHW,
 *     NHWC, padded strides); the facade has validated dims > 0, strides
 *     >= 1, and that every extent lies in device memory;
 *   - out = alpha * result + beta * out; beta == 0: out is not read (NaN in
 *     it does not propagate), as cuDNN documents;
 *   - each call runs to completion on the calling thread (a stream worker)
 *     and returns CUDA_SUCCESS, CUDA_ERROR_NOT_SUPPORTED or
 *     CUDA_ERROR_OUT_OF_MEMORY.
 */
#ifndef CB_BACKEND_DNN_H
#define CB_BACKEND_DNN_H

#include <stdint.h>

#define CB_DNN_MAX_DIMS 8
#define CB_DNN_MAX_SPATIAL (CB_DNN_MAX_DIMS - 2)

typedef struct cb_dnn_tensor {
    int type;                          /* cb_blas_type: F32, F64, F16, BF16, I8, U8, I32 */
    int nd;                            /* 3 .. CB_DNN_MAX_DIMS */
    int64_t dim[CB_DNN_MAX_DIMS];
    int64_t stride[CB_DNN_MAX_DIMS];
    uint64_t addr;
} cb_dnn_tensor;

enum { CB_DNN_CONV_FWD = 0, CB_DNN_CONV_BWD_DATA = 1, CB_DNN_CONV_BWD_FILTER = 2 };

/* One convolution, in any of its three directions:
 *   FWD         y = alpha * conv(x, w) + beta * y
 *   BWD_DATA    x = alpha * conv^T(y, w) + beta * x      (y holds dy, x dx)
 *   BWD_FILTER  w = alpha * dW(x, y) + beta * w          (y holds dy, w dw)
 * where conv(x, w)[n, k, o...] = sum over c in k's group and r... of
 *   x[n, g * C/g + c, o * stride + r * dilation - pad] * w[k, c, f(r)]
 * with f(r) = r for cross-correlation and R - 1 - r when flip is set
 * (CUDNN_CONVOLUTION: the filter mirrored in every spatial dimension), and
 * x read as 0 outside its extent. Output extents are the facade's
 * (o = 1 + (i + 2 pad - ((R - 1) dilation + 1)) / stride). */
typedef struct cb_dnn_conv {
    int direction;                     /* CB_DNN_CONV_* */
    int flip;
    int64_t groups;
    int nsp;                           /* spatial dimensions: x.nd - 2 */
    int64_t pad[CB_DNN_MAX_SPATIAL], stride[CB_DNN_MAX_SPATIAL], dilation[CB_DNN_MAX_SPATIAL];
    int round;                         /* cb_blas_input_round of x, w, dy before multiplying (TF32) */
    int accumulate;                    /* cb_blas_type of the accumulation: F32, F64 or I32 */
    cb_dnn_tensor x, w, y;
    double alpha, beta;
} cb_dnn_conv;

#endif
