/* cudnn_queries.cu: the rest of cuDNN's legacy surface a program touches
 * around its computing calls -- versions and properties, callbacks, the
 * last error and runtime-error queries, descriptors set and read back
 * (tensor Nd/Ex, filter Nd, convolution Nd and reorder, activation and
 * swish beta, LRN, OpTensor, pooling 2-D and N-D with its output dims),
 * the Find algorithm searches of the three directions, then computing
 * calls not covered elsewhere: 3-D average pooling, LRN backward (against
 * the analytic gradient in double) and the batch norm Ex forms (against the
 * plain forms on the same inputs, with their workspace and reserve sizes).
 *
 * Build: nvcc -Itests/lib tests/lib/cudnn_queries.cu -o cudnn_queries -lcudnn
 */
#include "dnn_check.h"

#define REQUIRE(cond)                                                                                      \
  do {                                                                                                     \
    if (!(cond)) {                                                                                         \
      printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);                                               \
      exit(1);                                                                                             \
    }                                                                                                      \
  } while (0)

static int callback_calls;
static void on_message(cudnnSeverity_t, void *udata, const cudnnDebug_t *, const char *msg) {
  if (udata == &callback_calls) callback_calls++;
  fprintf(stderr, "cuDNN callback: %s\n", msg ? msg : "");
}

static void test_versions_and_errors(cudnnHandle_t h) {
  int major = -1, minor = -1, patch = -1;
  CHECK_DNN(cudnnGetProperty(MAJOR_VERSION, &major));
  CHECK_DNN(cudnnGetProperty(MINOR_VERSION, &minor));
  CHECK_DNN(cudnnGetProperty(PATCH_LEVEL, &patch));
  REQUIRE(major == CUDNN_MAJOR && minor >= 0 && patch >= 0);
  REQUIRE(cudnnGetVersion() / 10000 == (size_t)CUDNN_MAJOR);
  CHECK_DNN(cudnnGraphVersionCheck());
  CHECK_DNN(cudnnOpsVersionCheck());
  CHECK_DNN(cudnnCnnVersionCheck());
  CHECK_DNN(cudnnAdvVersionCheck());

  /* a callback set is the callback read back */
  unsigned mask = 0;
  void *udata = NULL;
  cudnnCallback_t fptr = NULL;
  CHECK_DNN(cudnnSetCallback(CUDNN_SEV_ERROR_EN, &callback_calls, on_message));
  CHECK_DNN(cudnnGetCallback(&mask, &udata, &fptr));
  REQUIRE(mask == CUDNN_SEV_ERROR_EN && udata == &callback_calls && fptr == on_message);
  CHECK_DNN(cudnnSetCallback(0, NULL, NULL));

  /* a failing call leaves a terminated message; the handle has no runtime error */
  cudnnTensorDescriptor_t t;
  CHECK_DNN(cudnnCreateTensorDescriptor(&t));
  REQUIRE(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 0, 1, 1, 1) == CUDNN_STATUS_BAD_PARAM);
  char msg[256];
  memset(msg, 'x', sizeof msg);
  cudnnGetLastErrorString(msg, sizeof msg);
  REQUIRE(memchr(msg, 0, sizeof msg) != NULL);
  fprintf(stderr, "last error: %s\n", msg);
  cudnnDestroyTensorDescriptor(t);
  cudnnStatus_t rs = CUDNN_STATUS_INTERNAL_ERROR;
  CHECK_DNN(cudnnQueryRuntimeError(h, &rs, CUDNN_ERRQUERY_BLOCKING, NULL));
  REQUIRE(rs == CUDNN_STATUS_SUCCESS);
  printf("ok versions, callbacks, errors\n");
}

