/* cudnn_backend.cu: cuDNN's backend (graph) API through its raw C calls
 * (cudnnBackendCreateDescriptor / SetAttribute / GetAttribute / Finalize /
 * Execute), each result against a host computation in double:
 *   conv_fwd_xcorr      cross-correlation, pad 1, alpha 1, beta 0
 *   conv_fwd_conv       true convolution, pad 2, stride 2, dilation 2,
 *                       2 groups, alpha 0.5, beta 0.25
 *   conv_fwd_nhwc       channels-last tensors
 *   conv_fwd_half       half x, w, y (channels last), FLOAT compute
 *   conv_bias_relu      conv -> add bias (broadcast) -> ReLU, fused
 *   conv_bwd_data, conv_bwd_filter
 *   matmul_gelu         batched matmul, b broadcast over the batch -> GELU
 *   matmul_bt           matmul with b transposed by its strides
 *   pointwise_<mode>    add, mul, sub, div, max, min (broadcast b); sqrt,
 *                       exp, tanh, sigmoid, relu_bwd
 *   reduction_<op>      add, max, avg over some dims
 *   sdpa, sdpa_causal   attention as matmul, scale, (GEN_INDEX + CMP_GE +
 *                       BINARY_SELECT causal mask), max/sum reductions,
 *                       sub/exp/div, matmul with V
 *   unsupported         a pointwise graph on complex data: NOT_SUPPORTED
 *                       at a Finalize
 *   status <case>       bad attributes: the BAD_PARAM category
 * Engines are not obliged to run every fused graph: a graph that NVIDIA's
 * cuDNN refuses (NOT_SUPPORTED at the graph's Finalize, no engine
 * configuration from the heuristics or none whose plan finalizes) prints
 * "refused <case>"; any other failure is a failure. Under cubridge every
 * graph runs (tests/lib/cudnn_backend.expected has no "refused" line but
 * the unsupported one's).
 * Values are multiples of 1/64 in [-1, 1): products and sums in the
 * convolutions and matmuls are exact in fp32 and TF32. Tolerances
 * (|got - want| <= tol (1 + |want|)): 1e-5, 1e-4 where exp/erf/tanh are
 * involved, 1e-3 for attention, 2e-3 for half outputs (one rounding).
 *
 * Build: nvcc -Itests/lib tests/lib/cudnn_backend.cu -o cudnn_backend -lcudnn
 */
#include "dnn_check.h"

#include <string>

typedef cudnnBackendDescriptor_t BD;

static cudnnHandle_t handle;

static BD mk(cudnnBackendDescriptorType_t t) {
  BD d = NULL;
  CHECK_DNN(cudnnBackendCreateDescriptor(t, &d));
  return d;
}

static void set(BD d, cudnnBackendAttributeName_t a, cudnnBackendAttributeType_t t, int64_t n, const void *v) {
  cudnnStatus_t s = cudnnBackendSetAttribute(d, a, t, n, v);
  if (s != CUDNN_STATUS_SUCCESS) {
    printf("FAIL set attribute %d: %s\n", (int)a, cudnnGetErrorString(s));
    lib_fail();
  }
}

static void set_i64(BD d, cudnnBackendAttributeName_t a, int64_t v) { set(d, a, CUDNN_TYPE_INT64, 1, &v); }
static void set_desc(BD d, cudnnBackendAttributeName_t a, BD v) { set(d, a, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v); }

static void fin(BD d) { CHECK_DNN(cudnnBackendFinalize(d)); }

static int not_supported(cudnnStatus_t s) { return s / 1000 * 1000 == CUDNN_STATUS_NOT_SUPPORTED; }
static int bad_param(cudnnStatus_t s) { return s / 1000 * 1000 == CUDNN_STATUS_BAD_PARAM; }

/* A finalized tensor descriptor. */
static BD tensor(int64_t uid, cudnnDataType_t type, int nd, const int64_t *dim, const int64_t *stride,
                 bool virt = false, bool by_value = false) {
  BD t = mk(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  int64_t align = 16;
  set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type);
  set(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, nd, dim);
  set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, nd, stride);
  set_i64(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, uid);
  set(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align);
  if (virt) set(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &virt);
  if (by_value) set(t, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value);
  fin(t);
  return t;
}

static void packed(int nd, const int64_t *dim, int64_t *stride) {
  int64_t s = 1;
  for (int i = nd - 1; i >= 0; i--) { stride[i] = s; s *= dim[i]; }
}

static BD tensor_packed(int64_t uid, cudnnDataType_t type, int nd, const int64_t *dim, bool virt = false) {
  int64_t st[8];
  packed(nd, dim, st);
  return tensor(uid, type, nd, dim, st, virt);
}

/* A host tensor (float unless told) with a device copy, dims and strides as int64. */
struct DT {
  int nd;
  int64_t dim[8], stride[8];
  cudnnDataType_t type;
  HT *h;
  DT(int n, const int64_t *d, const int64_t *s = NULL, cudnnDataType_t t = CUDNN_DATA_FLOAT) : nd(n), type(t) {
    int di[8], si[8];
    for (int i = 0; i < n; i++) dim[i] = d[i];
    if (s) for (int i = 0; i < n; i++) stride[i] = s[i];
    else packed(n, dim, stride);
    for (int i = 0; i < n; i++) { di[i] = (int)dim[i]; si[i] = (int)stride[i]; }
    h = new HT(t, n, di, si);
  }
  ~DT() { delete h; }
  BD desc(int64_t uid) { return tensor(uid, type, nd, dim, stride); }
  size_t count() const { return h->count; }
};

