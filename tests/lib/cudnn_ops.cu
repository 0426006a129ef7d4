/* cudnn_ops.cu: cuDNN's legacy non-convolution calls against host
 * computations in double, from cuDNN's documented definitions:
 * activations forward and backward (ReLU, sigmoid, tanh, clipped ReLU,
 * ELU), softmax forward and backward (accurate and log, channel and
 * instance modes), pooling forward and backward (max, average including and
 * excluding padding, with padding and overlapping windows), LRN across
 * channels (forward), batch norm (spatial training with running averages
 * and saved statistics, inference, backward), AddTensor with a broadcast
 * bias, OpTensor (add, mul, max with broadcast B; sqrt), SetTensor,
 * ScaleTensor and TransformTensor (NCHW to NHWC). alpha and beta other than
 * 1 and 0 where the call takes them.
 * Tolerances (float data, |got - want| <= tol (1 + |want|)): 2e-5 for
 * elementwise calls, 1e-4 for the ones that sum (softmax, pooling
 * averages, LRN, batch norm).
 *
 * Build: nvcc -Itests/lib tests/lib/cudnn_ops.cu -o cudnn_ops -lcudnn
 */
#include "dnn_check.h"

enum { N = 2, C = 5, H = 6, W = 6 };
static const int D4[4] = {N, C, H, W};

struct T4 {   /* a packed float tensor of dims d (NCHW or NHWC) with its descriptor */
  int s_[4];    /* before h: filled for h's constructor */
  HT h;
  cudnnTensorDescriptor_t desc;
  T4(const int *d, cudnnTensorFormat_t f = CUDNN_TENSOR_NCHW) : h(CUDNN_DATA_FLOAT, 4, d, packed(d, f)) {
    CHECK_DNN(cudnnCreateTensorDescriptor(&desc));
    CHECK_DNN(cudnnSetTensor4dDescriptor(desc, f, CUDNN_DATA_FLOAT, d[0], d[1], d[2], d[3]));
  }
  ~T4() { cudnnDestroyTensorDescriptor(desc); }
  const int *packed(const int *d, cudnnTensorFormat_t f) { dnn_packed(4, d, f, s_); return s_; }
  size_t idx(int n, int c, int y, int x) const {
    return (((size_t)n * h.dim[1] + c) * h.dim[2] + y) * h.dim[3] + x;
  }
};

static const float ONE = 1, ZERO = 0;

/* Sets element e of t to f(e) as the device holds it (rounded to t's type). */
template <class F> static void set_values(HT &t, F f) {
  for (size_t e = 0; e < t.count; e++) {
    unsigned char *p = &t.bytes[t.off(e) * dnn_type_size(t.type)];
    dnn_store(t.type, p, f(e));
    t.v[e] = dnn_load(t.type, p);
  }
  t.up();
}
/* Random values off the k/64 grid of dnn_rnd: never 0 nor a clipping
 * bound, where derivatives are ambiguous. */
static void fill_offgrid(HT &t, double scale) {
  set_values(t, [scale](size_t) { return dnn_rnd() * scale + 1.0 / 300; });
}
/* Distinct values (a permutation of e / count - 0.5): no ties for max. */
static void fill_distinct(HT &t) {
  set_values(t, [&t](size_t e) { return (double)((e * 37) % t.count) / (double)t.count - 0.5; });
}

/* ---- activations -------------------------------------------------------------- */

static double act_f(cudnnActivationMode_t m, double x, double coef) {
  switch (m) {
  case CUDNN_ACTIVATION_RELU: return x > 0 ? x : 0;
  case CUDNN_ACTIVATION_SIGMOID: return 1 / (1 + exp(-x));
  case CUDNN_ACTIVATION_TANH: return tanh(x);
  case CUDNN_ACTIVATION_CLIPPED_RELU: return x <= 0 ? 0 : x < coef ? x : coef;
  default: return x > 0 ? x : coef * (exp(x) - 1);   /* ELU */
  }
}
static double act_df(cudnnActivationMode_t m, double x, double y, double coef) {
  switch (m) {
  case CUDNN_ACTIVATION_RELU: return x > 0;
  case CUDNN_ACTIVATION_SIGMOID: return y * (1 - y);
  case CUDNN_ACTIVATION_TANH: return 1 - y * y;
  case CUDNN_ACTIVATION_CLIPPED_RELU: return x > 0 && x < coef;
  default: return x > 0 ? 1 : y + coef;   /* ELU */
  }
}

