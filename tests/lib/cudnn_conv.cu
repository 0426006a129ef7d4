/* cudnn_conv.cu: cuDNN's legacy convolutions against a direct convolution
 * in double -- forward, backward data and backward filter of each case,
 * then the bias gradient, the fused bias/activation, the algorithm and
 * workspace queries and the output-dimension helpers.
 *
 * Cases cover both modes (CUDNN_CONVOLUTION mirrors the filter, and the
 * filters are not symmetric, so a mapping that treats it as
 * cross-correlation fails), NCHW, NHWC and padded strides, groups
 * (depthwise too), dilation, asymmetric padding and stride, 3-D, alpha and
 * beta other than 1 and 0, float/double/half/bfloat16, and every math type.
 * Each direction takes the heuristics' algorithms in their order until a
 * call succeeds (a heuristic is not a promise: on an H200, cuDNN 9.14's
 * first backward-data algorithm for half data answered BAD_PARAM; the
 * statuses go to stderr). Padded strides (gaps between rows, channels and
 * images) are a separate case, marked may_refuse: NVIDIA's cuDNN 9.14 and
 * 9.19 compute its forward but find no algorithm for its backward
 * directions; cuDNN 9.14 has no backward-filter algorithm for true half
 * (compute type HALF) NHWC, also marked. Where the heuristics refuse such a case the program still
 * calls the convolution with IMPLICIT_GEMM / ALGO_0: if that returns
 * SUCCESS the result is checked as usual, else the call must answer
 * NOT_SUPPORTED and the case prints "refused <case> <direction>".
 * cubridge computes every case (and is checked).
 * Tolerances (x sqrt(terms summed)): fp32 under FMA_MATH 3e-5; fp32 under
 * DEFAULT_MATH and TENSOR_OP_MATH 3e-3 (an A100 or later may use TF32
 * there); double 1e-12; half 4e-3; bfloat16 3e-2.
 *
 * Build: nvcc -Itests/lib tests/lib/cudnn_conv.cu -o cudnn_conv -lcudnn
 */
#include "dnn_check.h"

struct Case {
  const char *name;
  cudnnDataType_t type, compute;
  cudnnTensorFormat_t xfmt, wfmt;
  int padded;                 /* activations with padded strides (gaps between elements) */
  int nsp;
  int N, C, K, in[3], filt[3], pad[3], stride[3], dil[3], groups;
  cudnnConvolutionMode_t mode;
  cudnnMathType_t math;
  double alpha, beta;
  int may_refuse;             /* NVIDIA's cuDNN may refuse it (NOT_SUPPORTED) */
};

