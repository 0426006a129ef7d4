/* bench_conv.cu: cuDNN convolutions through cubridge's facade against
 * oneDNN called directly, side by side in one process (bench/run_conv.sh
 * runs it through `cubridge run`; both sides run the same libdnnl and its
 * OpenMP threads). For each ResNet-50 layer shape below, in f32, cross-
 * correlation (what frameworks ask for), alpha = 1, beta = 0:
 *   fwd   cudnnConvolutionForward (IMPLICIT_GEMM) on device memory,
 *         synchronized, vs a oneDNN forward_inference convolution
 *   bwdd  cudnnConvolutionBackwardData (ALGO_1) vs oneDNN backward_data
 *   bwdf  cudnnConvolutionBackwardFilter (ALGO_1) vs oneDNN backward_weights
 * The oneDNN side is what cubridge's backend asks oneDNN for
 * (src/backend/cpu/cpu_dnn_onednn.c): dnnl_convolution_direct on plain
 * NCHW / OIHW memory (no blocked layouts, no reorders), but at its
 * strongest: its primitives are created once, before the timing, where the
 * facade creates its primitive descriptor and primitive on every call
 * (oneDNN's primitive cache makes that a hit after the first).
 * Prints "RESULT <shape>_<dir>_{facade,onednn} <seconds>" (the best of
 * ROUNDS after a warm-up round), "IMPL <shape>_<dir> <oneDNN's
 * implementation>" and checks the two results against each other.
 * Then the cost of one call (RESULT call_fwd_*: seconds per call) on a
 * convolution too small to matter. Argument: the batch N (default 8). Timings go to stdout only here: bench/. */