static void test_activations(cudnnHandle_t h) {
  const cudnnActivationMode_t modes[] = {CUDNN_ACTIVATION_RELU, CUDNN_ACTIVATION_SIGMOID, CUDNN_ACTIVATION_TANH,
                                         CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_ACTIVATION_ELU};
  const char *names[] = {"relu", "sigmoid", "tanh", "clipped-relu", "elu"};
  const double coef[] = {0, 0, 0, 0.45, 0.7};
  cudnnActivationDescriptor_t a;
  CHECK_DNN(cudnnCreateActivationDescriptor(&a));
  for (int m = 0; m < 5; m++) {
    CHECK_DNN(cudnnSetActivationDescriptor(a, modes[m], CUDNN_NOT_PROPAGATE_NAN, coef[m]));
    T4 x(D4), y(D4), dy(D4), dx(D4);
    fill_offgrid(x.h, 2), y.h.fill(), dy.h.fill(), dx.h.fill();
    float alpha = 0.75f, beta = m == 0 ? 0.0f : 0.5f;
    char what[64];
    std::vector<double> fy(x.h.count), want(x.h.count);
    for (size_t i = 0; i < x.h.count; i++) {
      fy[i] = act_f(modes[m], x.h.v[i], coef[m]);
      want[i] = alpha * fy[i] + beta * y.h.v[i];
    }
    CHECK_DNN(cudnnActivationForward(h, a, &alpha, x.desc, x.h.d, &beta, y.desc, y.h.d));
    snprintf(what, sizeof what, "activation %s forward", names[m]);
    dnn_compare(what, y.h.down(what), want, 2e-5);
    /* backward with y = f(x) as the library computes it */
    CHECK_DNN(cudnnActivationForward(h, a, &ONE, x.desc, x.h.d, &ZERO, y.desc, y.h.d));
    std::vector<double> yv = y.h.down(what);
    for (size_t i = 0; i < x.h.count; i++)
      want[i] = alpha * dy.h.v[i] * act_df(modes[m], x.h.v[i], yv[i], coef[m]) + beta * dx.h.v[i];
    CHECK_DNN(
        cudnnActivationBackward(h, a, &alpha, y.desc, y.h.d, dy.desc, dy.h.d, x.desc, x.h.d, &beta, dx.desc, dx.h.d));
    snprintf(what, sizeof what, "activation %s backward", names[m]);
    dnn_compare(what, dx.h.down(what), want, 2e-5);
  }
  cudnnDestroyActivationDescriptor(a);
  printf("ok activations\n");
}

/* ---- softmax ----------------------------------------------------------------------- */

