/* cnn_train.cu: a small CNN trained on cuDNN and cuBLAS, 200 SGD steps on
 * synthetic data; prints the loss of every step.
 *
 *   input 1x16x16 -> conv 3x3 (8) -> batch norm -> ReLU -> max pool 2x2
 *                 -> conv 3x3 (16) -> batch norm -> ReLU -> max pool 2x2
 *                 -> fully connected 256 -> 10 (cublasSgemm + cudnnAddTensor)
 *                 -> softmax (cudnnSoftmaxForward) and cross-entropy
 * Backward: the gradient of the loss by a kernel of this file, the fully
 * connected layer by cublasSgemm and cudnnConvolutionBackwardBias, then
 * cudnnPoolingBackward, cudnnActivationBackward,
 * cudnnBatchNormalizationBackward, cudnnConvolutionBackwardFilter and
 * BackwardData; the update by cublasSaxpy. Deterministic: fixed data and
 * initial weights (a linear congruential generator), the deterministic
 * algorithms (IMPLICIT_GEMM, BWD_*_ALGO_1, MAX_DETERMINISTIC pooling),
 * FMA_MATH (no TF32) and cuBLAS's default math.
 *
 * stdout: "step S loss L" for S = 0..199 (L with 6 decimals), then the
 * final accuracy on the training set, then "PASS cnn_train". It exits 1 if
 * a call fails, the loss is not finite, or training does not halve the
 * loss. tests/lib/cnn_train_check.py compares a run through cubridge with
 * the H200's recording (tests/data/cudnn/cnn_train.h200.txt).
 *
 * Build: nvcc tests/lib/cnn_train.cu -o cnn_train -lcudnn -lcublas
 */
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#define CK(call)                                                                                           \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_));                     \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)
#define CD(call)                                                                                           \
  do {                                                                                                     \
    cudnnStatus_t s_ = (call);                                                                             \
    if (s_ != CUDNN_STATUS_SUCCESS) {                                                                      \
      printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudnnGetErrorString(s_));                  \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)