static const Case cases[] = {
  {"xcorr-nchw", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 4, 6, {7, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_FMA_MATH, 1, 0},
  {"conv-nchw", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 4, 6, {7, 6}, {3, 2}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CONVOLUTION, CUDNN_FMA_MATH, 1, 0},
  {"conv-nhwc-groups-dilated", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, CUDNN_TENSOR_NHWC, 0, 2,
   2, 4, 6, {9, 8}, {3, 3}, {2, 2}, {2, 2}, {2, 2}, 2, CUDNN_CONVOLUTION, CUDNN_FMA_MATH, 0.5, 0.25},
  {"xcorr-asym-stride", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   3, 3, 4, {6, 7}, {2, 3}, {0, 1}, {2, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_FMA_MATH, -1.5, 1},
  {"xcorr-padded-strides", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 1, 2,
   3, 3, 4, {6, 7}, {2, 3}, {0, 1}, {2, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_FMA_MATH, -1.5, 1, 1},
  {"conv-double-asym", CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 3, 5, {8, 7}, {3, 2}, {1, 0}, {2, 1}, {1, 2}, 1, CUDNN_CONVOLUTION, CUDNN_DEFAULT_MATH, 2, -0.5},
  {"half-pseudo-tensorop", CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 8, 8, {6, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_TENSOR_OP_MATH, 1, 0},
  {"half-true-nhwc", CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, CUDNN_TENSOR_NHWC, 0, 2,
   2, 8, 8, {5, 5}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CONVOLUTION, CUDNN_TENSOR_OP_MATH, 1, 0, 1},
  {"bf16", CUDNN_DATA_BFLOAT16, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 8, 8, {6, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_DEFAULT_MATH, 1, 0},
  {"3d-conv", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 3,
   1, 2, 3, {4, 5, 5}, {2, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, 1, CUDNN_CONVOLUTION, CUDNN_FMA_MATH, 1, 0},
  {"tensorop-fp32", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 8, 8, {6, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_TENSOR_OP_MATH, 1, 0},
  {"default-fp32-1x1-s2", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 8, 4, {7, 7}, {1, 1}, {0, 0}, {2, 2}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_DEFAULT_MATH, 1, 0},
  {"depthwise", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2,
   2, 4, 4, {6, 6}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 4, CUDNN_CONVOLUTION, CUDNN_FMA_MATH, 1, 0},
};

static double tolerance(const Case &c) {
  switch (c.type) {
  case CUDNN_DATA_DOUBLE: return 1e-12;
  case CUDNN_DATA_HALF: return 4e-3;
  case CUDNN_DATA_BFLOAT16: return 3e-2;
  default: return c.math == CUDNN_FMA_MATH ? 3e-5 : 3e-3;
  }
}

/* Logical multi-index helpers over up to 5 dims (N, C, spatial). */
static void unravel(size_t e, int nd, const int *dims, int *idx) {
  for (int i = nd - 1; i >= 0; i--) { idx[i] = (int)(e % (size_t)dims[i]); e /= (size_t)dims[i]; }
}
static size_t ravel(int nd, const int *dims, const int *idx) {
  size_t e = 0;
  for (int i = 0; i < nd; i++) e = e * (size_t)dims[i] + (size_t)idx[i];
  return e;
}

/* The three directions by definition, in double: fills y (fwd), dx (bwd
 * data), dw (bwd filter) from x, w, dy (= y's values). */
static void reference(const Case &c, const int *xd, const int *wd, const int *yd, const std::vector<double> &x,
                      const std::vector<double> &w, const std::vector<double> &y, std::vector<double> &fy,
                      std::vector<double> &dx, std::vector<double> &dw) {
  int nd = c.nsp + 2, Cg = c.C / c.groups, Kg = c.K / c.groups;
  size_t ycount = 1, fcount = 1;
  for (int i = 0; i < nd; i++) ycount *= (size_t)yd[i];
  for (int i = 2; i < nd; i++) fcount *= (size_t)wd[i];
  int yi[5], fi[5], xi[5], wi[5];
  for (size_t e = 0; e < ycount; e++) {
    unravel(e, nd, yd, yi);
    int n = yi[0], k = yi[1], g = k / Kg;
    for (int cc = 0; cc < Cg; cc++)
      for (size_t r = 0; r < fcount; r++) {
        unravel(r, c.nsp, wd + 2, fi);
        bool inside = true;
        xi[0] = n, xi[1] = g * Cg + cc, wi[0] = k, wi[1] = cc;
        for (int s = 0; s < c.nsp; s++) {
          int p = yi[s + 2] * c.stride[s] + fi[s] * c.dil[s] - c.pad[s];
          inside = inside && p >= 0 && p < xd[s + 2];
          xi[s + 2] = p;
          wi[s + 2] = c.mode == CUDNN_CONVOLUTION ? wd[s + 2] - 1 - fi[s] : fi[s];
        }
        if (!inside) continue;
        size_t xe = ravel(nd, xd, xi), we = ravel(nd, wd, wi);
        fy[e] += x[xe] * w[we];
        dx[xe] += y[e] * w[we];
        dw[we] += x[xe] * y[e];
      }
  }
}

static void set_tensor(cudnnTensorDescriptor_t d, const HT &t) {
  CHECK_DNN(cudnnSetTensorNdDescriptor(d, t.type, t.nd, t.dim, t.stride));
}

/* Runs one direction: each algorithm the heuristics report SUCCESS for,
 * in their order, until a call returns SUCCESS (a call that fails anyway is
 * reported on stderr and its output restored before the next); true when
 * one did. When none does, a case that may be refused calls the fallback
 * algorithm once: SUCCESS is checked as usual, NOT_SUPPORTED prints
 * "refused <case> <direction>" (false); anything else FAILs. */
template <class P, class A, class WS, class CALL>
static bool run_direction(const Case &c, const char *dir, const P *perf, int n, A fallback, HT &out, WS ws_query,
                          CALL call) {
  for (int i = 0; i < n; i++) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
    size_t bytes = 0;
    cudnnStatus_t st = ws_query(perf[i].algo, &bytes);
    if (st == CUDNN_STATUS_SUCCESS) {
      void *work = NULL;
      if (bytes) CHECK(cudaMalloc(&work, bytes));
      st = call(perf[i].algo, work, bytes);
      cudaFree(work);
      if (st == CUDNN_STATUS_SUCCESS) return true;
    }
    fprintf(stderr, "%s %s: algorithm %d (heuristics: SUCCESS) answers %s\n", c.name, dir, (int)perf[i].algo,
            cudnnGetErrorString(st));
    out.up();
  }
  for (int i = 0; i < n; i++)
    fprintf(stderr, "%s %s: algorithm %d: %s\n", c.name, dir, (int)perf[i].algo, cudnnGetErrorString(perf[i].status));
  if (!c.may_refuse) {
    printf("FAIL %s %s: no algorithm succeeds\n", c.name, dir);
    lib_fail();
  }
  size_t bytes = 0;
  if (ws_query(fallback, &bytes) != CUDNN_STATUS_SUCCESS) bytes = 0;
  void *work = NULL;
  if (bytes) CHECK(cudaMalloc(&work, bytes));
  cudnnStatus_t st = call(fallback, work, bytes);
  cudaFree(work);
  if (st == CUDNN_STATUS_SUCCESS) return true;
  if (st != CUDNN_STATUS_NOT_SUPPORTED) {
    printf("FAIL %s %s: refused by the heuristics, the call answers %s\n", c.name, dir, cudnnGetErrorString(st));
    lib_fail();
  }
  printf("refused %s %s\n", c.name, dir);
  return false;
}

static void run_case(cudnnHandle_t h, const Case &c) {
  int nd = c.nsp + 2;
  int xd[5] = {c.N, c.C}, wd[5] = {c.K, c.C / c.groups}, yd[5] = {c.N, c.K};
  for (int s = 0; s < c.nsp; s++) {
    xd[s + 2] = c.in[s];
    wd[s + 2] = c.filt[s];
    yd[s + 2] = 1 + (c.in[s] + 2 * c.pad[s] - ((c.filt[s] - 1) * c.dil[s] + 1)) / c.stride[s];
  }
  int xs[5], ws[5], ys[5];
  dnn_packed(nd, xd, c.xfmt, xs);
  dnn_packed(nd, wd, c.wfmt, ws);
  dnn_packed(nd, yd, c.xfmt, ys);
  if (c.padded) {   /* W stride 1, H stride W + 3, C stride H * (W + 3) + 5, N stride C * that + 2 */
    xs[3] = 1, xs[2] = xd[3] + 3, xs[1] = xd[2] * xs[2] + 5, xs[0] = xd[1] * xs[1] + 2;
    ys[3] = 1, ys[2] = yd[3] + 2, ys[1] = yd[2] * ys[2] + 1, ys[0] = yd[1] * ys[1] + 3;
  }
  HT x(c.type, nd, xd, xs), w(c.type, nd, wd, ws), y(c.type, nd, yd, ys);
  x.fill(), w.fill(), y.fill();
  cudnnTensorDescriptor_t xdesc, ydesc;
  cudnnFilterDescriptor_t wdesc;
  cudnnConvolutionDescriptor_t conv;
  CHECK_DNN(cudnnCreateTensorDescriptor(&xdesc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&ydesc));
  CHECK_DNN(cudnnCreateFilterDescriptor(&wdesc));
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
  set_tensor(xdesc, x);
  set_tensor(ydesc, y);
  CHECK_DNN(cudnnSetFilterNdDescriptor(wdesc, c.type, c.wfmt, nd, wd));
  CHECK_DNN(cudnnSetConvolutionNdDescriptor(conv, c.nsp, c.pad, c.stride, c.dil, c.mode, c.compute));
  CHECK_DNN(cudnnSetConvolutionGroupCount(conv, c.groups));
  CHECK_DNN(cudnnSetConvolutionMathType(conv, c.math));
  int od[5];
  CHECK_DNN(cudnnGetConvolutionNdForwardOutputDim(conv, xdesc, wdesc, nd, od));
  for (int i = 0; i < nd; i++)
    if (od[i] != yd[i]) { printf("FAIL %s: output dim %d is %d, expected %d\n", c.name, i, od[i], yd[i]); lib_fail(); }

  std::vector<double> fy(y.count, 0), dx(x.count, 0), dw(w.count, 0);
  reference(c, xd, wd, yd, x.v, w.v, y.v, fy, dx, dw);
  double tol = tolerance(c);
  double terms_f = (double)wd[1], terms_d = (double)(c.K / c.groups), terms_w = (double)c.N;
  for (int s = 0; s < c.nsp; s++) terms_f *= c.filt[s], terms_d *= c.filt[s], terms_w *= yd[s + 2];
  float af = (float)c.alpha, bf = (float)c.beta;
  const void *alpha = c.type == CUDNN_DATA_DOUBLE ? (const void *)&c.alpha : (const void *)&af;
  const void *beta = c.type == CUDNN_DATA_DOUBLE ? (const void *)&c.beta : (const void *)&bf;
  char what[128];

  /* forward: the heuristics' first algorithm that works */
  cudnnConvolutionFwdAlgoPerf_t fperf[8];
  int nf = 0;
  CHECK_DNN(cudnnGetConvolutionForwardAlgorithm_v7(h, xdesc, wdesc, conv, ydesc, 8, &nf, fperf));
  std::vector<double> want(y.count);
  if (run_direction(c, "forward", fperf, nf, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, y,
                    [&](cudnnConvolutionFwdAlgo_t a, size_t *b) {
                      return cudnnGetConvolutionForwardWorkspaceSize(h, xdesc, wdesc, conv, ydesc, a, b);
                    },
                    [&](cudnnConvolutionFwdAlgo_t a, void *work, size_t b) {
                      return cudnnConvolutionForward(h, alpha, xdesc, x.d, wdesc, w.d, conv, a, work, b, beta, ydesc,
                                                     y.d);
                    })) {
    for (size_t i = 0; i < y.count; i++) want[i] = c.alpha * fy[i] + c.beta * y.v[i];
    snprintf(what, sizeof what, "%s forward", c.name);
    dnn_compare(what, y.down(what), want, tol * sqrt(terms_f));
  }

  /* backward data: dy is y's original contents (y.v; the device copy is restored) */
  y.up();
  x.fill();   /* dx's old contents, for beta */
  cudnnConvolutionBwdDataAlgoPerf_t dperf[8];
  int ndp = 0;
  CHECK_DNN(cudnnGetConvolutionBackwardDataAlgorithm_v7(h, wdesc, ydesc, conv, xdesc, 8, &ndp, dperf));
  if (run_direction(c, "backward data", dperf, ndp, CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, x,
                    [&](cudnnConvolutionBwdDataAlgo_t a, size_t *b) {
                      return cudnnGetConvolutionBackwardDataWorkspaceSize(h, wdesc, ydesc, conv, xdesc, a, b);
                    },
                    [&](cudnnConvolutionBwdDataAlgo_t a, void *work, size_t b) {
                      return cudnnConvolutionBackwardData(h, alpha, wdesc, w.d, ydesc, y.d, conv, a, work, b, beta,
                                                          xdesc, x.d);
                    })) {
    want.assign(x.count, 0);
    for (size_t i = 0; i < x.count; i++) want[i] = c.alpha * dx[i] + c.beta * x.v[i];
    snprintf(what, sizeof what, "%s backward data", c.name);
    dnn_compare(what, x.down(what), want, tol * sqrt(terms_d));
  }

  /* backward filter, on fresh x values */
  HT x2(c.type, nd, xd, xs);
  dnn_lcg = 0;   /* x2 gets fresh values; recompute the filter gradient for them */
  x2.fill();
  std::vector<double> fy2(y.count, 0), dx2(x.count, 0), dw2(w.count, 0);
  reference(c, xd, wd, yd, x2.v, w.v, y.v, fy2, dx2, dw2);
  w.fill();   /* dw's old contents */
  cudnnConvolutionBwdFilterAlgoPerf_t wperf[8];
  int nw = 0;
  CHECK_DNN(cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, xdesc, ydesc, conv, wdesc, 8, &nw, wperf));
  if (run_direction(c, "backward filter", wperf, nw, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, w,
                    [&](cudnnConvolutionBwdFilterAlgo_t a, size_t *b) {
                      return cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xdesc, ydesc, conv, wdesc, a, b);
                    },
                    [&](cudnnConvolutionBwdFilterAlgo_t a, void *work, size_t b) {
                      return cudnnConvolutionBackwardFilter(h, alpha, xdesc, x2.d, ydesc, y.d, conv, a, work, b, beta,
                                                            wdesc, w.d);
                    })) {
    want.assign(w.count, 0);
    for (size_t i = 0; i < w.count; i++) want[i] = c.alpha * dw2[i] + c.beta * w.v[i];
    snprintf(what, sizeof what, "%s backward filter", c.name);
    dnn_compare(what, w.down(what), want, tol * sqrt(terms_w));
  }

  cudnnDestroyConvolutionDescriptor(conv);
  cudnnDestroyFilterDescriptor(wdesc);
  cudnnDestroyTensorDescriptor(ydesc);
  cudnnDestroyTensorDescriptor(xdesc);
  printf("ok %s\n", c.name);
}

/* Bias gradient and the fused convolution + bias + ReLU (z = y's old
 * contents, as a residual), 4-D descriptors through the 4d setters. */
static void run_bias(cudnnHandle_t h) {
  const int N = 2, C = 3, K = 4, H = 5, W = 6;
  int xd[4] = {N, C, H, W}, wd[4] = {K, C, 3, 3}, yd[4] = {N, K, H, W}, bd[4] = {1, K, 1, 1};
  int xs[4], ws[4], ys[4], bs[4];
  dnn_packed(4, xd, CUDNN_TENSOR_NCHW, xs);
  dnn_packed(4, wd, CUDNN_TENSOR_NCHW, ws);
  dnn_packed(4, yd, CUDNN_TENSOR_NCHW, ys);
  dnn_packed(4, bd, CUDNN_TENSOR_NCHW, bs);
  HT x(CUDNN_DATA_FLOAT, 4, xd, xs), w(CUDNN_DATA_FLOAT, 4, wd, ws), y(CUDNN_DATA_FLOAT, 4, yd, ys);
  HT b(CUDNN_DATA_FLOAT, 4, bd, bs);
  x.fill(), w.fill(), y.fill(), b.fill();
  cudnnTensorDescriptor_t xdesc, ydesc, bdesc;
  cudnnFilterDescriptor_t wdesc;
  cudnnConvolutionDescriptor_t conv;
  cudnnActivationDescriptor_t act;
  CHECK_DNN(cudnnCreateTensorDescriptor(&xdesc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&ydesc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&bdesc));
  CHECK_DNN(cudnnCreateFilterDescriptor(&wdesc));
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&conv));
  CHECK_DNN(cudnnCreateActivationDescriptor(&act));
  CHECK_DNN(cudnnSetTensor4dDescriptor(xdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CHECK_DNN(cudnnSetTensor4dDescriptor(ydesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, H, W));
  CHECK_DNN(cudnnSetTensor4dDescriptor(bdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, K, 1, 1));
  CHECK_DNN(cudnnSetFilter4dDescriptor(wdesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3));
  CHECK_DNN(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  CHECK_DNN(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));
  CHECK_DNN(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
  int n, c, hh, ww;
  CHECK_DNN(cudnnGetConvolution2dForwardOutputDim(conv, xdesc, wdesc, &n, &c, &hh, &ww));
  if (n != N || c != K || hh != H || ww != W) { printf("FAIL output dims %d %d %d %d\n", n, c, hh, ww); lib_fail(); }

  /* bias gradient: db = 0.5 * sum + 2 * db */
  float alpha = 0.5f, beta = 2.0f;
  std::vector<double> want(K);
  for (int k = 0; k < K; k++) {
    double s = 0;
    for (int i = 0; i < N; i++)
      for (int p = 0; p < H * W; p++) s += y.v[(size_t)(i * K + k) * H * W + p];
    want[k] = alpha * s + beta * b.v[k];
  }
  CHECK_DNN(cudnnConvolutionBackwardBias(h, &alpha, ydesc, y.d, &beta, bdesc, b.d));
  dnn_compare("backward bias", b.down("backward bias"), want, 3e-5 * sqrt((double)(N * H * W)));
  b.fill();

  /* y = relu(1.5 conv(x, w) + 0.5 z + bias), z = y (in place) */
  std::vector<double> fy(y.count, 0), dx(x.count, 0), dw(w.count, 0);
  Case cc = {"bias-act", CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW, 0, 2, N, C, K,
             {H, W}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, 1, CUDNN_CROSS_CORRELATION, CUDNN_FMA_MATH, 1, 0};
  reference(cc, xd, wd, yd, x.v, w.v, y.v, fy, dx, dw);
  float a1 = 1.5f, a2 = 0.5f;
  want.assign(y.count, 0);
  for (size_t i = 0; i < y.count; i++) {
    double v = a1 * fy[i] + a2 * y.v[i] + b.v[(i / (H * W)) % K];
    want[i] = v > 0 ? v : 0;
  }
  CHECK_DNN(cudnnConvolutionBiasActivationForward(h, &a1, xdesc, x.d, wdesc, w.d, conv,
                                                  CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, NULL, 0, &a2, ydesc,
                                                  y.d, bdesc, b.d, act, ydesc, y.d));
  dnn_compare("bias activation", y.down("bias activation"), want, 3e-5 * sqrt(27.0));

  /* FindEx runs and reports a usable algorithm with a time */
  cudnnConvolutionFwdAlgoPerf_t perf[8];
  int nf = 0;
  CHECK_DNN(cudnnFindConvolutionForwardAlgorithmEx(h, xdesc, x.d, wdesc, w.d, conv, ydesc, y.d, 8, &nf, perf, NULL, 0));
  if (nf < 1 || perf[0].status != CUDNN_STATUS_SUCCESS || !(perf[0].time >= 0)) {
    printf("FAIL FindEx: %d results, first status %d time %g\n", nf, nf ? (int)perf[0].status : -1,
           nf ? perf[0].time : 0.0);
    lib_fail();
  }
  int maxc = 0;
  CHECK_DNN(cudnnGetConvolutionForwardAlgorithmMaxCount(h, &maxc));
  /* 10 on cuDNN 9.14 (the H200), above CUDNN_CONVOLUTION_FWD_ALGO_COUNT (8) */
  if (maxc != 10) { printf("FAIL max count %d\n", maxc); lib_fail(); }
  CHECK_DNN(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(h, &maxc));
  CHECK_DNN(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(h, &maxc));

  /* descriptors read back */
  int ph, pw, u, v, dh, dwl;
  cudnnConvolutionMode_t mode;
  cudnnDataType_t ct;
  CHECK_DNN(cudnnGetConvolution2dDescriptor(conv, &ph, &pw, &u, &v, &dh, &dwl, &mode, &ct));
  cudnnMathType_t math;
  CHECK_DNN(cudnnGetConvolutionMathType(conv, &math));
  int groups;
  CHECK_DNN(cudnnGetConvolutionGroupCount(conv, &groups));
  cudnnDataType_t dt;
  int k4, c4, h4, w4, sn, sc, sh, sw;
  cudnnTensorFormat_t fmt;
  CHECK_DNN(cudnnGetFilter4dDescriptor(wdesc, &dt, &fmt, &k4, &c4, &h4, &w4));
  CHECK_DNN(cudnnGetTensor4dDescriptor(ydesc, &dt, &n, &c, &hh, &ww, &sn, &sc, &sh, &sw));
  size_t bytes = 0;
  CHECK_DNN(cudnnGetTensorSizeInBytes(ydesc, &bytes));
  if (ph != 1 || u != 1 || dh != 1 || mode != CUDNN_CROSS_CORRELATION || math != CUDNN_FMA_MATH || groups != 1 ||
      k4 != K || sc != H * W || sw != 1 || bytes != (size_t)N * K * H * W * 4) {
    printf("FAIL descriptors read back wrong\n");
    lib_fail();
  }
  cudnnDestroyActivationDescriptor(act);
  cudnnDestroyConvolutionDescriptor(conv);
  cudnnDestroyFilterDescriptor(wdesc);
  cudnnDestroyTensorDescriptor(bdesc);
  cudnnDestroyTensorDescriptor(ydesc);
  cudnnDestroyTensorDescriptor(xdesc);
  printf("ok bias, bias-activation, queries\n");
}

int main() {
  cudnnHandle_t h;
  CHECK_DNN(cudnnCreate(&h));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK_DNN(cudnnSetStream(h, s));
  cudaStream_t got;
  CHECK_DNN(cudnnGetStream(h, &got));
  if (got != s) { printf("FAIL cudnnGetStream\n"); lib_fail(); }
  fprintf(stderr, "cuDNN %zu, cudart %zu\n", cudnnGetVersion(), cudnnGetCudartVersion());
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(h, cases[i]);
  run_bias(h);
  CHECK(cudaStreamSynchronize(s));
  CHECK_DNN(cudnnDestroy(h));
  CHECK(cudaStreamDestroy(s));
  printf("PASS cudnn_conv\n");
  return 0;
}