#include <cuda_runtime.h>
#include <cudnn.h>
#include <math.h>
#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if ((x) != 0) {                                                            \
      fprintf(stderr, "bench_conv: %s failed at line %d\n", #x, __LINE__);     \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

static double now() {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int rounds = 5;
static int blocked_too = 1;   /* BLOCKED=0 leaves the blocked-layout column out */

struct Shape {
  const char *key;
  int c, h, k, r, stride, pad;   /* input channels and size, filters, kernel size */
};

/* ResNet-50's layers: the stem, a 3x3 of stage 2 (conv2_x), a 3x3 of stage 3
 * (conv3_x), a 3x3 of stage 4 (conv4_x), and a 1x1 reduction of stage 4. */
static const Shape shapes[] = {
    {"conv1_7x7s2_3to64_224", 3, 224, 64, 7, 2, 3},
    {"conv2_3x3_64to64_56", 64, 56, 64, 3, 1, 1},
    {"conv3_3x3_128to128_28", 128, 28, 128, 3, 1, 1},
    {"conv4_3x3_256to256_14", 256, 14, 256, 3, 1, 1},
    {"conv4_1x1_1024to256_14", 1024, 14, 256, 1, 1, 0},
};

static void fill(float *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++) p[i] = (float)((int)((i * 7919 + seed) % 2001) - 1000) / 1000;
}

static dnnl_engine_t eng;
static dnnl_stream_t strm;

enum { FWD, BWDD, BWDF };
static const char *const dir_key[] = {"fwd", "bwdd", "bwdf"};

/* One oneDNN convolution of direction dir on plain NCHW/OIHW memory, as
 * cubridge's backend describes it; x, w, y are host buffers (y is dy for
 * the backward directions, x is dx for backward data, w is dw for backward
 * filter). */
struct Direct {
  dnnl_primitive_t prim;
  dnnl_memory_t plain[3];   /* over the host buffers x, w, y */
  dnnl_memory_t m[3];       /* what the primitive runs on: plain, or oneDNN's layout (blocked) */
  int out;                  /* which of x, w, y the direction writes */
  dnnl_primitive_t to[3];   /* blocked: plain -> m[i] for the inputs, m[out] -> plain for the output */
  dnnl_exec_arg_t to_args[3][2];
  dnnl_exec_arg_t args[3];
  char impl[128];
};

/* A oneDNN reorder from memory a into b (any layouts). */
static dnnl_primitive_t reorder_of(dnnl_memory_t a, dnnl_memory_t b, dnnl_exec_arg_t args[2]) {
  const dnnl_memory_desc_t *am, *bm;
  CHECK(dnnl_memory_get_memory_desc(a, &am));
  CHECK(dnnl_memory_get_memory_desc(b, &bm));
  dnnl_primitive_desc_t rpd;
  dnnl_primitive_t rp;
  CHECK(dnnl_reorder_primitive_desc_create(&rpd, am, eng, bm, eng, NULL));
  CHECK(dnnl_primitive_create(&rp, rpd));
  dnnl_primitive_desc_destroy(rpd);
  args[0] = dnnl_exec_arg_t{DNNL_ARG_FROM, a};
  args[1] = dnnl_exec_arg_t{DNNL_ARG_TO, b};
  return rp;
}

static void direct_make(Direct *d, int dir, int blocked, const dnnl_dims_t xd, const dnnl_dims_t wd,
                        const dnnl_dims_t yd, const Shape &s, float *x, float *w, float *y) {
  dnnl_memory_desc_t xmd, wmd, ymd, pmd[3];
  CHECK(dnnl_memory_desc_init_by_tag(&pmd[0], 4, xd, dnnl_f32, dnnl_nchw));
  CHECK(dnnl_memory_desc_init_by_tag(&pmd[1], 4, wd, dnnl_f32, dnnl_oihw));
  CHECK(dnnl_memory_desc_init_by_tag(&pmd[2], 4, yd, dnnl_f32, dnnl_nchw));
  CHECK(dnnl_memory_desc_init_by_tag(&xmd, 4, xd, dnnl_f32, blocked ? dnnl_format_tag_any : dnnl_nchw));
  CHECK(dnnl_memory_desc_init_by_tag(&wmd, 4, wd, dnnl_f32, blocked ? dnnl_format_tag_any : dnnl_oihw));
  CHECK(dnnl_memory_desc_init_by_tag(&ymd, 4, yd, dnnl_f32, blocked ? dnnl_format_tag_any : dnnl_nchw));
  dnnl_dims_t st = {s.stride, s.stride}, dl = {0, 0}, pl = {s.pad, s.pad}, pr;
  for (int i = 0; i < 2; i++) pr[i] = (yd[2 + i] - 1) * s.stride + s.r - xd[2 + i] - s.pad;
  dnnl_convolution_desc_t fwd, bwd;
  CHECK(dnnl_dilated_convolution_forward_desc_init(&fwd, dir == FWD ? dnnl_forward_inference : dnnl_forward_training,
                                                   dnnl_convolution_direct, &xmd, &wmd, NULL, &ymd, st, dl, pl, pr));
  dnnl_primitive_desc_t fpd, pd;
  CHECK(dnnl_primitive_desc_create(&fpd, &fwd, NULL, eng, NULL));
  if (dir == FWD) {
    pd = fpd;
  } else {
    if (dir == BWDD)
      CHECK(dnnl_dilated_convolution_backward_data_desc_init(&bwd, dnnl_convolution_direct, &xmd, &wmd, &ymd, st, dl,
                                                             pl, pr));
    else
      CHECK(dnnl_dilated_convolution_backward_weights_desc_init(&bwd, dnnl_convolution_direct, &xmd, &wmd, NULL, &ymd,
                                                                st, dl, pl, pr));
    CHECK(dnnl_primitive_desc_create(&pd, &bwd, NULL, eng, fpd));
    dnnl_primitive_desc_destroy(fpd);
  }
  const char *impl = "?";
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, &impl));
  snprintf(d->impl, sizeof d->impl, "%s", impl);
  CHECK(dnnl_primitive_create(&d->prim, pd));
  int arg[3] = {dir == BWDD ? DNNL_ARG_DIFF_SRC : DNNL_ARG_SRC, dir == BWDF ? DNNL_ARG_DIFF_WEIGHTS : DNNL_ARG_WEIGHTS,
                dir == FWD ? DNNL_ARG_DST : DNNL_ARG_DIFF_DST};
  float *host[3] = {x, w, y};
  d->out = dir == FWD ? 2 : dir == BWDD ? 0 : 1;
  for (int i = 0; i < 3; i++) {
    CHECK(dnnl_memory_create(&d->plain[i], &pmd[i], eng, host[i]));
    if (blocked) {   /* oneDNN's layout; inputs reordered into it here, before any timing */
      CHECK(dnnl_memory_create(&d->m[i], dnnl_primitive_desc_query_md(pd, dnnl_query_exec_arg_md, arg[i]), eng,
                               DNNL_MEMORY_ALLOCATE));
      d->to[i] = i == d->out ? reorder_of(d->m[i], d->plain[i], d->to_args[i])
                             : reorder_of(d->plain[i], d->m[i], d->to_args[i]);
      if (i != d->out) CHECK(dnnl_primitive_execute(d->to[i], strm, 2, d->to_args[i]));
    } else {
      d->m[i] = d->plain[i];
      d->to[i] = NULL;
    }
    d->args[i] = dnnl_exec_arg_t{arg[i], d->m[i]};
  }
  dnnl_primitive_desc_destroy(pd);
}