static void test_softmax(cudnnHandle_t h) {
  for (int log_mode = 0; log_mode < 2; log_mode++)
    for (int inst = 0; inst < 2; inst++) {
      cudnnSoftmaxAlgorithm_t algo = log_mode ? CUDNN_SOFTMAX_LOG : CUDNN_SOFTMAX_ACCURATE;
      cudnnSoftmaxMode_t mode = inst ? CUDNN_SOFTMAX_MODE_INSTANCE : CUDNN_SOFTMAX_MODE_CHANNEL;
      T4 x(D4), y(D4), dy(D4), dx(D4);
      x.h.fill(3), y.h.fill(), dy.h.fill(), dx.h.fill();
      std::vector<double> want(x.h.count), sm(x.h.count);
      /* groups: instance = one image (C*H*W), channel = C at each (n, y, x) */
      for (int n = 0; n < N; n++)
        for (int p = 0; p < (inst ? 1 : H * W); p++) {
          std::vector<size_t> g;
          for (int c = 0; c < C; c++)
            for (int q = 0; q < (inst ? H * W : 1); q++) g.push_back(x.idx(n, c, 0, 0) + (inst ? q : p));
          double mx = -1e300, s = 0;
          for (size_t e : g) mx = fmax(mx, x.h.v[e]);
          for (size_t e : g) s += exp(x.h.v[e] - mx);
          for (size_t e : g) sm[e] = log_mode ? x.h.v[e] - mx - log(s) : exp(x.h.v[e] - mx) / s;
        }
      float alpha = 1.25f, beta = 0.5f;
      for (size_t i = 0; i < x.h.count; i++) want[i] = alpha * sm[i] + beta * y.h.v[i];
      char what[64];
      snprintf(what, sizeof what, "softmax %s %s forward", log_mode ? "log" : "accurate", inst ? "instance" : "channel");
      CHECK_DNN(cudnnSoftmaxForward(h, algo, mode, &alpha, x.desc, x.h.d, &beta, y.desc, y.h.d));
      dnn_compare(what, y.h.down(what), want, 1e-4);
      /* backward from y = softmax(x) exactly as computed in double (uploaded) */
      HT &yh = y.h;
      for (size_t e = 0; e < yh.count; e++) dnn_store(CUDNN_DATA_FLOAT, &yh.bytes[yh.off(e) * 4], sm[e]);
      for (size_t e = 0; e < yh.count; e++) yh.v[e] = dnn_load(CUDNN_DATA_FLOAT, &yh.bytes[yh.off(e) * 4]);
      yh.up();
      for (int n = 0; n < N; n++)
        for (int p = 0; p < (inst ? 1 : H * W); p++) {
          std::vector<size_t> g;
          for (int c = 0; c < C; c++)
            for (int q = 0; q < (inst ? H * W : 1); q++) g.push_back(x.idx(n, c, 0, 0) + (inst ? q : p));
          double s = 0;
          for (size_t e : g) s += log_mode ? dy.h.v[e] : dy.h.v[e] * yh.v[e];
          for (size_t e : g) {
            double r = log_mode ? dy.h.v[e] - exp(yh.v[e]) * s : yh.v[e] * (dy.h.v[e] - s);
            want[e] = alpha * r + beta * dx.h.v[e];
          }
        }
      snprintf(what, sizeof what, "softmax %s %s backward", log_mode ? "log" : "accurate", inst ? "instance" : "channel");
      CHECK_DNN(cudnnSoftmaxBackward(h, algo, mode, &alpha, y.desc, y.h.d, dy.desc, dy.h.d, &beta, dx.desc, dx.h.d));
      dnn_compare(what, dx.h.down(what), want, 1e-4);
    }
  printf("ok softmax\n");
}

/* ---- pooling ------------------------------------------------------------------------ */