static void test_descriptors() {
  /* tensor: Nd Ex (NHWC) read back as dims and packed NHWC strides */
  cudnnTensorDescriptor_t t;
  CHECK_DNN(cudnnCreateTensorDescriptor(&t));
  int dims[4] = {2, 3, 4, 5}, want_s[4];
  dnn_packed(4, dims, CUDNN_TENSOR_NHWC, want_s);
  CHECK_DNN(cudnnSetTensorNdDescriptorEx(t, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 4, dims));
  cudnnDataType_t dt;
  int nb = 0, gd[8], gs[8];
  CHECK_DNN(cudnnGetTensorNdDescriptor(t, 8, &dt, &nb, gd, gs));
  REQUIRE(dt == CUDNN_DATA_FLOAT && nb == 4);
  for (int i = 0; i < 4; i++) REQUIRE(gd[i] == dims[i] && gs[i] == want_s[i]);
  cudnnDestroyTensorDescriptor(t);

  /* filter Nd and its size */
  cudnnFilterDescriptor_t w;
  CHECK_DNN(cudnnCreateFilterDescriptor(&w));
  int fd[5] = {8, 3, 2, 3, 3};
  CHECK_DNN(cudnnSetFilterNdDescriptor(w, CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW, 5, fd));
  cudnnTensorFormat_t fmt;
  CHECK_DNN(cudnnGetFilterNdDescriptor(w, 8, &dt, &fmt, &nb, gd));
  REQUIRE(dt == CUDNN_DATA_HALF && fmt == CUDNN_TENSOR_NCHW && nb == 5);
  for (int i = 0; i < 5; i++) REQUIRE(gd[i] == fd[i]);
  size_t bytes = 0;
  CHECK_DNN(cudnnGetFilterSizeInBytes(w, &bytes));
  REQUIRE(bytes == (size_t)8 * 3 * 2 * 3 * 3 * 2);
  cudnnDestroyFilterDescriptor(w);

  /* convolution Nd and the reorder type */
  cudnnConvolutionDescriptor_t c;
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&c));
  int pad[3] = {1, 0, 2}, str[3] = {1, 2, 1}, dil[3] = {1, 1, 2};
  CHECK_DNN(cudnnSetConvolutionNdDescriptor(c, 3, pad, str, dil, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT));
  int gp[3], gst[3], gdl[3];
  cudnnConvolutionMode_t mode;
  CHECK_DNN(cudnnGetConvolutionNdDescriptor(c, 3, &nb, gp, gst, gdl, &mode, &dt));
  REQUIRE(nb == 3 && mode == CUDNN_CONVOLUTION && dt == CUDNN_DATA_FLOAT);
  for (int i = 0; i < 3; i++) REQUIRE(gp[i] == pad[i] && gst[i] == str[i] && gdl[i] == dil[i]);
  cudnnReorderType_t ro;
  CHECK_DNN(cudnnSetConvolutionReorderType(c, CUDNN_NO_REORDER));
  CHECK_DNN(cudnnGetConvolutionReorderType(c, &ro));
  REQUIRE(ro == CUDNN_NO_REORDER);
  cudnnDestroyConvolutionDescriptor(c);

  /* activation and swish beta */
  cudnnActivationDescriptor_t a;
  CHECK_DNN(cudnnCreateActivationDescriptor(&a));
  CHECK_DNN(cudnnSetActivationDescriptor(a, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, 6.0));
  cudnnActivationMode_t am;
  cudnnNanPropagation_t nan;
  double coef = 0, sb = 0;
  CHECK_DNN(cudnnGetActivationDescriptor(a, &am, &nan, &coef));
  REQUIRE(am == CUDNN_ACTIVATION_CLIPPED_RELU && nan == CUDNN_PROPAGATE_NAN && coef == 6.0);
  CHECK_DNN(cudnnSetActivationDescriptorSwishBeta(a, 1.5));
  CHECK_DNN(cudnnGetActivationDescriptorSwishBeta(a, &sb));
  REQUIRE(sb == 1.5);
  cudnnDestroyActivationDescriptor(a);

  /* LRN */
  cudnnLRNDescriptor_t l;
  CHECK_DNN(cudnnCreateLRNDescriptor(&l));
  CHECK_DNN(cudnnSetLRNDescriptor(l, 7, 2e-3, 0.6, 1.5));
  unsigned ln = 0;
  double la = 0, lb = 0, lk = 0;
  CHECK_DNN(cudnnGetLRNDescriptor(l, &ln, &la, &lb, &lk));
  REQUIRE(ln == 7 && fabs(la - 2e-3) < 1e-9 && fabs(lb - 0.6) < 1e-6 && fabs(lk - 1.5) < 1e-6);
  cudnnDestroyLRNDescriptor(l);

  /* OpTensor */
  cudnnOpTensorDescriptor_t op;
  CHECK_DNN(cudnnCreateOpTensorDescriptor(&op));
  CHECK_DNN(cudnnSetOpTensorDescriptor(op, CUDNN_OP_TENSOR_MUL, CUDNN_DATA_FLOAT, CUDNN_PROPAGATE_NAN));
  cudnnOpTensorOp_t oo;
  CHECK_DNN(cudnnGetOpTensorDescriptor(op, &oo, &dt, &nan));
  REQUIRE(oo == CUDNN_OP_TENSOR_MUL && dt == CUDNN_DATA_FLOAT && nan == CUDNN_PROPAGATE_NAN);
  cudnnDestroyOpTensorDescriptor(op);

  /* pooling 2-D */
  cudnnPoolingDescriptor_t p;
  CHECK_DNN(cudnnCreatePoolingDescriptor(&p));
  CHECK_DNN(cudnnSetPooling2dDescriptor(p, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, 2, 1, 0, 2, 1));
  cudnnPoolingMode_t pm;
  int wh, ww, ph, pw, sh, sw;
  CHECK_DNN(cudnnGetPooling2dDescriptor(p, &pm, &nan, &wh, &ww, &ph, &pw, &sh, &sw));
  REQUIRE(pm == CUDNN_POOLING_MAX && nan == CUDNN_NOT_PROPAGATE_NAN && wh == 3 && ww == 2 && ph == 1 && pw == 0 &&
          sh == 2 && sw == 1);
  cudnnDestroyPoolingDescriptor(p);
  printf("ok descriptors\n");
}