/* Blocked: the inputs from their plain host buffers into oneDNN's layout
 * (ins), or the result back into its plain buffer (!ins). */
static void direct_reorder(Direct *d, int ins) {
  for (int i = 0; i < 3; i++)
    if (d->to[i] && (i != d->out) == ins) CHECK(dnnl_primitive_execute(d->to[i], strm, 2, d->to_args[i]));
  CHECK(dnnl_stream_wait(strm));
}

static void direct_free(Direct *d) {
  dnnl_primitive_destroy(d->prim);
  for (int i = 0; i < 3; i++) {
    if (d->to[i]) dnnl_primitive_destroy(d->to[i]);
    if (d->m[i] != d->plain[i]) dnnl_memory_destroy(d->m[i]);
    dnnl_memory_destroy(d->plain[i]);
  }
}

/* Normwise: the largest difference against the largest magnitude. The two
 * sides may sum in different orders (oneDNN splits reductions by thread),
 * so elementwise differences of results near 0 are not errors. */
static void compare(const char *key, const char *dir, const char *what, const float *a, const float *b, size_t n) {
  double diff = 0, mag = 0;
  for (size_t i = 0; i < n; i++) {
    double e = fabs((double)a[i] - (double)b[i]);
    if (!(e <= diff)) diff = e;
    if (fabs((double)b[i]) > mag) mag = fabs((double)b[i]);
  }
  if (!(diff <= 1e-4 * (1 + mag))) {
    fprintf(stderr, "bench_conv: %s %s: facade and oneDNN (%s) differ by %.3g (largest magnitude %.3g)\n", key, dir,
            what, diff, mag);
    exit(1);
  }
}