/* Runs a graph of ops: 0 when it ran, 1 when cuDNN refused it (printed). */
static int run_graph(const char *name, const std::vector<BD> &ops, const std::vector<int64_t> &uids,
                     const std::vector<void *> &ptrs) {
  BD graph = mk(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
  set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, (int64_t)ops.size(), ops.data());
  cudnnStatus_t s = cudnnBackendFinalize(graph);
  if (not_supported(s)) {
    fprintf(stderr, "%s: graph finalize %s\n", name, cudnnGetErrorString(s));
    printf("refused %s\n", name);
    cudnnBackendDestroyDescriptor(graph);
    return 1;
  }
  CHECK_DNN(s);
  int64_t count = 0, engines = 0;
  CHECK_DNN(cudnnBackendGetAttribute(graph, CUDNN_ATTR_OPERATIONGRAPH_ENGINE_GLOBAL_COUNT, CUDNN_TYPE_INT64, 1, &count,
                                     &engines));
  if (count != 1 || engines < 1) {
    printf("FAIL %s: %lld engines (count %lld)\n", name, (long long)engines, (long long)count);
    lib_fail();
  }
  BD plan = NULL;
  cudnnBackendHeurMode_t modes[2] = {CUDNN_HEUR_MODE_INSTANT, CUDNN_HEUR_MODE_FALLBACK};
  for (int m = 0; m < 2 && !plan; m++) {
    BD heur = mk(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    set_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph);
    set(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &modes[m]);
    s = cudnnBackendFinalize(heur);
    if (s != CUDNN_STATUS_SUCCESS) {
      fprintf(stderr, "%s: heuristics mode %d: %s\n", name, (int)modes[m], cudnnGetErrorString(s));
      cudnnBackendDestroyDescriptor(heur);
      continue;
    }
    int64_t n = 0;
    CHECK_DNN(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n, NULL));
    std::vector<BD> cfgs((size_t)n);
    for (int64_t i = 0; i < n; i++) cfgs[i] = mk(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR);
    int64_t got = 0;
    if (n) CHECK_DNN(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, n,
                                              &got, cfgs.data()));
    for (int64_t i = 0; i < got && !plan; i++) {
      BD p = mk(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      set(p, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
      set_desc(p, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, cfgs[i]);
      s = cudnnBackendFinalize(p);
      if (s == CUDNN_STATUS_SUCCESS) plan = p;
      else {
        fprintf(stderr, "%s: config %lld: plan %s\n", name, (long long)i, cudnnGetErrorString(s));
        cudnnBackendDestroyDescriptor(p);
      }
    }
    for (BD c : cfgs) cudnnBackendDestroyDescriptor(c);
    cudnnBackendDestroyDescriptor(heur);
  }
  if (!plan) {
    cudnnBackendDestroyDescriptor(graph);
    printf("refused %s\n", name);
    return 1;
  }
  int64_t ws = -1;
  CHECK_DNN(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &count, &ws));
  if (ws < 0) {
    printf("FAIL %s: workspace size %lld\n", name, (long long)ws);
    lib_fail();
  }
  void *work = NULL;
  if (ws > 0) CHECK(cudaMalloc(&work, (size_t)ws));
  BD vp = mk(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  set(vp, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, (int64_t)uids.size(), uids.data());
  set(vp, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, (int64_t)ptrs.size(), ptrs.data());
  set(vp, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &work);
  fin(vp);
  s = cudnnBackendExecute(handle, plan, vp);
  if (s != CUDNN_STATUS_SUCCESS) {
    printf("FAIL %s: cudnnBackendExecute: %s\n", name, cudnnGetErrorString(s));
    lib_fail();
  }
  CHECK(cudaDeviceSynchronize());
  cudnnBackendDestroyDescriptor(vp);
  cudnnBackendDestroyDescriptor(plan);
  cudnnBackendDestroyDescriptor(graph);
  if (work) cudaFree(work);
  return 0;
}

static void destroy(const std::vector<BD> &ds) {
  for (BD d : ds) cudnnBackendDestroyDescriptor(d);
}

static void check(const char *name, DT &out, const std::vector<double> &want, double tol) {
  std::vector<double> got = out.h->down(name);
  dnn_compare(name, got, want, tol);
  printf("ok %s (%zu values)\n", name, want.size());
}

/* ---- convolutions ----------------------------------------------------------------------------- */

struct ConvCase {
  const char *name;
  int N, C, H, W, K, R, S, groups, pad, stride, dil;
  cudnnConvolutionMode_t mode;
  float alpha, beta;
  int nhwc;
  cudnnDataType_t type;   /* of x, w and y (compute FLOAT) */
};

static int out_dim(int i, int f, int pad, int stride, int dil) { return (i + 2 * pad - ((f - 1) * dil + 1)) / stride + 1; }