/* 3-D average pooling 2x2x2 / 2 through the N-D descriptor. */
static void test_pooling_nd(cudnnHandle_t h) {
  cudnnPoolingDescriptor_t p;
  CHECK_DNN(cudnnCreatePoolingDescriptor(&p));
  int win[3] = {2, 2, 2}, pad[3] = {0, 0, 0}, str[3] = {2, 2, 2};
  CHECK_DNN(cudnnSetPoolingNdDescriptor(p, CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, CUDNN_NOT_PROPAGATE_NAN, 3,
                                        win, pad, str));
  cudnnPoolingMode_t pm;
  cudnnNanPropagation_t nan;
  int nb = 0, gw[3], gp[3], gs[3];
  CHECK_DNN(cudnnGetPoolingNdDescriptor(p, 3, &pm, &nan, &nb, gw, gp, gs));
  REQUIRE(pm == CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING && nb == 3);
  for (int i = 0; i < 3; i++) REQUIRE(gw[i] == 2 && gp[i] == 0 && gs[i] == 2);
  int xd[5] = {1, 2, 4, 6, 8}, xs[5], out[5];
  dnn_packed(5, xd, CUDNN_TENSOR_NCHW, xs);
  HT x(CUDNN_DATA_FLOAT, 5, xd, xs);
  cudnnTensorDescriptor_t xdesc, ydesc;
  CHECK_DNN(cudnnCreateTensorDescriptor(&xdesc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&ydesc));
  CHECK_DNN(cudnnSetTensorNdDescriptor(xdesc, CUDNN_DATA_FLOAT, 5, xd, xs));
  CHECK_DNN(cudnnGetPoolingNdForwardOutputDim(p, xdesc, 5, out));
  REQUIRE(out[0] == 1 && out[1] == 2 && out[2] == 2 && out[3] == 3 && out[4] == 4);
  int ys[5];
  dnn_packed(5, out, CUDNN_TENSOR_NCHW, ys);
  HT y(CUDNN_DATA_FLOAT, 5, out, ys);
  CHECK_DNN(cudnnSetTensorNdDescriptor(ydesc, CUDNN_DATA_FLOAT, 5, out, ys));
  x.fill(), y.fill();
  std::vector<double> want(y.count);
  float alpha = 2, beta = 0.5f;
  for (int c = 0; c < 2; c++)
    for (int d = 0; d < 2; d++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) {
          double s = 0;
          for (int a = 0; a < 8; a++)
            s += x.v[(((size_t)c * 4 + 2 * d + (a >> 2)) * 6 + 2 * i + ((a >> 1) & 1)) * 8 + 2 * j + (a & 1)];
          size_t e = (((size_t)c * 2 + d) * 3 + i) * 4 + j;
          want[e] = alpha * s / 8 + beta * y.v[e];
        }
  CHECK_DNN(cudnnPoolingForward(h, p, &alpha, xdesc, x.d, &beta, ydesc, y.d));
  dnn_compare("pooling 3-D average", y.down("pooling 3-D average"), want, 1e-5);
  cudnnDestroyTensorDescriptor(ydesc);
  cudnnDestroyTensorDescriptor(xdesc);
  cudnnDestroyPoolingDescriptor(p);
  printf("ok pooling N-D\n");
}

/* The three Find searches put a working algorithm first; the Ex forms
 * (which run on the caller's buffers) with its measured time. */