static void run_shape(cudnnHandle_t h, const Shape &s, int n) {
  int o = (s.h + 2 * s.pad - s.r) / s.stride + 1;
  size_t nx = (size_t)n * s.c * s.h * s.h, nw = (size_t)s.k * s.c * s.r * s.r, ny = (size_t)n * s.k * o * o;
  float *hx = (float *)malloc(nx * 4), *hw = (float *)malloc(nw * 4), *hy = (float *)malloc(ny * 4);
  float *ox = (float *)malloc(nx * 4), *ow = (float *)malloc(nw * 4), *oy = (float *)malloc(ny * 4);
  size_t most = nx > ny ? (nx > nw ? nx : nw) : (ny > nw ? ny : nw);
  float *back = (float *)malloc(most * 4), *bout = (float *)malloc(most * 4);   /* bout: the blocked side's results */
  fill(hx, nx, 1), fill(hw, nw, 2), fill(hy, ny, 3);
  float *x, *w, *y, *dx, *dw, *dy;
  CHECK(cudaMalloc(&x, nx * 4));
  CHECK(cudaMalloc(&w, nw * 4));
  CHECK(cudaMalloc(&y, ny * 4));
  CHECK(cudaMalloc(&dx, nx * 4));
  CHECK(cudaMalloc(&dw, nw * 4));
  CHECK(cudaMalloc(&dy, ny * 4));
  CHECK(cudaMemcpy(x, hx, nx * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw, nw * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, hy, ny * 4, cudaMemcpyHostToDevice));

  cudnnTensorDescriptor_t xd, yd;
  cudnnFilterDescriptor_t wd;
  cudnnConvolutionDescriptor_t cd;
  CHECK(cudnnCreateTensorDescriptor(&xd));
  CHECK(cudnnCreateTensorDescriptor(&yd));
  CHECK(cudnnCreateFilterDescriptor(&wd));
  CHECK(cudnnCreateConvolutionDescriptor(&cd));
  CHECK(cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, s.c, s.h, s.h));
  CHECK(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, s.k, s.c, s.r, s.r));
  CHECK(cudnnSetConvolution2dDescriptor(cd, s.pad, s.pad, s.stride, s.stride, 1, 1, CUDNN_CROSS_CORRELATION,
                                        CUDNN_DATA_FLOAT));
  int on, oc, oh, ow_;
  CHECK(cudnnGetConvolution2dForwardOutputDim(cd, xd, wd, &on, &oc, &oh, &ow_));
  if (on != n || oc != s.k || oh != o || ow_ != o) {
    fprintf(stderr, "bench_conv: %s: output %dx%dx%dx%d, expected %dx%dx%dx%d\n", s.key, on, oc, oh, ow_, n, s.k, o, o);
    exit(1);
  }
  CHECK(cudnnSetTensor4dDescriptor(yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, s.k, o, o));

  dnnl_dims_t xdim = {n, s.c, s.h, s.h}, wdim = {s.k, s.c, s.r, s.r}, ydim = {n, s.k, o, o};
  Direct dd[3], bd[3];
  direct_make(&dd[FWD], FWD, 0, xdim, wdim, ydim, s, hx, hw, oy);
  direct_make(&dd[BWDD], BWDD, 0, xdim, wdim, ydim, s, ox, hw, hy);
  direct_make(&dd[BWDF], BWDF, 0, xdim, wdim, ydim, s, hx, ow, hy);
  if (blocked_too) {
    direct_make(&bd[FWD], FWD, 1, xdim, wdim, ydim, s, hx, hw, bout);
    direct_make(&bd[BWDD], BWDD, 1, xdim, wdim, ydim, s, bout, hw, hy);
    direct_make(&bd[BWDF], BWDF, 1, xdim, wdim, ydim, s, hx, bout, hy);
  }
  printf("GFLOP %s %.3f\n", s.key, 2e-9 * n * s.k * o * o * (double)s.c * s.r * s.r);

  const float one = 1, zero = 0;
  for (int dir = FWD; dir <= BWDF; dir++) {
    double best_f = 1e30, best_d = 1e30, best_b = 1e30, best_br = 1e30;
    for (int r = 0; r < rounds + 1; r++) {   /* round 0 warms them up */
      double t0 = now();
      if (dir == FWD)
        CHECK(cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0,
                                      &zero, yd, y));
      else if (dir == BWDD)
        CHECK(cudnnConvolutionBackwardData(h, &one, wd, w, yd, dy, cd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, NULL, 0,
                                           &zero, xd, dx));
      else
        CHECK(cudnnConvolutionBackwardFilter(h, &one, xd, x, yd, dy, cd, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, NULL, 0,
                                             &zero, wd, dw));
      CHECK(cudaDeviceSynchronize());
      double t1 = now();
      CHECK(dnnl_primitive_execute(dd[dir].prim, strm, 3, dd[dir].args));
      CHECK(dnnl_stream_wait(strm));
      double t2 = now();
      double t3 = t2, t4 = t2, t5 = t2;
      if (blocked_too) {
        direct_reorder(&bd[dir], 1);
        t3 = now();
        CHECK(dnnl_primitive_execute(bd[dir].prim, strm, 3, bd[dir].args));
        CHECK(dnnl_stream_wait(strm));
        t4 = now();
        direct_reorder(&bd[dir], 0);
        t5 = now();
      }
      if (r) {
        if (t1 - t0 < best_f) best_f = t1 - t0;
        if (t2 - t1 < best_d) best_d = t2 - t1;
        if (t4 - t3 < best_b) best_b = t4 - t3;
        if (t5 - t2 < best_br) best_br = t5 - t2;
      }
    }
    const float *got = dir == FWD ? y : dir == BWDD ? dx : dw;
    const float *want = dir == FWD ? oy : dir == BWDD ? ox : ow;
    size_t cnt = dir == FWD ? ny : dir == BWDD ? nx : nw;
    CHECK(cudaMemcpy(back, got, cnt * 4, cudaMemcpyDeviceToHost));
    compare(s.key, dir_key[dir], "plain", back, want, cnt);
    printf("RESULT %s_%s_facade %.6f\nRESULT %s_%s_onednn %.6f\nIMPL %s_%s %s\n", s.key, dir_key[dir], best_f, s.key,
           dir_key[dir], best_d, s.key, dir_key[dir], dd[dir].impl);
    if (blocked_too) {
      /* the last round reordered the blocked result into bout: compared too */
      compare(s.key, dir_key[dir], "blocked", back, bout, cnt);
      printf("RESULT %s_%s_blocked %.6f\nRESULT %s_%s_reordered %.6f\nIMPL %s_%s_blocked %s\n", s.key, dir_key[dir],
             best_b, s.key, dir_key[dir], best_br, s.key, dir_key[dir], bd[dir].impl);
    }
    fflush(stdout);
  }
  for (int i = 0; i < 3; i++) {
    direct_free(&dd[i]);
    if (blocked_too) direct_free(&bd[i]);
  }
  cudnnDestroyTensorDescriptor(xd), cudnnDestroyTensorDescriptor(yd), cudnnDestroyFilterDescriptor(wd);
  cudnnDestroyConvolutionDescriptor(cd);
  cudaFree(x), cudaFree(w), cudaFree(y), cudaFree(dx), cudaFree(dw), cudaFree(dy);
  free(hx), free(hw), free(hy), free(ox), free(ow), free(oy), free(back), free(bout);
}