/* y[n,k,p,q] = sum x[n, g*Cg + c, p*st + r*dil - pad, q*st + s*dil - pad] * w[k, c, r', s'] */
static void conv_ref(const ConvCase &cc, int dir, const std::vector<double> &x, const std::vector<double> &w,
                     const std::vector<double> &y, std::vector<double> &out) {
  int P = out_dim(cc.H, cc.R, cc.pad, cc.stride, cc.dil), Q = out_dim(cc.W, cc.S, cc.pad, cc.stride, cc.dil);
  int Cg = cc.C / cc.groups, Kg = cc.K / cc.groups;
  for (int n = 0; n < cc.N; n++)
    for (int k = 0; k < cc.K; k++)
      for (int p = 0; p < P; p++)
        for (int q = 0; q < Q; q++)
          for (int c = 0; c < Cg; c++)
            for (int r = 0; r < cc.R; r++)
              for (int s = 0; s < cc.S; s++) {
                int ih = p * cc.stride + r * cc.dil - cc.pad, iw = q * cc.stride + s * cc.dil - cc.pad;
                if (ih < 0 || ih >= cc.H || iw < 0 || iw >= cc.W) continue;
                int rr = cc.mode == CUDNN_CONVOLUTION ? cc.R - 1 - r : r;
                int ss = cc.mode == CUDNN_CONVOLUTION ? cc.S - 1 - s : s;
                int ch = (k / Kg) * Cg + c;
                size_t xi = (((size_t)n * cc.C + ch) * cc.H + ih) * cc.W + iw;
                size_t wi = (((size_t)k * Cg + c) * cc.R + rr) * cc.S + ss;
                size_t yi = (((size_t)n * cc.K + k) * P + p) * Q + q;
                if (dir == 0) out[yi] += x[xi] * w[wi];
                else if (dir == 1) out[xi] += y[yi] * w[wi];
                else out[wi] += x[xi] * y[yi];
              }
}

static void nhwc_strides(const int64_t *d, int64_t *s) {
  s[1] = 1;
  s[3] = d[1];
  s[2] = d[1] * d[3];
  s[0] = d[1] * d[2] * d[3];
}