static void test_pooling(cudnnHandle_t h) {
  struct P { const char *name; cudnnPoolingMode_t mode; int win, pad, stride; };
  const P cases[] = {
    {"max-2x2-s2", CUDNN_POOLING_MAX, 2, 0, 2},
    {"max-3x3-s2-pad1", CUDNN_POOLING_MAX, 3, 1, 2},
    {"avg-include-3x3-pad1", CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, 3, 1, 1},
    {"avg-exclude-3x3-s2-pad1", CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 3, 1, 2},
  };
  cudnnPoolingDescriptor_t pd;
  CHECK_DNN(cudnnCreatePoolingDescriptor(&pd));
  for (const P &c : cases) {
    CHECK_DNN(cudnnSetPooling2dDescriptor(pd, c.mode, CUDNN_NOT_PROPAGATE_NAN, c.win, c.win, c.pad, c.pad, c.stride,
                                          c.stride));
    int on, oc, oh, ow;
    T4 x(D4), dx(D4);
    CHECK_DNN(cudnnGetPooling2dForwardOutputDim(pd, x.desc, &on, &oc, &oh, &ow));
    int eh = 1 + (H + 2 * c.pad - c.win) / c.stride, ew = 1 + (W + 2 * c.pad - c.win) / c.stride;
    if (on != N || oc != C || oh != eh || ow != ew) {
      printf("FAIL pooling %s: output dims %d %d %d %d\n", c.name, on, oc, oh, ow);
      exit(1);
    }
    int yd[4] = {N, C, oh, ow};
    T4 y(yd), dy(yd);
    fill_distinct(x.h), y.h.fill(), dy.h.fill(), dx.h.fill();
    std::vector<double> fy(y.h.count), want(y.h.count), dxw(x.h.count, 0);
    for (int n = 0; n < N; n++)
      for (int ch = 0; ch < C; ch++)
        for (int i = 0; i < oh; i++)
          for (int j = 0; j < ow; j++) {
            size_t e = y.idx(n, ch, i, j);
            double best = -1e300, sum = 0;
            size_t arg = 0;
            int valid = 0;
            for (int r = 0; r < c.win; r++)
              for (int s = 0; s < c.win; s++) {
                int py = i * c.stride + r - c.pad, px = j * c.stride + s - c.pad;
                if (py < 0 || py >= H || px < 0 || px >= W) continue;
                size_t xe = x.idx(n, ch, py, px);
                valid++;
                sum += x.h.v[xe];
                if (x.h.v[xe] > best) best = x.h.v[xe], arg = xe;
              }
            if (c.mode == CUDNN_POOLING_MAX) {
              fy[e] = best;
              dxw[arg] += dy.h.v[e];
            } else {
              int count = c.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? c.win * c.win : valid;
              fy[e] = sum / count;
              for (int r = 0; r < c.win; r++)
                for (int s = 0; s < c.win; s++) {
                  int py = i * c.stride + r - c.pad, px = j * c.stride + s - c.pad;
                  if (py >= 0 && py < H && px >= 0 && px < W) dxw[x.idx(n, ch, py, px)] += dy.h.v[e] / count;
                }
            }
          }
    float alpha = 0.5f, beta = 0.25f;
    for (size_t e = 0; e < y.h.count; e++) want[e] = alpha * fy[e] + beta * y.h.v[e];
    char what[64];
    snprintf(what, sizeof what, "pooling %s forward", c.name);
    CHECK_DNN(cudnnPoolingForward(h, pd, &alpha, x.desc, x.h.d, &beta, y.desc, y.h.d));
    dnn_compare(what, y.h.down(what), want, 1e-5);
    /* backward needs y = pool(x) */
    CHECK_DNN(cudnnPoolingForward(h, pd, &ONE, x.desc, x.h.d, &ZERO, y.desc, y.h.d));
    want.assign(x.h.count, 0);
    for (size_t e = 0; e < x.h.count; e++) want[e] = alpha * dxw[e] + beta * dx.h.v[e];
    snprintf(what, sizeof what, "pooling %s backward", c.name);
    CHECK_DNN(cudnnPoolingBackward(h, pd, &alpha, y.desc, y.h.d, dy.desc, dy.h.d, x.desc, x.h.d, &beta, dx.desc,
                                   dx.h.d));
    dnn_compare(what, dx.h.down(what), want, 1e-4);
  }
  cudnnDestroyPoolingDescriptor(pd);
  printf("ok pooling\n");
}

/* ---- LRN ------------------------------------------------------------------------------ */