static void test_find(cudnnHandle_t h) {
  const int N = 2, C = 3, K = 4, H = 6, W = 6;
  int xd[4] = {N, C, H, W}, wd[4] = {K, C, 3, 3}, yd[4] = {N, K, H, W}, xs[4], ws[4], ys[4];
  dnn_packed(4, xd, CUDNN_TENSOR_NCHW, xs);
  dnn_packed(4, wd, CUDNN_TENSOR_NCHW, ws);
  dnn_packed(4, yd, CUDNN_TENSOR_NCHW, ys);
  HT x(CUDNN_DATA_FLOAT, 4, xd, xs), w(CUDNN_DATA_FLOAT, 4, wd, ws), y(CUDNN_DATA_FLOAT, 4, yd, ys);
  x.fill(), w.fill(), y.fill();
  cudnnTensorDescriptor_t xdesc, ydesc;
  cudnnFilterDescriptor_t wdesc;
  cudnnConvolutionDescriptor_t c;
  CHECK_DNN(cudnnCreateTensorDescriptor(&xdesc));
  CHECK_DNN(cudnnCreateTensorDescriptor(&ydesc));
  CHECK_DNN(cudnnCreateFilterDescriptor(&wdesc));
  CHECK_DNN(cudnnCreateConvolutionDescriptor(&c));
  CHECK_DNN(cudnnSetTensor4dDescriptor(xdesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CHECK_DNN(cudnnSetTensor4dDescriptor(ydesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, K, H, W));
  CHECK_DNN(cudnnSetFilter4dDescriptor(wdesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, C, 3, 3));
  CHECK_DNN(cudnnSetConvolution2dDescriptor(c, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  int n = 0;
  cudnnConvolutionFwdAlgoPerf_t fp[8];
  CHECK_DNN(cudnnFindConvolutionForwardAlgorithm(h, xdesc, wdesc, c, ydesc, 8, &n, fp));
  REQUIRE(n >= 1 && fp[0].status == CUDNN_STATUS_SUCCESS);
  cudnnConvolutionBwdDataAlgoPerf_t dp[8];
  CHECK_DNN(cudnnFindConvolutionBackwardDataAlgorithm(h, wdesc, ydesc, c, xdesc, 8, &n, dp));
  REQUIRE(n >= 1 && dp[0].status == CUDNN_STATUS_SUCCESS);
  CHECK_DNN(cudnnFindConvolutionBackwardDataAlgorithmEx(h, wdesc, w.d, ydesc, y.d, c, xdesc, x.d, 8, &n, dp, NULL, 0));
  REQUIRE(n >= 1 && dp[0].status == CUDNN_STATUS_SUCCESS && dp[0].time >= 0);
  cudnnConvolutionBwdFilterAlgoPerf_t wp[8];
  CHECK_DNN(cudnnFindConvolutionBackwardFilterAlgorithm(h, xdesc, ydesc, c, wdesc, 8, &n, wp));
  REQUIRE(n >= 1 && wp[0].status == CUDNN_STATUS_SUCCESS);
  CHECK_DNN(
      cudnnFindConvolutionBackwardFilterAlgorithmEx(h, xdesc, x.d, ydesc, y.d, c, wdesc, w.d, 8, &n, wp, NULL, 0));
  REQUIRE(n >= 1 && wp[0].status == CUDNN_STATUS_SUCCESS && wp[0].time >= 0);
  cudnnDestroyConvolutionDescriptor(c);
  cudnnDestroyFilterDescriptor(wdesc);
  cudnnDestroyTensorDescriptor(ydesc);
  cudnnDestroyTensorDescriptor(xdesc);
  printf("ok find\n");
}

/* LRN backward against the analytic gradient of y = x (k + alpha/n sum x^2)^-beta. */
static void test_lrn_backward(cudnnHandle_t h) {
  const int N = 2, C = 6, HW = 12, n5 = 5;
  const double la = 0.05, lb = 0.75, lk = 2.0;
  int d[4] = {N, C, 3, 4}, s[4];
  dnn_packed(4, d, CUDNN_TENSOR_NCHW, s);
  HT x(CUDNN_DATA_FLOAT, 4, d, s), y(CUDNN_DATA_FLOAT, 4, d, s), dy(CUDNN_DATA_FLOAT, 4, d, s),
      dx(CUDNN_DATA_FLOAT, 4, d, s);
  x.fill(2), dy.fill(), dx.fill();
  cudnnTensorDescriptor_t t;
  CHECK_DNN(cudnnCreateTensorDescriptor(&t));
  CHECK_DNN(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, 3, 4));
  cudnnLRNDescriptor_t l;
  CHECK_DNN(cudnnCreateLRNDescriptor(&l));
  CHECK_DNN(cudnnSetLRNDescriptor(l, n5, la, lb, lk));
  float one = 1, zero = 0, alpha = 0.5f, beta = 0.25f;
  CHECK_DNN(cudnnLRNCrossChannelForward(h, l, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, t, x.d, &zero, t, y.d));
  std::vector<double> yv = y.down("lrn y"), sc(x.count), want(x.count);
  for (int b = 0; b < N; b++)
    for (int c = 0; c < C; c++)
      for (int p = 0; p < HW; p++) {
        double q = 0;
        for (int j = c - 2; j <= c + 2; j++)
          if (j >= 0 && j < C) q += x.v[((size_t)b * C + j) * HW + p] * x.v[((size_t)b * C + j) * HW + p];
        sc[((size_t)b * C + c) * HW + p] = lk + la / n5 * q;
      }
  for (int b = 0; b < N; b++)
    for (int c = 0; c < C; c++)
      for (int p = 0; p < HW; p++) {
        size_t e = ((size_t)b * C + c) * HW + p;
        double sum = 0;
        for (int j = c - 2; j <= c + 2; j++)
          if (j >= 0 && j < C) {
            size_t f = ((size_t)b * C + j) * HW + p;
            sum += dy.v[f] * x.v[f] * pow(sc[f], -lb - 1);
          }
        double g = dy.v[e] * pow(sc[e], -lb) - 2 * la * lb / n5 * x.v[e] * sum;
        want[e] = alpha * g + beta * dx.v[e];
      }
  CHECK_DNN(cudnnLRNCrossChannelBackward(h, l, CUDNN_LRN_CROSS_CHANNEL_DIM1, &alpha, t, y.d, t, dy.d, t, x.d, &beta, t,
                                         dx.d));
  dnn_compare("lrn backward", dx.down("lrn backward"), want, 1e-4);
  cudnnDestroyLRNDescriptor(l);
  cudnnDestroyTensorDescriptor(t);
  printf("ok lrn backward\n");
}

/* The Ex forms (ops BN, no activation) against the plain forms. */
static void test_batchnorm_ex(cudnnHandle_t h) {
  const int N = 2, C = 4, H = 5, W = 5;
  int d[4] = {N, C, H, W}, pd[4] = {1, C, 1, 1}, s[4], ps[4];
  dnn_packed(4, d, CUDNN_TENSOR_NCHW, s);
  dnn_packed(4, pd, CUDNN_TENSOR_NCHW, ps);
  HT x(CUDNN_DATA_FLOAT, 4, d, s), y1(CUDNN_DATA_FLOAT, 4, d, s), y2(CUDNN_DATA_FLOAT, 4, d, s);
  HT dy(CUDNN_DATA_FLOAT, 4, d, s), dx1(CUDNN_DATA_FLOAT, 4, d, s), dx2(CUDNN_DATA_FLOAT, 4, d, s);
  HT scale(CUDNN_DATA_FLOAT, 4, pd, ps), bias(CUDNN_DATA_FLOAT, 4, pd, ps);
  HT m1(CUDNN_DATA_FLOAT, 4, pd, ps), v1(CUDNN_DATA_FLOAT, 4, pd, ps), m2(CUDNN_DATA_FLOAT, 4, pd, ps),
      v2(CUDNN_DATA_FLOAT, 4, pd, ps);
  HT sm1(CUDNN_DATA_FLOAT, 4, pd, ps), si1(CUDNN_DATA_FLOAT, 4, pd, ps), sm2(CUDNN_DATA_FLOAT, 4, pd, ps),
      si2(CUDNN_DATA_FLOAT, 4, pd, ps);
  HT ds1(CUDNN_DATA_FLOAT, 4, pd, ps), db1(CUDNN_DATA_FLOAT, 4, pd, ps), ds2(CUDNN_DATA_FLOAT, 4, pd, ps),
      db2(CUDNN_DATA_FLOAT, 4, pd, ps);
  x.fill(2), dy.fill(), scale.fill(), bias.fill();
  /* zero running mean and variance 1 in both copies */
  std::vector<HT *> zeros = {&m1, &m2, &y1, &y2, &dx1, &dx2};
  for (HT *t : zeros) {
    memset(t->bytes.data(), 0, t->bytes.size());
    t->v.assign(t->count, 0);
    t->up();
  }
  for (HT *t : {&v1, &v2}) {
    for (size_t e = 0; e < t->count; e++) dnn_store(CUDNN_DATA_FLOAT, &t->bytes[e * 4], 1.0);
    t->up();
  }
  cudnnTensorDescriptor_t td, pdsc;
  CHECK_DNN(cudnnCreateTensorDescriptor(&td));
  CHECK_DNN(cudnnCreateTensorDescriptor(&pdsc));
  CHECK_DNN(cudnnSetTensor4dDescriptor(td, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, N, C, H, W));
  CHECK_DNN(cudnnSetTensor4dDescriptor(pdsc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, C, 1, 1));
  const cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
  const cudnnBatchNormOps_t ops = CUDNN_BATCHNORM_OPS_BN;
  size_t fws = 0, bws = 0, rs = 0;
  CHECK_DNN(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(h, mode, ops, td, NULL, td, pdsc, NULL, &fws));
  CHECK_DNN(cudnnGetBatchNormalizationBackwardExWorkspaceSize(h, mode, ops, td, td, td, NULL, td, pdsc, NULL, &bws));
  CHECK_DNN(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(h, mode, ops, NULL, td, &rs));
  void *fw = NULL, *bw = NULL, *res = NULL;
  if (fws) CHECK(cudaMalloc(&fw, fws));
  if (bws) CHECK(cudaMalloc(&bw, bws));
  if (rs) CHECK(cudaMalloc(&res, rs));
  float one = 1, zero = 0;
  const double eps = 1e-5, f = 0.2;
  CHECK_DNN(cudnnBatchNormalizationForwardTraining(h, mode, &one, &zero, td, x.d, td, y1.d, pdsc, scale.d, bias.d, f,
                                                   m1.d, v1.d, eps, sm1.d, si1.d));
  CHECK_DNN(cudnnBatchNormalizationForwardTrainingEx(h, mode, ops, &one, &zero, td, x.d, NULL, NULL, td, y2.d, pdsc,
                                                     scale.d, bias.d, f, m2.d, v2.d, eps, sm2.d, si2.d, NULL, fw, fws,
                                                     res, rs));
  dnn_compare("batchnorm Ex y", y2.down("batchnorm Ex y"), y1.down("y"), 1e-5);
  dnn_compare("batchnorm Ex running mean", m2.down("m2"), m1.down("m1"), 1e-5);
  dnn_compare("batchnorm Ex running variance", v2.down("v2"), v1.down("v1"), 1e-5);
  dnn_compare("batchnorm Ex saved mean", sm2.down("sm2"), sm1.down("sm1"), 1e-5);
  dnn_compare("batchnorm Ex saved inverse variance", si2.down("si2"), si1.down("si1"), 1e-5);
  CHECK_DNN(cudnnBatchNormalizationBackward(h, mode, &one, &zero, &one, &zero, td, x.d, td, dy.d, td, dx1.d, pdsc,
                                            scale.d, ds1.d, db1.d, eps, sm1.d, si1.d));
  CHECK_DNN(cudnnBatchNormalizationBackwardEx(h, mode, ops, &one, &zero, &one, &zero, td, x.d, td, y2.d, td, dy.d, NULL,
                                              NULL, td, dx2.d, pdsc, scale.d, bias.d, ds2.d, db2.d, eps, sm2.d, si2.d,
                                              NULL, bw, bws, res, rs));
  dnn_compare("batchnorm Ex dx", dx2.down("dx2"), dx1.down("dx1"), 1e-5);
  dnn_compare("batchnorm Ex dscale", ds2.down("ds2"), ds1.down("ds1"), 1e-5);
  dnn_compare("batchnorm Ex dbias", db2.down("db2"), db1.down("db1"), 1e-5);
  cudaFree(fw), cudaFree(bw), cudaFree(res);
  cudnnDestroyTensorDescriptor(pdsc);
  cudnnDestroyTensorDescriptor(td);
  printf("ok batchnorm Ex\n");
}

int main() {
  cudnnHandle_t h;
  CHECK_DNN(cudnnCreate(&h));
  fprintf(stderr, "cuDNN %zu\n", cudnnGetVersion());
  test_versions_and_errors(h);
  test_descriptors();
  test_pooling_nd(h);
  test_find(h);
  test_lrn_backward(h);
  test_batchnorm_ex(h);
  CHECK(cudaDeviceSynchronize());
  CHECK_DNN(cudnnDestroy(h));
  printf("PASS cudnn_queries\n");
  return 0;
}