static BD conv_desc(const ConvCase &cc, cudnnDataType_t comp = CUDNN_DATA_FLOAT) {
  BD c = mk(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  int64_t nsp = 2, pad[2] = {cc.pad, cc.pad}, st[2] = {cc.stride, cc.stride}, dil[2] = {cc.dil, cc.dil};
  set(c, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &comp);
  set(c, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &cc.mode);
  set_i64(c, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, nsp);
  set(c, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, CUDNN_TYPE_INT64, 2, pad);
  set(c, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, CUDNN_TYPE_INT64, 2, pad);
  set(c, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, CUDNN_TYPE_INT64, 2, st);
  set(c, CUDNN_ATTR_CONVOLUTION_DILATIONS, CUDNN_TYPE_INT64, 2, dil);
  fin(c);
  return c;
}

/* dir 0 forward, 1 backward data, 2 backward filter; fuse: bias + ReLU after a forward. */
static void conv_case(const ConvCase &cc, int dir, int fuse) {
  int P = out_dim(cc.H, cc.R, cc.pad, cc.stride, cc.dil), Q = out_dim(cc.W, cc.S, cc.pad, cc.stride, cc.dil);
  int64_t xd[4] = {cc.N, cc.C, cc.H, cc.W}, wd[4] = {cc.K, cc.C / cc.groups, cc.R, cc.S}, yd[4] = {cc.N, cc.K, P, Q};
  int64_t xs[4], ws[4], ys[4];
  if (cc.nhwc) { nhwc_strides(xd, xs); nhwc_strides(wd, ws); nhwc_strides(yd, ys); }
  else { packed(4, xd, xs); packed(4, wd, ws); packed(4, yd, ys); }
  cudnnDataType_t dt = cc.type == CUDNN_DATA_HALF ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  DT x(4, xd, xs, dt), w(4, wd, ws, dt), y(4, yd, ys, dt);
  x.h->fill();
  w.h->fill();
  y.h->fill();
  std::vector<double> r((dir == 0 ? y : dir == 1 ? x : w).count(), 0.0);
  conv_ref(cc, dir, x.h->v, w.h->v, y.h->v, r);
  BD cd = conv_desc(cc);
  BD tx = x.desc(1), tw = w.desc(2), ty = y.desc(3);
  std::vector<BD> keep = {cd, tx, tw, ty};
  std::vector<BD> ops;
  /* alpha and beta as FLOAT, the type of the FLOAT compute (what cudnn-frontend passes; NVIDIA's engines read
   * the scaling factors in the compute type). CB_ALPHA_DOUBLE passes them as DOUBLE instead. */
#ifdef CB_ALPHA_DOUBLE
  double alpha = cc.alpha, beta = cc.beta;
  const cudnnBackendAttributeType_t scale_type = CUDNN_TYPE_DOUBLE;
#else
  float alpha = cc.alpha, beta = cc.beta;
  const cudnnBackendAttributeType_t scale_type = CUDNN_TYPE_FLOAT;
#endif
  static const cudnnBackendDescriptorType_t kinds[3] = {CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
                                                        CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
                                                        CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR};
  static const cudnnBackendAttributeName_t attrs[3][5] = {
      {CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC},
      {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC},
      {CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY, CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,
       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC}};
  BD op = mk(kinds[dir]);
  BD conv_out = ty;
  BD tv = NULL, tb = NULL, tz = NULL;
  const int64_t bias_dims[4] = {1, cc.K, 1, 1};
  DT bias(4, bias_dims);
  if (fuse) {
    tv = tensor_packed(100, CUDNN_DATA_FLOAT, 4, yd, true);
    tz = tensor_packed(101, CUDNN_DATA_FLOAT, 4, yd, true);
    tb = bias.desc(4);
    bias.h->fill();
    keep.push_back(tv), keep.push_back(tz), keep.push_back(tb);
    conv_out = tv;
  }
  set_desc(op, attrs[dir][0], tx);
  set_desc(op, attrs[dir][1], tw);
  set_desc(op, attrs[dir][2], conv_out);
  set(op, attrs[dir][3], scale_type, 1, &alpha);
  set(op, (cudnnBackendAttributeName_t)(attrs[dir][3] + 1), scale_type, 1, &beta);
  set_desc(op, attrs[dir][4], cd);
  fin(op);
  ops.push_back(op);
  DT &out = dir == 0 ? y : dir == 1 ? x : w;
  std::vector<double> want(out.count());
  for (size_t i = 0; i < want.size(); i++) want[i] = cc.alpha * r[i] + cc.beta * out.h->v[i];
  if (fuse) {
    BD add = mk(CUDNN_BACKEND_POINTWISE_DESCRIPTOR), relu = mk(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
    cudnnPointwiseMode_t ma = CUDNN_POINTWISE_ADD, mr = CUDNN_POINTWISE_RELU_FWD;
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    set(add, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &ma);
    set(add, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
    set(relu, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mr);
    set(relu, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
    fin(add), fin(relu);
    BD o1 = mk(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR), o2 = mk(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    set_desc(o1, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, add);
    set_desc(o1, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, tv);
    set_desc(o1, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, tb);
    set_desc(o1, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, tz);
    set_desc(o2, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, relu);
    set_desc(o2, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, tz);
    set_desc(o2, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, ty);
    fin(o1), fin(o2);
    ops.push_back(o1), ops.push_back(o2);
    keep.push_back(add), keep.push_back(relu);
    size_t inner = (size_t)P * Q;
    for (size_t i = 0; i < want.size(); i++) {
      double v = cc.alpha * r[i] + bias.h->v[(i / inner) % cc.K];
      want[i] = v > 0 ? v : 0;
    }
  }
  std::vector<int64_t> uids = {1, 2, 3};
  std::vector<void *> ptrs = {x.h->d, w.h->d, y.h->d};
  if (fuse) uids.push_back(4), ptrs.push_back(bias.h->d);
  if (!run_graph(cc.name, ops, uids, ptrs)) check(cc.name, out, want, dt == CUDNN_DATA_HALF ? 2e-3 : 1e-5);
  destroy(ops);
  destroy(keep);
}

/* ---- pointwise ---------------------------------------------------------------------------------- */

static BD pw_desc(cudnnPointwiseMode_t mode) {
  BD p = mk(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  cudnnDataType_t f = CUDNN_DATA_FLOAT;
  set(p, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode);
  set(p, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
  fin(p);
  return p;
}

/* y = mode(x, b [, t]) as a finalized operation; y may be dy/dx for backward modes. */
static BD pw_op(BD desc, BD x, BD b, BD y, BD t = NULL, bool bwd = false) {
  BD o = mk(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, desc);
  set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x);
  if (bwd) {
    set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_DYDESC, b);
    set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_DXDESC, y);
  } else {
    if (b) set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b);
    set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y);
  }
  if (t) set_desc(o, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, t);
  fin(o);
  return o;
}

static double pw_ref(cudnnPointwiseMode_t m, double a, double b) {
  switch (m) {
  case CUDNN_POINTWISE_ADD: return a + b;
  case CUDNN_POINTWISE_MUL: return a * b;
  case CUDNN_POINTWISE_SUB: return a - b;
  case CUDNN_POINTWISE_DIV: return a / b;
  case CUDNN_POINTWISE_MAX: return a > b ? a : b;
  case CUDNN_POINTWISE_MIN: return a < b ? a : b;
  case CUDNN_POINTWISE_SQRT: return sqrt(fabs(a) + 0.5);
  case CUDNN_POINTWISE_EXP: return exp(a);
  case CUDNN_POINTWISE_TANH_FWD: return tanh(a);
  case CUDNN_POINTWISE_SIGMOID_FWD: return 1 / (1 + exp(-a));
  case CUDNN_POINTWISE_RELU_BWD: return a > 0 ? b : 0;
  default: return 0;
  }
}

static void pointwise_case(const char *name, cudnnPointwiseMode_t mode, int arity, bool bwd = false) {
  int64_t d[4] = {2, 3, 4, 5}, bd[4] = {1, 3, 1, 5};
  DT x(4, d), b(4, bwd ? d : bd), y(4, d);
  x.h->fill();
  b.h->fill();
  y.h->fill();
  if (mode == CUDNN_POINTWISE_SQRT) {   /* positive inputs: |x| + 0.5 */
    for (size_t e = 0; e < x.count(); e++) x.h->v[e] = fabs(x.h->v[e]) + 0.5;
    for (size_t e = 0; e < x.count(); e++) dnn_store(CUDNN_DATA_FLOAT, &x.h->bytes[x.h->off(e) * 4], x.h->v[e]);
    x.h->up();
  }
  if (mode == CUDNN_POINTWISE_DIV) {    /* divisors away from 0 */
    for (size_t e = 0; e < b.count(); e++) b.h->v[e] = b.h->v[e] >= 0 ? b.h->v[e] + 0.5 : b.h->v[e] - 0.5;
    for (size_t e = 0; e < b.count(); e++) dnn_store(CUDNN_DATA_FLOAT, &b.h->bytes[b.h->off(e) * 4], b.h->v[e]);
    b.h->up();
  }
  BD p = pw_desc(mode), tx = x.desc(1), tb = b.desc(2), ty = y.desc(3);
  BD op = pw_op(p, tx, arity ? tb : NULL, ty, NULL, bwd);
  std::vector<double> want(y.count());
  for (size_t e = 0; e < want.size(); e++) {
    size_t i3 = e % 5, i1 = (e / 20) % 3;
    double bv = bwd ? b.h->v[e] : b.h->v[i1 * 5 + i3];
    double a = mode == CUDNN_POINTWISE_SQRT ? x.h->v[e] - 0.5 : x.h->v[e];
    want[e] = pw_ref(mode, a, bv);
  }
  std::vector<int64_t> uids = {1, 3};
  std::vector<void *> ptrs = {x.h->d, y.h->d};
  if (arity) uids.push_back(2), ptrs.push_back(b.h->d);
  bool trans = mode == CUDNN_POINTWISE_EXP || mode == CUDNN_POINTWISE_TANH_FWD || mode == CUDNN_POINTWISE_SIGMOID_FWD ||
               mode == CUDNN_POINTWISE_SQRT || mode == CUDNN_POINTWISE_DIV;
  if (!run_graph(name, {op}, uids, ptrs)) check(name, y, want, trans ? 1e-4 : 1e-5);
  destroy({op, p, tx, tb, ty});
}

/* ---- matmul ---------------------------------------------------------------------------------------- */

static BD matmul_op(BD a, BD b, BD c) {
  BD md = mk(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
  cudnnDataType_t f = CUDNN_DATA_FLOAT;
  set(md, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
  fin(md);
  BD o = mk(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
  set_desc(o, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a);
  set_desc(o, CUDNN_ATTR_OPERATION_MATMUL_BDESC, b);
  set_desc(o, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c);
  set_desc(o, CUDNN_ATTR_OPERATION_MATMUL_DESC, md);
  fin(o);
  cudnnBackendDestroyDescriptor(md);
  return o;
}

/* c[bt] = a[bt] b[bt or 0]; gelu: then GELU (erf form); bt: b stored transposed (N x K rows). */
static void matmul_case(const char *name, int gelu, int bt) {
  const int64_t B = 3, M = 5, K = 7, N = 6;
  int64_t ad[3] = {B, M, K}, bdm[3] = {bt ? B : 1, K, N}, cd[3] = {B, M, N};
  int64_t bs[3] = {K * N, bt ? 1 : N, bt ? K : 1};
  DT a(3, ad), b(3, bdm, bs), c(3, cd);
  a.h->fill();
  b.h->fill();
  c.h->fill();
  BD ta = a.desc(1), tb = b.desc(2), tc = c.desc(3), tv = NULL, g = NULL;
  std::vector<BD> ops, keep = {ta, tb, tc};
  if (gelu) {
    tv = tensor_packed(10, CUDNN_DATA_FLOAT, 3, cd, true);
    g = pw_desc(CUDNN_POINTWISE_GELU_FWD);
    keep.push_back(tv), keep.push_back(g);
    ops.push_back(matmul_op(ta, tb, tv));
    ops.push_back(pw_op(g, tv, NULL, tc));
  } else {
    ops.push_back(matmul_op(ta, tb, tc));
  }
  std::vector<double> want((size_t)(B * M * N));
  for (int64_t q = 0; q < B; q++)
    for (int64_t m = 0; m < M; m++)
      for (int64_t n = 0; n < N; n++) {
        double s = 0;
        for (int64_t k = 0; k < K; k++) {
          int64_t qb = bt ? q : 0;
          s += a.h->v[(q * M + m) * K + k] * b.h->v[(qb * K + k) * N + n];
        }
        want[(q * M + m) * N + n] = gelu ? 0.5 * s * (1 + erf(s / sqrt(2.0))) : s;
      }
  if (!run_graph(name, ops, {1, 2, 3}, {a.h->d, b.h->d, c.h->d})) check(name, c, want, gelu ? 1e-4 : 1e-5);
  destroy(ops);
  destroy(keep);
}

/* ---- reductions ---------------------------------------------------------------------------------------- */

static void reduction_case(const char *name, cudnnReduceTensorOp_t rop, const int64_t *yd) {
  int64_t xd[4] = {2, 3, 4, 5};
  DT x(4, xd), y(4, yd);
  x.h->fill();
  y.h->fill();
  BD rd = mk(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
  cudnnDataType_t f = CUDNN_DATA_FLOAT;
  set(rd, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &rop);
  set(rd, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
  cudnnStatus_t rs = cudnnBackendFinalize(rd);
  if (not_supported(rs)) {   /* NVIDIA's 9.14 refuses AVG here, at the reduction descriptor */
    fprintf(stderr, "%s: reduction descriptor finalize %s\n", name, cudnnGetErrorString(rs));
    printf("refused %s\n", name);
    cudnnBackendDestroyDescriptor(rd);
    return;
  }
  CHECK_DNN(rs);
  BD tx = x.desc(1), ty = y.desc(2), op = mk(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
  set_desc(op, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, tx);
  set_desc(op, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, ty);
  set_desc(op, CUDNN_ATTR_OPERATION_REDUCTION_DESC, rd);
  fin(op);
  std::vector<double> want(y.count(), rop == CUDNN_REDUCE_TENSOR_MAX ? -1e300 : 0.0);
  std::vector<int> n(y.count(), 0);
  for (size_t e = 0; e < x.count(); e++) {
    int64_t idx[4], r = (int64_t)e;
    for (int d = 3; d >= 0; d--) { idx[d] = r % xd[d]; r /= xd[d]; }
    size_t o = 0;
    for (int d = 0; d < 4; d++) o = o * (size_t)yd[d] + (size_t)(yd[d] == 1 ? 0 : idx[d]);
    double v = x.h->v[e];
    want[o] = rop == CUDNN_REDUCE_TENSOR_MAX ? (v > want[o] ? v : want[o]) : want[o] + v;
    n[o]++;
  }
  if (rop == CUDNN_REDUCE_TENSOR_AVG)
    for (size_t i = 0; i < want.size(); i++) want[i] /= n[i];
  if (!run_graph(name, {op}, {1, 2}, {x.h->d, y.h->d})) check(name, y, want, 1e-5);
  destroy({op, rd, tx, ty});
}

/* ---- attention ------------------------------------------------------------------------------------------ */

static void sdpa_case(const char *name, int causal) {
  const int64_t B = 2, H = 2, S = 8, D = 4;
  int64_t qd[4] = {B, H, S, D}, sd[4] = {B, H, S, S}, rd[4] = {B, H, S, 1}, one[4] = {1, 1, 1, 1};
  int64_t kts[4] = {H * S * D, S * D, 1, D}, ktd[4] = {B, H, D, S};   /* K^T by strides */
  DT q(4, qd), k(4, qd), v(4, qd), o(4, qd);
  q.h->fill(), k.h->fill(), v.h->fill(), o.h->fill();
  float scale = 0.5f, neg_inf = -INFINITY;
  int64_t uid = 100;
  auto virt = [&](const int64_t *d, cudnnDataType_t t = CUDNN_DATA_FLOAT) { return tensor_packed(uid++, t, 4, d, true); };
  int64_t ones[4] = {1, 1, 1, 1};
  BD tq = q.desc(1), tk = tensor(2, CUDNN_DATA_FLOAT, 4, ktd, kts), tv = v.desc(3), to = o.desc(4);
  BD tscale = tensor(5, CUDNN_DATA_FLOAT, 4, one, ones, false, true);
  BD tninf = tensor(6, CUDNN_DATA_FLOAT, 4, one, ones, false, true);
  BD s1 = virt(sd), s2 = virt(sd), s3 = causal ? virt(sd) : s2, mx = virt(rd), s4 = virt(sd), s5 = virt(sd),
     sum = virt(rd), p = virt(sd);
  std::vector<BD> keep = {tq, tk, tv, to, tscale, tninf, s1, s2, mx, s4, s5, sum, p};
  std::vector<BD> ops;
  ops.push_back(matmul_op(tq, tk, s1));
  BD pmul = pw_desc(CUDNN_POINTWISE_MUL), psub = pw_desc(CUDNN_POINTWISE_SUB), pexp = pw_desc(CUDNN_POINTWISE_EXP),
     pdiv = pw_desc(CUDNN_POINTWISE_DIV);
  keep.push_back(pmul), keep.push_back(psub), keep.push_back(pexp), keep.push_back(pdiv);
  ops.push_back(pw_op(pmul, s1, tscale, s2));
  if (causal) {
    BD row = virt(sd, CUDNN_DATA_INT32), col = virt(sd, CUDNN_DATA_INT32), mask = virt(sd, CUDNN_DATA_BOOLEAN);
    keep.push_back(s3), keep.push_back(row), keep.push_back(col), keep.push_back(mask);
    BD gr = mk(CUDNN_BACKEND_POINTWISE_DESCRIPTOR), gc = mk(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
    cudnnPointwiseMode_t gi = CUDNN_POINTWISE_GEN_INDEX;
    cudnnDataType_t f = CUDNN_DATA_FLOAT;
    set(gr, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &gi);
    set(gr, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
    set_i64(gr, CUDNN_ATTR_POINTWISE_AXIS, 2);
    set(gc, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &gi);
    set(gc, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &f);
    set_i64(gc, CUDNN_ATTR_POINTWISE_AXIS, 3);
    fin(gr), fin(gc);
    BD pge = pw_desc(CUDNN_POINTWISE_CMP_GE), psel = pw_desc(CUDNN_POINTWISE_BINARY_SELECT);
    keep.push_back(gr), keep.push_back(gc), keep.push_back(pge), keep.push_back(psel);
    ops.push_back(pw_op(gr, s2, NULL, row));
    ops.push_back(pw_op(gc, s2, NULL, col));
    ops.push_back(pw_op(pge, row, col, mask));
    ops.push_back(pw_op(psel, s2, tninf, s3, mask));
  }
  BD rmax = mk(CUDNN_BACKEND_REDUCTION_DESCRIPTOR), radd = mk(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
  cudnnReduceTensorOp_t om = CUDNN_REDUCE_TENSOR_MAX, oa = CUDNN_REDUCE_TENSOR_ADD;
  cudnnDataType_t f = CUDNN_DATA_FLOAT;
  set(rmax, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &om);
  set(rmax, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
  set(radd, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &oa);
  set(radd, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
  fin(rmax), fin(radd);
  keep.push_back(rmax), keep.push_back(radd);
  auto reduce = [&](BD x, BD y, BD desc) {
    BD r = mk(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
    set_desc(r, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x);
    set_desc(r, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y);
    set_desc(r, CUDNN_ATTR_OPERATION_REDUCTION_DESC, desc);
    fin(r);
    return r;
  };
  ops.push_back(reduce(s3, mx, rmax));
  ops.push_back(pw_op(psub, s3, mx, s4));
  ops.push_back(pw_op(pexp, s4, NULL, s5));
  ops.push_back(reduce(s5, sum, radd));
  ops.push_back(pw_op(pdiv, s5, sum, p));
  ops.push_back(matmul_op(p, tv, to));
  std::vector<double> want((size_t)(B * H * S * D), 0.0);
  for (int64_t bh = 0; bh < B * H; bh++)
    for (int64_t i = 0; i < S; i++) {
      double sc[64], m = -INFINITY, tot = 0;
      for (int64_t j = 0; j < S; j++) {
        double s = 0;
        for (int64_t d = 0; d < D; d++) s += q.h->v[(bh * S + i) * D + d] * k.h->v[(bh * S + j) * D + d];
        sc[j] = causal && j > i ? -INFINITY : s * scale;
        m = sc[j] > m ? sc[j] : m;
      }
      for (int64_t j = 0; j < S; j++) tot += (sc[j] = exp(sc[j] - m));
      for (int64_t d = 0; d < D; d++) {
        double acc = 0;
        for (int64_t j = 0; j < S; j++) acc += sc[j] / tot * v.h->v[(bh * S + j) * D + d];
        want[(bh * S + i) * D + d] = acc;
      }
    }
  if (!run_graph(name, ops, {1, 2, 3, 4, 5, 6}, {q.h->d, k.h->d, v.h->d, o.h->d, &scale, &neg_inf}))
    check(name, o, want, 1e-3);
  destroy(ops);
  destroy(keep);
}

/* ---- refusals and bad input ----------------------------------------------------------------------------- */

/* A pointwise add on complex data: some Finalize (tensor, operation, graph,
 * plan) or the heuristics must answer NOT_SUPPORTED (the tensor's Finalize
 * may say BAD_PARAM); cubridge answers at the graph's Finalize. */
static void unsupported_case() {
  int64_t d[4] = {1, 2, 3, 4}, s[4];
  packed(4, d, s);
  cudnnDataType_t ct = CUDNN_DATA_COMPLEX_FP32;
  int64_t align = 16;
  BD t[3];
  cudnnStatus_t st = CUDNN_STATUS_SUCCESS;
  for (int i = 0; i < 3; i++) {
    t[i] = mk(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
    set(t[i], CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &ct);
    set(t[i], CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, d);
    set(t[i], CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, s);
    set_i64(t[i], CUDNN_ATTR_TENSOR_UNIQUE_ID, i + 1);
    set(t[i], CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &align);
    if (st == CUDNN_STATUS_SUCCESS) st = cudnnBackendFinalize(t[i]);
  }
  /* a library may not take complex tensors at all: BAD_PARAM at the tensor's own Finalize is a refusal too */
  int refused = not_supported(st) || bad_param(st);
  if (st == CUDNN_STATUS_SUCCESS) {
    BD p = pw_desc(CUDNN_POINTWISE_ADD);
    BD op = mk(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
    set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, p);
    set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, t[0]);
    set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, t[1]);
    set_desc(op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, t[2]);
    st = cudnnBackendFinalize(op);
    refused = not_supported(st);
    if (st == CUDNN_STATUS_SUCCESS) {
      void *buf;
      CHECK(cudaMalloc(&buf, 3 * 24 * 8));
      char *b = (char *)buf;
      refused = run_graph("unsupported", {op}, {1, 2, 3}, {b, b + 192, b + 384});
      cudaFree(buf);
      if (!refused) {
        printf("FAIL unsupported: the complex graph ran\n");
        lib_fail();
      }
      refused = 2;   /* printed by run_graph */
    } else {
      fprintf(stderr, "unsupported: operation finalize %s\n", cudnnGetErrorString(st));
    }
    destroy({op, p});
  } else {
    fprintf(stderr, "unsupported: tensor finalize %s\n", cudnnGetErrorString(st));
  }
  if (refused == 1) printf("refused unsupported\n");
  else if (refused == 0) {
    printf("FAIL unsupported: %s\n", cudnnGetErrorString(st));
    lib_fail();
  }
  destroy({t[0], t[1], t[2]});
}

static void expect_bad(const char *name, cudnnStatus_t s) {
  if (!bad_param(s)) {
    printf("FAIL status %s: %s, expected the BAD_PARAM category\n", name, cudnnGetErrorString(s));
    lib_fail();
    return;
  }
  printf("status %s BAD_PARAM\n", name);
}

static void bad_params() {
  int64_t d[4] = {1, 2, 3, 4}, s[4], uid = 1, two[2] = {1, 2};
  packed(4, d, s);
  cudnnDataType_t f = CUDNN_DATA_FLOAT;
  int32_t d32[4] = {1, 2, 3, 4};
  BD t = mk(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  expect_bad("set_wrong_type", cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT32, 4, d32));
  expect_bad("set_null_array", cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, NULL));
  expect_bad("set_wrong_count", cudnnBackendSetAttribute(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 2, two));
  set(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f);
  set(t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, s);
  set_i64(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, uid);
  expect_bad("finalize_tensor_without_dims", cudnnBackendFinalize(t));
  cudnnBackendDestroyDescriptor(t);
  BD good = tensor(1, CUDNN_DATA_FLOAT, 4, d, s);
  expect_bad("set_after_finalize", cudnnBackendSetAttribute(good, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid));
  BD cd = mk(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR);
  int64_t n = 0, v = 0;
  /* Get before Finalize: NOT_INITIALIZED (the H200's cuDNN 9.14), not the BAD_PARAM category */
  cudnnStatus_t gs = cudnnBackendGetAttribute(cd, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &n, &v);
  if (gs != CUDNN_STATUS_NOT_INITIALIZED) {
    printf("FAIL status get_before_finalize: %s, expected CUDNN_STATUS_NOT_INITIALIZED\n", cudnnGetErrorString(gs));
    lib_fail();
  } else {
    printf("status get_before_finalize NOT_INITIALIZED\n");
  }
  /* Not probed, because NVIDIA's cuDNN 9.14 throws std::bad_alloc out of cudnnBackendSetAttribute for them:
   * an unfinalized tensor, or a descriptor of another type (a pointwise descriptor), set as an operation's
   * operand. cubridge answers BAD_PARAM_NOT_FINALIZED and BAD_PARAM_DESCRIPTOR_TYPE (docs/cudnn.md). */
  BD op = mk(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  BD pw = pw_desc(CUDNN_POINTWISE_ADD);
  /* a convolution whose y does not have the output dims: op or graph finalize */
  ConvCase cc = {"bad", 1, 2, 5, 5, 3, 3, 3, 1, 0, 1, 1, CUDNN_CROSS_CORRELATION, 1, 0, 0};
  BD conv = conv_desc(cc);
  int64_t xd[4] = {1, 2, 5, 5}, wd[4] = {3, 2, 3, 3}, yd[4] = {1, 3, 5, 5};
  BD tx = tensor_packed(1, CUDNN_DATA_FLOAT, 4, xd), tw = tensor_packed(2, CUDNN_DATA_FLOAT, 4, wd),
     ty = tensor_packed(3, CUDNN_DATA_FLOAT, 4, yd);
  BD cop = mk(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR);
  double one = 1, zero = 0;
  set_desc(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, tx);
  set_desc(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, tw);
  set_desc(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, ty);
  set_desc(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv);
  set(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_DOUBLE, 1, &one);
  set(cop, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_DOUBLE, 1, &zero);
  cudnnStatus_t st = cudnnBackendFinalize(cop);
  if (st == CUDNN_STATUS_SUCCESS) {
    BD g = mk(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
    set(g, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle);
    set(g, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &cop);
    st = cudnnBackendFinalize(g);
    cudnnBackendDestroyDescriptor(g);
  }
  expect_bad("conv_output_dims", st);
  /* Initialize (deprecated in cuDNN 9) puts a descriptor back to its state after Create: settable again. */
  st = cudnnBackendInitialize(good);
  if (st == CUDNN_STATUS_SUCCESS) {
    CHECK_DNN(cudnnBackendSetAttribute(good, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid));
    printf("ok initialize\n");
  } else if (not_supported(st)) {
    printf("refused initialize\n");
  } else {
    printf("FAIL initialize: %s\n", cudnnGetErrorString(st));
    lib_fail();
  }
  destroy({good, cd, op, pw, conv, tx, tw, ty, cop});
}

int main() {
  setvbuf(stdout, NULL, _IOLBF, 0);   /* each line out before a crash of the library under test */
  CHECK_DNN(cudnnCreate(&handle));
  const ConvCase convs[] = {
      {"conv_fwd_xcorr", 2, 3, 6, 6, 4, 3, 3, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, 1, 0, 0},
      {"conv_fwd_conv", 2, 4, 9, 9, 6, 3, 3, 2, 2, 2, 2, CUDNN_CONVOLUTION, 0.5f, 0.25f, 0},
      {"conv_fwd_nhwc", 1, 4, 5, 5, 4, 3, 3, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, 1, 0, 1},
      {"conv_bias_relu", 2, 3, 6, 6, 4, 3, 3, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, 1, 0, 0},
      {"conv_bwd_data", 2, 4, 7, 7, 6, 3, 3, 2, 1, 2, 1, CUDNN_CONVOLUTION, 1, 0, 0},
      {"conv_bwd_filter", 2, 4, 7, 7, 6, 3, 3, 2, 1, 2, 1, CUDNN_CROSS_CORRELATION, 1, 0, 0},
      {"conv_fwd_half", 2, 8, 6, 6, 8, 3, 3, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, 1, 0, 1, CUDNN_DATA_HALF},
  };
  conv_case(convs[0], 0, 0);
  conv_case(convs[1], 0, 0);
  conv_case(convs[2], 0, 0);
  conv_case(convs[3], 0, 1);
  conv_case(convs[4], 1, 0);
  conv_case(convs[5], 2, 0);
  conv_case(convs[6], 0, 0);
  matmul_case("matmul_gelu", 1, 0);
  matmul_case("matmul_bt", 0, 1);
  pointwise_case("pointwise_add", CUDNN_POINTWISE_ADD, 1);
  pointwise_case("pointwise_mul", CUDNN_POINTWISE_MUL, 1);
  pointwise_case("pointwise_sub", CUDNN_POINTWISE_SUB, 1);
  pointwise_case("pointwise_div", CUDNN_POINTWISE_DIV, 1);
  pointwise_case("pointwise_max", CUDNN_POINTWISE_MAX, 1);
  pointwise_case("pointwise_min", CUDNN_POINTWISE_MIN, 1);
  pointwise_case("pointwise_sqrt", CUDNN_POINTWISE_SQRT, 0);
  pointwise_case("pointwise_exp", CUDNN_POINTWISE_EXP, 0);
  pointwise_case("pointwise_tanh", CUDNN_POINTWISE_TANH_FWD, 0);
  pointwise_case("pointwise_sigmoid", CUDNN_POINTWISE_SIGMOID_FWD, 0);
  pointwise_case("pointwise_relu_bwd", CUDNN_POINTWISE_RELU_BWD, 1, true);
  const int64_t r1[4] = {2, 1, 4, 1}, r2[4] = {1, 3, 1, 1}, r3[4] = {2, 3, 4, 1};
  reduction_case("reduction_add", CUDNN_REDUCE_TENSOR_ADD, r1);
  reduction_case("reduction_max", CUDNN_REDUCE_TENSOR_MAX, r2);
  reduction_case("reduction_avg", CUDNN_REDUCE_TENSOR_AVG, r3);
  sdpa_case("sdpa", 0);
  sdpa_case("sdpa_causal", 1);
  unsupported_case();
  bad_params();
  CHECK_DNN(cudnnDestroy(handle));
  printf("compared %ld values\n", dnn_compared);
  printf("PASS cudnn_backend\n");
  return 0;
}