static void test_lrn(cudnnHandle_t h) {
  const unsigned n5 = 5;
  const double la = 1e-2, lb = 0.75, lk = 2.0;
  cudnnLRNDescriptor_t l;
  CHECK_DNN(cudnnCreateLRNDescriptor(&l));
  CHECK_DNN(cudnnSetLRNDescriptor(l, n5, la, lb, lk));
  T4 x(D4), y(D4);
  x.h.fill(3), y.h.fill();
  std::vector<double> want(x.h.count);
  float alpha = 1.5f, beta = 0.5f;
  for (int n = 0; n < N; n++)
    for (int c = 0; c < C; c++)
      for (int p = 0; p < H * W; p++) {
        double s = 0;
        for (int j = c - 2; j <= c + 2; j++)
          if (j >= 0 && j < C) {
            double v = x.h.v[x.idx(n, j, 0, 0) + p];
            s += v * v;
          }
        size_t e = x.idx(n, c, 0, 0) + p;
        want[e] = alpha * x.h.v[e] * pow(lk + la / n5 * s, -lb) + beta * y.h.v[e];
      }
  CHECK_DNN(cudnnLRNCrossChannelForward(h, l, CUDNN_LRN_CROSS_CHANNEL_DIM1, &alpha, x.desc, x.h.d, &beta, y.desc,
                                        y.h.d));
  dnn_compare("lrn forward", y.h.down("lrn forward"), want, 1e-4);
  cudnnDestroyLRNDescriptor(l);
  printf("ok lrn\n");
}

/* ---- batch norm ------------------------------------------------------------------------- */

