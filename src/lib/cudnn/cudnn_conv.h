/* cudnn_conv.h: what cudnn_conv.c (descriptors, queries) and
 * cudnn_conv_exec.c (the convolutions) share. */
#ifndef CBL_CUDNN_CONV_H
#define CBL_CUDNN_CONV_H

#include "cudnn_internal.h"

/* The output dims (N, K, spatial...) of conv on input x and filter w;
 * BAD_PARAM (recorded) when they do not fit together. */
cudnnStatus_t cudnn_conv_output_dims(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                                     int64_t *out, const char *fn);
/* The same, and y's dims must be those. */
cudnnStatus_t cudnn_conv_check(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                               const cudnn_tensor *y, const char *fn);
/* The accumulation type (cb_blas_type) and the input rounding
 * (cb_blas_input_round) of a convolution of these types and math type;
 * NOT_SUPPORTED for a combination cuDNN has no configuration for. */
cudnnStatus_t cudnn_conv_config(cudnnConvolutionDescriptor_t conv, const cudnn_tensor *x, const cudnn_tensor *w,
                                const cudnn_tensor *y, int *accumulate, int *round, const char *fn);
/* Runs one convolution of direction dir (x, w, y as in cb_dnn_conv: y is
 * dy for the backward ones), alpha 1 and beta 0, waiting for it; *ms: its
 * time. For the FindEx queries. */
cudnnStatus_t cudnn_conv_time(cudnnHandle_t h, int dir, cudnnTensorDescriptor_t xd, const void *x,
                              cudnnFilterDescriptor_t wd, const void *w, cudnnConvolutionDescriptor_t conv,
                              cudnnTensorDescriptor_t yd, const void *y, void *workspace, size_t workspace_bytes,
                              float *ms);

/* The C reference (cudnn_ref.c): the direction's output of c on packed
 * row-major doubles (x, w, y of c's dims; the output starts at zero), by a
 * plain loop over every output element, accumulating in double. */
void cudnn_ref_conv(const cb_dnn_conv *c, const double *x, const double *w, double *y);

#endif
