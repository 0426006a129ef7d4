/* cudnn_status_probe.cu: the statuses cuDNN returns for bad calls, one line
 * per call ("<call>: <status>"). Recorded on an H200 with NVIDIA's cuDNN as
 * cudnn_status_probe.expected; under cubridge stdout must equal it
 * (tests/cuda/run_test.sh), so each error path answers as NVIDIA's does.
 *
 * Build: nvcc tests/lib/cudnn_status_probe.cu -o cudnn_status_probe -lcudnn
 */
#include <cuda_runtime.h>
#include <cudnn.h>
#include <stdio.h>

#define P(call) printf("%s: %s\n", #call, cudnnGetErrorString(call))

int main() {
  cudnnHandle_t h;
  P(cudnnCreate(NULL));
  if (cudnnCreate(&h) != CUDNN_STATUS_SUCCESS) { printf("FAIL cudnnCreate\n"); return 1; }
  cudnnTensorDescriptor_t x, y, b, t5;
  cudnnFilterDescriptor_t w;
  cudnnConvolutionDescriptor_t c;
  cudnnPoolingDescriptor_t p;
  cudnnActivationDescriptor_t a;
  cudnnLRNDescriptor_t l;
  cudnnCreateTensorDescriptor(&x);
  cudnnCreateTensorDescriptor(&y);
  cudnnCreateTensorDescriptor(&b);
  cudnnCreateTensorDescriptor(&t5);
  cudnnCreateFilterDescriptor(&w);
  cudnnCreateConvolutionDescriptor(&c);
  cudnnCreatePoolingDescriptor(&p);
  cudnnCreateActivationDescriptor(&a);
  cudnnCreateLRNDescriptor(&l);

  /* descriptors */
  P(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 0, 3, 8, 8));
  P(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, -1, 3, 8, 8));
  P(cudnnSetTensor4dDescriptor(x, (cudnnTensorFormat_t)7, CUDNN_DATA_FLOAT, 2, 3, 8, 8));
  P(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, (cudnnDataType_t)99, 2, 3, 8, 8));
  P(cudnnSetTensor4dDescriptorEx(x, CUDNN_DATA_FLOAT, 2, 3, 8, 8, 192, 64, 8, 0));
  int d2[2] = {4, 4}, s2[2] = {4, 1}, d3[3] = {2, 4, 4}, s3[3] = {16, 4, 1};
  int d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, s9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  P(cudnnSetTensorNdDescriptor(t5, CUDNN_DATA_FLOAT, 2, d2, s2));
  P(cudnnSetTensorNdDescriptor(t5, CUDNN_DATA_FLOAT, 3, d3, s3));
  P(cudnnSetTensorNdDescriptor(t5, CUDNN_DATA_FLOAT, 9, d9, s9));
  int d5[5] = {2, 3, 4, 4, 4}, st5[5] = {192, 64, 16, 4, 1};
  P(cudnnSetTensorNdDescriptor(t5, CUDNN_DATA_FLOAT, 5, d5, st5));
  {
    cudnnDataType_t dt;
    int n, cc, hh, ww, sn, sc, sh, sw;
    P(cudnnGetTensor4dDescriptor(t5, &dt, &n, &cc, &hh, &ww, &sn, &sc, &sh, &sw));
  }
  P(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 4, 3, 0, 3));
  P(cudnnSetConvolution2dDescriptor(c, -1, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  P(cudnnSetConvolution2dDescriptor(c, 0, 0, 0, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  P(cudnnSetConvolution2dDescriptor(c, 0, 0, 1, 1, 0, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  P(cudnnSetConvolution2dDescriptor(c, 0, 0, 1, 1, 1, 1, (cudnnConvolutionMode_t)5, CUDNN_DATA_FLOAT));
  P(cudnnSetConvolutionGroupCount(c, 0));
  P(cudnnSetConvolutionMathType(c, (cudnnMathType_t)9));
  P(cudnnSetPooling2dDescriptor(p, (cudnnPoolingMode_t)9, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
  P(cudnnSetPooling2dDescriptor(p, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 0, 2, 0, 0, 2, 2));
  P(cudnnSetActivationDescriptor(a, (cudnnActivationMode_t)17, CUDNN_NOT_PROPAGATE_NAN, 0));
  P(cudnnSetLRNDescriptor(l, 17, 1e-4, 0.75, 2.0));
  P(cudnnSetLRNDescriptor(l, 5, 1e-4, 0.001, 2.0));
  P(cudnnSetLRNDescriptor(l, 5, 1e-4, 0.75, 1e-7));

  /* convolutions with mismatched descriptors */
  cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 8, 8);
  cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 4, 3, 3, 3);
  cudnnSetConvolution2dDescriptor(c, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 4, 8, 8);
  int n, cc, hh, ww;
  P(cudnnGetConvolution2dForwardOutputDim(c, x, w, &n, &cc, &hh, &ww));
  printf("output dims %d %d %d %d\n", n, cc, hh, ww);
  float *dx, *dw, *dy;
  cudaMalloc(&dx, 2 * 3 * 8 * 8 * 4);
  cudaMalloc(&dw, 4 * 3 * 3 * 3 * 4);
  cudaMalloc(&dy, 2 * 4 * 8 * 8 * 4);
  float one = 1, zero = 0;
  size_t ws;
  P(cudnnGetConvolutionForwardWorkspaceSize(h, x, w, c, y, (cudnnConvolutionFwdAlgo_t)42, &ws));
  P(cudnnConvolutionForward(NULL, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, y,
                            dy));
  P(cudnnConvolutionForward(h, &one, x, dx, w, dw, c, (cudnnConvolutionFwdAlgo_t)42, NULL, 0, &zero, y, dy));
  P(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, x, y, c, w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD, &ws));
  cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 5, 8, 8);   /* wrong K */
  P(cudnnConvolutionForward(h, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, b,
                            dy));
  cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 4, 1, 1);   /* wrong spatial */
  P(cudnnConvolutionForward(h, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, b,
                            dy));
  cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 2, 4, 8, 8);  /* mixed types */
  P(cudnnConvolutionForward(h, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, b,
                            dy));
  cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 4, 2, 3, 3);  /* wrong C */
  P(cudnnGetConvolution2dForwardOutputDim(c, x, w, &n, &cc, &hh, &ww));
  P(cudnnConvolutionForward(h, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero, y,
                            dy));
  cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 4, 3, 3, 3);

  /* other calls */
  P(cudnnSetActivationDescriptor(a, CUDNN_ACTIVATION_SIGMOID, CUDNN_NOT_PROPAGATE_NAN, 0));
  cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 1, 1, 1);
  P(cudnnConvolutionBiasActivationForward(h, &one, x, dx, w, dw, c, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
                                          NULL, 0, &zero, y, dy, b, dy, a, y, dy));
  P(cudnnActivationForward(h, a, &one, x, dx, &zero, y, dy));
  P(cudnnSoftmaxForward(h, (cudnnSoftmaxAlgorithm_t)9, CUDNN_SOFTMAX_MODE_CHANNEL, &one, x, dx, &zero, x, dx));
  /* (A 2x2/2 max pooling into y of x's own dims, in place, is SUCCESS on
   * NVIDIA's cuDNN 9.19 and BAD_PARAM on cubridge, which checks the output
   * dims: a deliberate difference (docs/cudnn.md), so no line here.) */
  cudnnSetTensor4dDescriptor(b, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 1, 1);
  P(cudnnBatchNormalizationForwardTraining(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, x, dx, x, dx, b, dw, dw, 0.1, NULL,
                                           NULL, -1.0, NULL, NULL));
  P(cudnnBatchNormalizationForwardTraining(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, x, dx, x, dx, y, dw, dw, 0.1, NULL,
                                           NULL, 1e-5, NULL, NULL));
  P(cudnnAddTensor(h, &one, y, dy, &one, x, dx));
  P(cudnnDestroyTensorDescriptor(NULL));
  P(cudnnDestroy(NULL));
  P(cudnnSetStream(NULL, 0));
  for (int s = 0; s <= 15; s++) printf("status %d: %s\n", s, cudnnGetErrorString((cudnnStatus_t)s));
  int codes[] = {1001, 2000, 2002, 3000, 4000, 5000, 9999};
  for (int i = 0; i < 7; i++) printf("status %d: %s\n", codes[i], cudnnGetErrorString((cudnnStatus_t)codes[i]));
  cudaDeviceSynchronize();
  cudnnDestroy(h);
  printf("PASS cudnn_status_probe\n");
  return 0;
}