static void test_batchnorm(cudnnHandle_t h) {
  int pd[4] = {1, C, 1, 1};
  T4 x(D4), y(D4), dy(D4), dx(D4);
  T4 scale(pd), bias(pd), rmean(pd), rvar(pd), smean(pd), sinv(pd), dscale(pd), dbias(pd);
  x.h.fill(2), y.h.fill(), dy.h.fill(), dx.h.fill();
  scale.h.fill(), bias.h.fill(), rmean.h.fill(), smean.h.fill(), sinv.h.fill(), dscale.h.fill(), dbias.h.fill();
  rvar.h.fill(0.5);
  for (size_t e = 0; e < rvar.h.count; e++) {   /* a positive running variance */
    double v = 1 + fabs(rvar.h.v[e]);
    dnn_store(CUDNN_DATA_FLOAT, &rvar.h.bytes[e * 4], v);
    rvar.h.v[e] = dnn_load(CUDNN_DATA_FLOAT, &rvar.h.bytes[e * 4]);
  }
  rvar.h.up();
  cudnnTensorDescriptor_t bnd;
  CHECK_DNN(cudnnCreateTensorDescriptor(&bnd));
  CHECK_DNN(cudnnDeriveBNTensorDescriptor(bnd, x.desc, CUDNN_BATCHNORM_SPATIAL));
  const double eps = 1e-4, f = 0.1;
  const int M = N * H * W;
  std::vector<double> mean(C, 0), var(C, 0), inv(C), xhat(x.h.count);
  for (int c = 0; c < C; c++) {
    for (int n = 0; n < N; n++)
      for (int p = 0; p < H * W; p++) mean[c] += x.h.v[x.idx(n, c, 0, 0) + p];
    mean[c] /= M;
    for (int n = 0; n < N; n++)
      for (int p = 0; p < H * W; p++) {
        double d = x.h.v[x.idx(n, c, 0, 0) + p] - mean[c];
        var[c] += d * d;
      }
    var[c] /= M;
    inv[c] = 1 / sqrt(var[c] + eps);
    for (int n = 0; n < N; n++)
      for (int p = 0; p < H * W; p++) {
        size_t e = x.idx(n, c, 0, 0) + p;
        xhat[e] = (x.h.v[e] - mean[c]) * inv[c];
      }
  }
  /* training: y = 0.5 (scale xhat + bias) + 0.25 y */
  float alpha = 0.5f, beta = 0.25f;
  std::vector<double> want(x.h.count), wp(C);
  for (size_t e = 0; e < x.h.count; e++) {
    int c = (int)((e / (H * W)) % C);
    want[e] = alpha * (scale.h.v[c] * xhat[e] + bias.h.v[c]) + beta * y.h.v[e];
  }
  CHECK_DNN(cudnnBatchNormalizationForwardTraining(h, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta, x.desc, x.h.d, y.desc,
                                                   y.h.d, bnd, scale.h.d, bias.h.d, f, rmean.h.d, rvar.h.d, eps,
                                                   smean.h.d, sinv.h.d));
  dnn_compare("batchnorm training y", y.h.down("batchnorm training y"), want, 1e-4);
  for (int c = 0; c < C; c++) wp[c] = (1 - f) * rmean.h.v[c] + f * mean[c];
  dnn_compare("batchnorm running mean", rmean.h.down("batchnorm running mean"), wp, 1e-4);
  for (int c = 0; c < C; c++) wp[c] = (1 - f) * rvar.h.v[c] + f * var[c] * M / (M - 1);
  dnn_compare("batchnorm running variance", rvar.h.down("batchnorm running variance"), wp, 1e-4);
  dnn_compare("batchnorm saved mean", smean.h.down("batchnorm saved mean"), mean, 1e-4);
  dnn_compare("batchnorm saved inverse variance", sinv.h.down("batchnorm saved inverse variance"), inv, 1e-4);

  /* inference with the running statistics as now on the device */
  std::vector<double> rm = rmean.h.down("rm"), rv = rvar.h.down("rv");
  y.h.fill();
  for (size_t e = 0; e < x.h.count; e++) {
    int c = (int)((e / (H * W)) % C);
    want[e] = alpha * (scale.h.v[c] * (x.h.v[e] - rm[c]) / sqrt(rv[c] + eps) + bias.h.v[c]) + beta * y.h.v[e];
  }
  CHECK_DNN(cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta, x.desc, x.h.d, y.desc,
                                                    y.h.d, bnd, scale.h.d, bias.h.d, rmean.h.d, rvar.h.d, eps));
  dnn_compare("batchnorm inference", y.h.down("batchnorm inference"), want, 1e-4);

  /* backward with the saved statistics: dx blended 0.5/0.25, parameters 1/0 */
  std::vector<double> db(C, 0), ds(C, 0);
  for (size_t e = 0; e < x.h.count; e++) {
    int c = (int)((e / (H * W)) % C);
    db[c] += dy.h.v[e];
    ds[c] += dy.h.v[e] * xhat[e];
  }
  for (size_t e = 0; e < x.h.count; e++) {
    int c = (int)((e / (H * W)) % C);
    double g = scale.h.v[c] * inv[c] / M * (M * dy.h.v[e] - db[c] - xhat[e] * ds[c]);
    want[e] = alpha * g + beta * dx.h.v[e];
  }
  CHECK_DNN(cudnnBatchNormalizationBackward(h, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta, &ONE, &ZERO, x.desc, x.h.d,
                                            dy.desc, dy.h.d, dx.desc, dx.h.d, bnd, scale.h.d, dscale.h.d, dbias.h.d,
                                            eps, smean.h.d, sinv.h.d));
  dnn_compare("batchnorm backward dx", dx.h.down("batchnorm backward dx"), want, 1e-4);
  dnn_compare("batchnorm backward dscale", dscale.h.down("batchnorm backward dscale"), ds, 1e-4);
  dnn_compare("batchnorm backward dbias", dbias.h.down("batchnorm backward dbias"), db, 1e-4);
  cudnnDestroyTensorDescriptor(bnd);
  printf("ok batchnorm\n");
}

/* ---- tensor arithmetic -------------------------------------------------------------------- */