#define CB(call)                                                                                           \
  do {                                                                                                     \
    cublasStatus_t s_ = (call);                                                                            \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                                     \
      printf("FAIL %s:%d: %s: %d\n", __FILE__, __LINE__, #call, (int)s_);                                  \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

enum { BATCH = 32, IMG = 16, CLASSES = 10, SAMPLES = 512, STEPS = 200 };
static const float LR = 0.05f;

static uint32_t lcg = 7;
static float urand() {   /* [-1, 1) */
  lcg = lcg * 1664525u + 1013904223u;
  return (float)((lcg >> 8) & 0xffffff) / 8388608.0f - 1.0f;
}

static float *dalloc(size_t n) {
  float *p;
  CK(cudaMalloc(&p, n * sizeof(float)));
  CK(cudaMemset(p, 0, n * sizeof(float)));
  return p;
}
static float *dupload(const std::vector<float> &h) {
  float *p = dalloc(h.size());
  CK(cudaMemcpy(p, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
  return p;
}
static cudnnTensorDescriptor_t tdesc(int n, int c, int h, int w) {
  cudnnTensorDescriptor_t d;
  CD(cudnnCreateTensorDescriptor(&d));
  CD(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
  return d;
}

/* dlogits = (softmax - onehot) / BATCH */
__global__ void loss_grad(const float *prob, const int *label, float *dlogits, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n * k) dlogits[i] = (prob[i] - (label[i / k] == i % k ? 1.0f : 0.0f)) / (float)n;
}

/* One conv + BN + ReLU + pool block. */
struct Block {
  int cin, cout, hw;   /* input channels, output channels, input side */
  cudnnTensorDescriptor_t in, conv_out, pooled, bn;
  cudnnFilterDescriptor_t wdesc;
  cudnnConvolutionDescriptor_t conv;
  cudnnConvolutionFwdAlgo_t fwd;
  cudnnConvolutionBwdDataAlgo_t bwd_data;
  cudnnConvolutionBwdFilterAlgo_t bwd_filter;
  size_t work_bytes;
  float *w, *dw, *scale, *bias, *dscale, *dbias, *rmean, *rvar, *smean, *sinv;
  float *conv_y, *bn_y, *relu_y, *pool_y;      /* activations */
  float *d_pool_in, *d_relu_in, *d_conv_out, *d_in;   /* gradients */
};

static void block_init(cudnnHandle_t h, Block &b, int cin, int cout, int hw) {
  b.cin = cin, b.cout = cout, b.hw = hw;
  b.in = tdesc(BATCH, cin, hw, hw);
  b.conv_out = tdesc(BATCH, cout, hw, hw);
  b.pooled = tdesc(BATCH, cout, hw / 2, hw / 2);
  b.bn = tdesc(1, cout, 1, 1);
  CD(cudnnCreateFilterDescriptor(&b.wdesc));
  CD(cudnnSetFilter4dDescriptor(b.wdesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, cout, cin, 3, 3));
  CD(cudnnCreateConvolutionDescriptor(&b.conv));
  CD(cudnnSetConvolution2dDescriptor(b.conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  CD(cudnnSetConvolutionMathType(b.conv, CUDNN_FMA_MATH));
  b.fwd = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
  b.bwd_data = CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
  b.bwd_filter = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
  size_t s1 = 0, s2 = 0, s3 = 0;
  CD(cudnnGetConvolutionForwardWorkspaceSize(h, b.in, b.wdesc, b.conv, b.conv_out, b.fwd, &s1));
  CD(cudnnGetConvolutionBackwardDataWorkspaceSize(h, b.wdesc, b.conv_out, b.conv, b.in, b.bwd_data, &s2));
  CD(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, b.in, b.conv_out, b.conv, b.wdesc, b.bwd_filter, &s3));
  b.work_bytes = s1 > s2 ? s1 : s2;
  b.work_bytes = b.work_bytes > s3 ? b.work_bytes : s3;
  std::vector<float> w((size_t)cout * cin * 9);
  float bound = sqrtf(6.0f / (float)(cin * 9));   /* He uniform */
  for (size_t i = 0; i < w.size(); i++) w[i] = urand() * bound;
  b.w = dupload(w);
  b.dw = dalloc(w.size());
  b.scale = dupload(std::vector<float>(cout, 1.0f));
  b.bias = dalloc(cout), b.dscale = dalloc(cout), b.dbias = dalloc(cout);
  b.rmean = dalloc(cout), b.smean = dalloc(cout), b.sinv = dalloc(cout);
  b.rvar = dupload(std::vector<float>(cout, 1.0f));
  size_t full = (size_t)BATCH * cout * hw * hw, half = full / 4;
  b.conv_y = dalloc(full), b.bn_y = dalloc(full), b.relu_y = dalloc(full), b.pool_y = dalloc(half);
  b.d_pool_in = dalloc(full), b.d_relu_in = dalloc(full), b.d_conv_out = dalloc(full);
  b.d_in = dalloc((size_t)BATCH * cin * hw * hw);
}

struct Net {
  cudnnHandle_t dnn;
  cublasHandle_t blas;
  cudnnActivationDescriptor_t relu;
  cudnnPoolingDescriptor_t pool;
  Block b1, b2;
  cudnnTensorDescriptor_t logits_desc, fcbias_desc;
  float *fcw, *fcb, *dfcw, *dfcb, *logits, *prob, *dlogits, *dh;
  void *work;
  size_t work_bytes;
};

static const float one = 1.0f, zero = 0.0f;

static void block_forward(Net &n, Block &b, const float *x) {
  CD(cudnnConvolutionForward(n.dnn, &one, b.in, x, b.wdesc, b.w, b.conv, b.fwd, n.work, n.work_bytes, &zero,
                             b.conv_out, b.conv_y));
  CD(cudnnBatchNormalizationForwardTraining(n.dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, b.conv_out, b.conv_y,
                                            b.conv_out, b.bn_y, b.bn, b.scale, b.bias, 0.1, b.rmean, b.rvar, 1e-5,
                                            b.smean, b.sinv));
  CD(cudnnActivationForward(n.dnn, n.relu, &one, b.conv_out, b.bn_y, &zero, b.conv_out, b.relu_y));
  CD(cudnnPoolingForward(n.dnn, n.pool, &one, b.conv_out, b.relu_y, &zero, b.pooled, b.pool_y));
}

/* dy_pooled: the gradient of the block's output; x: its input. */
static void block_backward(Net &n, Block &b, const float *x, const float *dy_pooled, bool need_dx) {
  CD(cudnnPoolingBackward(n.dnn, n.pool, &one, b.pooled, b.pool_y, b.pooled, dy_pooled, b.conv_out, b.relu_y, &zero,
                          b.conv_out, b.d_pool_in));
  CD(cudnnActivationBackward(n.dnn, n.relu, &one, b.conv_out, b.relu_y, b.conv_out, b.d_pool_in, b.conv_out, b.bn_y,
                             &zero, b.conv_out, b.d_relu_in));
  CD(cudnnBatchNormalizationBackward(n.dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &zero, b.conv_out, b.conv_y,
                                     b.conv_out, b.d_relu_in, b.conv_out, b.d_conv_out, b.bn, b.scale, b.dscale,
                                     b.dbias, 1e-5, b.smean, b.sinv));
  CD(cudnnConvolutionBackwardFilter(n.dnn, &one, b.in, x, b.conv_out, b.d_conv_out, b.conv, b.bwd_filter, n.work,
                                    n.work_bytes, &zero, b.wdesc, b.dw));
  if (need_dx)
    CD(cudnnConvolutionBackwardData(n.dnn, &one, b.wdesc, b.w, b.conv_out, b.d_conv_out, b.conv, b.bwd_data, n.work,
                                    n.work_bytes, &zero, b.in, b.d_in));
}

static void sgd(Net &n, float *p, const float *g, int count) {
  const float step = -LR;
  CB(cublasSaxpy(n.blas, count, &step, g, 1, p, 1));
}

int main() {
  /* the data: 512 images of 10 classes, each a class template plus noise */
  std::vector<float> templ((size_t)CLASSES * IMG * IMG), data((size_t)SAMPLES * IMG * IMG);
  std::vector<int> labels(SAMPLES);
  for (size_t i = 0; i < templ.size(); i++) templ[i] = urand();
  for (int s = 0; s < SAMPLES; s++) {
    labels[s] = (int)((lcg = lcg * 1664525u + 1013904223u) >> 16) % CLASSES;
    for (int p = 0; p < IMG * IMG; p++)
      data[(size_t)s * IMG * IMG + p] = 0.6f * templ[(size_t)labels[s] * IMG * IMG + p] + 0.8f * urand();
  }
  Net n;
  CD(cudnnCreate(&n.dnn));
  CB(cublasCreate(&n.blas));
  CB(cublasSetMathMode(n.blas, CUBLAS_DEFAULT_MATH));
  CD(cudnnCreateActivationDescriptor(&n.relu));
  CD(cudnnSetActivationDescriptor(n.relu, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
  CD(cudnnCreatePoolingDescriptor(&n.pool));
  CD(cudnnSetPooling2dDescriptor(n.pool, CUDNN_POOLING_MAX_DETERMINISTIC, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));
  block_init(n.dnn, n.b1, 1, 8, IMG);
  block_init(n.dnn, n.b2, 8, 16, IMG / 2);
  n.work_bytes = n.b1.work_bytes > n.b2.work_bytes ? n.b1.work_bytes : n.b2.work_bytes;
  n.work = NULL;
  if (n.work_bytes) CK(cudaMalloc(&n.work, n.work_bytes));
  fprintf(stderr, "cnn_train: cuDNN %zu, workspace %zu bytes\n", cudnnGetVersion(), n.work_bytes);
  const int F = 16 * 4 * 4;
  std::vector<float> fcw((size_t)CLASSES * F);
  for (size_t i = 0; i < fcw.size(); i++) fcw[i] = urand() * sqrtf(6.0f / F);
  n.fcw = dupload(fcw);
  n.fcb = dalloc(CLASSES), n.dfcw = dalloc(fcw.size()), n.dfcb = dalloc(CLASSES);
  n.logits = dalloc(BATCH * CLASSES), n.prob = dalloc(BATCH * CLASSES), n.dlogits = dalloc(BATCH * CLASSES);
  n.dh = dalloc((size_t)BATCH * F);
  n.logits_desc = tdesc(BATCH, CLASSES, 1, 1);
  n.fcbias_desc = tdesc(1, CLASSES, 1, 1);
  float *d_data = dupload(data);
  int *d_labels;
  CK(cudaMalloc(&d_labels, SAMPLES * sizeof(int)));
  CK(cudaMemcpy(d_labels, labels.data(), SAMPLES * sizeof(int), cudaMemcpyHostToDevice));

  std::vector<float> prob(BATCH * CLASSES);
  double first = 0, last = 0;
  for (int step = 0; step < STEPS; step++) {
    int batch = step % (SAMPLES / BATCH);
    const float *x = d_data + (size_t)batch * BATCH * IMG * IMG;
    const int *lab = d_labels + batch * BATCH;
    block_forward(n, n.b1, x);
    block_forward(n, n.b2, n.b1.pool_y);
    /* logits (10 x BATCH, column-major) = W (10 x 256) * H (256 x BATCH) + b */
    CB(cublasSgemm(n.blas, CUBLAS_OP_N, CUBLAS_OP_N, CLASSES, BATCH, F, &one, n.fcw, CLASSES, n.b2.pool_y, F, &zero,
                   n.logits, CLASSES));
    CD(cudnnAddTensor(n.dnn, &one, n.fcbias_desc, n.fcb, &one, n.logits_desc, n.logits));
    CD(cudnnSoftmaxForward(n.dnn, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, n.logits_desc, n.logits,
                           &zero, n.logits_desc, n.prob));
    CK(cudaMemcpy(prob.data(), n.prob, prob.size() * sizeof(float), cudaMemcpyDeviceToHost));
    double loss = 0;
    for (int i = 0; i < BATCH; i++) {
      double p = prob[(size_t)i * CLASSES + labels[(size_t)batch * BATCH + i]];
      loss -= log(p > 1e-30 ? p : 1e-30);
    }
    loss /= BATCH;
    if (!isfinite(loss)) { printf("FAIL step %d: loss %g\n", step, loss); return 1; }
    printf("step %d loss %.6f\n", step, loss);
    if (step == 0) first = loss;
    last = loss;
    loss_grad<<<(BATCH * CLASSES + 127) / 128, 128>>>(n.prob, lab, n.dlogits, BATCH, CLASSES);
    CK(cudaGetLastError());
    /* dW = dlogits * H^T, db = sum over the batch, dH = W^T * dlogits */
    CB(cublasSgemm(n.blas, CUBLAS_OP_N, CUBLAS_OP_T, CLASSES, F, BATCH, &one, n.dlogits, CLASSES, n.b2.pool_y, F,
                   &zero, n.dfcw, CLASSES));
    CD(cudnnConvolutionBackwardBias(n.dnn, &one, n.logits_desc, n.dlogits, &zero, n.fcbias_desc, n.dfcb));
    CB(cublasSgemm(n.blas, CUBLAS_OP_T, CUBLAS_OP_N, F, BATCH, CLASSES, &one, n.fcw, CLASSES, n.dlogits, CLASSES,
                   &zero, n.dh, F));
    block_backward(n, n.b2, n.b1.pool_y, n.dh, true);
    block_backward(n, n.b1, x, n.b2.d_in, false);
    sgd(n, n.fcw, n.dfcw, CLASSES * F);
    sgd(n, n.fcb, n.dfcb, CLASSES);
    Block *bs[2] = {&n.b1, &n.b2};
    for (int i = 0; i < 2; i++) {
      sgd(n, bs[i]->w, bs[i]->dw, bs[i]->cout * bs[i]->cin * 9);
      sgd(n, bs[i]->scale, bs[i]->dscale, bs[i]->cout);
      sgd(n, bs[i]->bias, bs[i]->dbias, bs[i]->cout);
    }
  }
  CK(cudaDeviceSynchronize());
  /* accuracy over the whole training set (inference: the running statistics) */
  int correct = 0;
  for (int batch = 0; batch < SAMPLES / BATCH; batch++) {
    const float *x = d_data + (size_t)batch * BATCH * IMG * IMG;
    Block *bs[2] = {&n.b1, &n.b2};
    const float *in = x;
    for (int i = 0; i < 2; i++) {
      Block &b = *bs[i];
      CD(cudnnConvolutionForward(n.dnn, &one, b.in, in, b.wdesc, b.w, b.conv, b.fwd, n.work, n.work_bytes, &zero,
                                 b.conv_out, b.conv_y));
      CD(cudnnBatchNormalizationForwardInference(n.dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, b.conv_out, b.conv_y,
                                                 b.conv_out, b.bn_y, b.bn, b.scale, b.bias, b.rmean, b.rvar, 1e-5));
      CD(cudnnActivationForward(n.dnn, n.relu, &one, b.conv_out, b.bn_y, &zero, b.conv_out, b.relu_y));
      CD(cudnnPoolingForward(n.dnn, n.pool, &one, b.conv_out, b.relu_y, &zero, b.pooled, b.pool_y));
      in = b.pool_y;
    }
    CB(cublasSgemm(n.blas, CUBLAS_OP_N, CUBLAS_OP_N, CLASSES, BATCH, F, &one, n.fcw, CLASSES, n.b2.pool_y, F, &zero,
                   n.logits, CLASSES));
    CD(cudnnAddTensor(n.dnn, &one, n.fcbias_desc, n.fcb, &one, n.logits_desc, n.logits));
    std::vector<float> lg(BATCH * CLASSES);
    CK(cudaMemcpy(lg.data(), n.logits, lg.size() * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < BATCH; i++) {
      int best = 0;
      for (int k = 1; k < CLASSES; k++)
        if (lg[(size_t)i * CLASSES + k] > lg[(size_t)i * CLASSES + best]) best = k;
      correct += best == labels[(size_t)batch * BATCH + i];
    }
  }
  printf("accuracy %d/%d\n", correct, SAMPLES);
  if (!(last < 0.5 * first)) {
    printf("FAIL the loss went from %.6f to %.6f: training does not work\n", first, last);
    return 1;
  }
  CD(cudnnDestroy(n.dnn));
  CB(cublasDestroy(n.blas));
  printf("PASS cnn_train\n");
  return 0;
}