/* The cost of one call: a forward convolution of 1 x 8 x 8 x 8 by 8 filters
 * of 1 x 1 (1,024 multiply-adds), each call synchronized, against the same
 * oneDNN primitive executed and waited for. */
static void overhead(cudnnHandle_t h, int calls) {
  const Shape s = {"tiny_1x1_8to8_8", 8, 8, 8, 1, 1, 0};
  size_t nx = 8 * 8 * 8, nw = 8 * 8;
  float *hx = (float *)malloc(nx * 4), *hw = (float *)malloc(nw * 4), *hy = (float *)malloc(nx * 4),
        *back = (float *)malloc(nx * 4);
  fill(hx, nx, 1), fill(hw, nw, 2);
  float *x, *w, *y;
  CHECK(cudaMalloc(&x, nx * 4));
  CHECK(cudaMalloc(&w, nw * 4));
  CHECK(cudaMalloc(&y, nx * 4));
  CHECK(cudaMemcpy(x, hx, nx * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hw, nw * 4, cudaMemcpyHostToDevice));
  cudnnTensorDescriptor_t xd;
  cudnnFilterDescriptor_t wd;
  cudnnConvolutionDescriptor_t cd;
  CHECK(cudnnCreateTensorDescriptor(&xd));
  CHECK(cudnnCreateFilterDescriptor(&wd));
  CHECK(cudnnCreateConvolutionDescriptor(&cd));
  CHECK(cudnnSetTensor4dDescriptor(xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 8, 8, 8));
  CHECK(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 8, 1, 1));
  CHECK(cudnnSetConvolution2dDescriptor(cd, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  dnnl_dims_t dims = {1, 8, 8, 8}, wdims = {8, 8, 1, 1};
  Direct d;
  direct_make(&d, FWD, 0, dims, wdims, dims, s, hx, hw, hy);
  const float one = 1, zero = 0;
  double best_f = 1e30, best_d = 1e30;
  for (int r = 0; r < rounds + 1; r++) {
    double t0 = now();
    for (int i = 0; i < calls; i++) {
      CHECK(cudnnConvolutionForward(h, &one, xd, x, wd, w, cd, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, NULL, 0, &zero,
                                    xd, y));
      CHECK(cudaDeviceSynchronize());
    }
    double t1 = now();
    for (int i = 0; i < calls; i++) {
      CHECK(dnnl_primitive_execute(d.prim, strm, 3, d.args));
      CHECK(dnnl_stream_wait(strm));
    }
    double t2 = now();
    if (r) {
      if (t1 - t0 < best_f) best_f = t1 - t0;
      if (t2 - t1 < best_d) best_d = t2 - t1;
    }
  }
  CHECK(cudaMemcpy(back, y, nx * 4, cudaMemcpyDeviceToHost));
  compare(s.key, "fwd", "plain", back, hy, nx);
  printf("RESULT call_fwd_facade %.9f\nRESULT call_fwd_onednn %.9f\n", best_f / calls, best_d / calls);
  direct_free(&d);
  cudnnDestroyTensorDescriptor(xd), cudnnDestroyFilterDescriptor(wd), cudnnDestroyConvolutionDescriptor(cd);
  cudaFree(x), cudaFree(w), cudaFree(y);
  free(hx), free(hw), free(hy), free(back);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  const char *only = getenv("SHAPES");   /* a substring of the shape keys to run, e.g. conv4 */
  if (getenv("ROUNDS")) rounds = atoi(getenv("ROUNDS"));
  if (getenv("BLOCKED")) blocked_too = atoi(getenv("BLOCKED"));
  if (n < 1 || rounds < 1) {
    fprintf(stderr, "usage: bench_conv [N]   (ROUNDS >= 1)\n");
    return 2;
  }
  cudnnHandle_t h;
  CHECK(cudnnCreate(&h));
  CHECK(dnnl_engine_create(&eng, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&strm, eng, dnnl_stream_default_flags));
  printf("N %d\nROUNDS %d\n", n, rounds);
  for (const Shape &s : shapes)
    if (!only || strstr(s.key, only)) run_shape(h, s, n);
  if (!only || strstr("call", only)) overhead(h, 1000);
  dnnl_stream_destroy(strm);
  dnnl_engine_destroy(eng);
  cudnnDestroy(h);
  return 0;
}