static void test_tensor_ops(cudnnHandle_t h) {
  int bd[4] = {1, C, 1, 1};
  T4 a(D4), b(bd), cc(D4), full(D4);
  a.h.fill(), b.h.fill(), cc.h.fill(), full.h.fill();
  std::vector<double> want(a.h.count);
  /* AddTensor: C = 0.5 bias + 2 C */
  float alpha = 0.5f, beta = 2.0f;
  for (size_t e = 0; e < cc.h.count; e++) want[e] = alpha * b.h.v[(e / (H * W)) % C] + beta * cc.h.v[e];
  CHECK_DNN(cudnnAddTensor(h, &alpha, b.desc, b.h.d, &beta, cc.desc, cc.h.d));
  dnn_compare("add tensor", cc.h.down("add tensor"), want, 2e-5);

  cudnnOpTensorDescriptor_t op;
  CHECK_DNN(cudnnCreateOpTensorDescriptor(&op));
  const cudnnOpTensorOp_t ops[] = {CUDNN_OP_TENSOR_ADD, CUDNN_OP_TENSOR_MUL, CUDNN_OP_TENSOR_MAX};
  const char *names[] = {"op add", "op mul", "op max"};
  for (int k = 0; k < 3; k++) {
    CHECK_DNN(cudnnSetOpTensorDescriptor(op, ops[k], CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN));
    cc.h.fill();
    float a1 = 1.5f, a2 = -0.5f, bt = 0.25f;
    for (size_t e = 0; e < cc.h.count; e++) {
      double x = a1 * a.h.v[e], y = a2 * b.h.v[(e / (H * W)) % C];
      double r = k == 0 ? x + y : k == 1 ? x * y : fmax(x, y);
      want[e] = r + bt * cc.h.v[e];
    }
    CHECK_DNN(cudnnOpTensor(h, op, &a1, a.desc, a.h.d, &a2, b.desc, b.h.d, &bt, cc.desc, cc.h.d));
    dnn_compare(names[k], cc.h.down(names[k]), want, 2e-5);
  }
  /* sqrt of |a| (a unary op: B is not read) */
  std::vector<double> absa(a.h.count);
  for (size_t e = 0; e < a.h.count; e++) {
    dnn_store(CUDNN_DATA_FLOAT, &a.h.bytes[e * 4], fabs(a.h.v[e]));
    a.h.v[e] = fabs(a.h.v[e]);
  }
  a.h.up();
  CHECK_DNN(cudnnSetOpTensorDescriptor(op, CUDNN_OP_TENSOR_SQRT, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN));
  for (size_t e = 0; e < cc.h.count; e++) want[e] = sqrt(2.0 * a.h.v[e]);
  float two = 2;
  CHECK_DNN(cudnnOpTensor(h, op, &two, a.desc, a.h.d, &ONE, full.desc, full.h.d, &ZERO, cc.desc, cc.h.d));
  dnn_compare("op sqrt", cc.h.down("op sqrt"), want, 2e-5);
  cudnnDestroyOpTensorDescriptor(op);

  /* SetTensor, ScaleTensor */
  float value = -3.25f;
  CHECK_DNN(cudnnSetTensor(h, cc.desc, cc.h.d, &value));
  want.assign(cc.h.count, value);
  dnn_compare("set tensor", cc.h.down("set tensor"), want, 0);
  float sc = 0.5f;
  CHECK_DNN(cudnnScaleTensor(h, cc.desc, cc.h.d, &sc));
  want.assign(cc.h.count, value * 0.5);
  dnn_compare("scale tensor", cc.h.down("scale tensor"), want, 0);

  /* TransformTensor: NCHW a -> NHWC t, t = 2 a + 0.5 t */
  T4 t(D4, CUDNN_TENSOR_NHWC);
  t.h.fill();
  float ta = 2, tb = 0.5f;
  for (size_t e = 0; e < t.h.count; e++) want[e] = ta * a.h.v[e] + tb * t.h.v[e];
  CHECK_DNN(cudnnTransformTensor(h, &ta, a.desc, a.h.d, &tb, t.desc, t.h.d));
  dnn_compare("transform tensor", t.h.down("transform tensor"), want, 2e-5);
  printf("ok tensor ops\n");
}

int main() {
  cudnnHandle_t h;
  CHECK_DNN(cudnnCreate(&h));
  fprintf(stderr, "cuDNN %zu\n", cudnnGetVersion());
  test_activations(h);
  test_softmax(h);
  test_pooling(h);
  test_lrn(h);
  test_batchnorm(h);
  test_tensor_ops(h);
  CHECK(cudaDeviceSynchronize());
  CHECK_DNN(cudnnDestroy(h));
  printf("%ld values compared\n", dnn_compared);
  printf("PASS cudnn_ops\n");
  return 0;
}
