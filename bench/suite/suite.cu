// suite.cu: the benchmark suite's CUDA form, run through cubridge (bench/suite.sh).
//   suite_cuda KERNEL [UNITS]   one warm-up unit (checked), then UNITS timed units
//                               (default 3); prints "RESULT KERNEL <ms per unit>"
// Kernels and sizes: bench/suite/suite.h; the same work as suite_omp.c and suite.cl.
#include <cuda_runtime.h>

#include "suite.h"

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "suite_cuda: %s:%d: %s: %s\n", __FILE__, __LINE__, #call,            \
              cudaGetErrorString(e_));                                                     \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

// ---- kernels ------------------------------------------------------------------------

__global__ void vectoradd_kernel(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void saxpy_kernel(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = fmaf(a, x[i], y[i]);
}

__global__ void sgemm_kernel(const float *A, const float *B, float *C, int n) {
  __shared__ float As[SUITE_GEMM_TILE][SUITE_GEMM_TILE];
  __shared__ float Bs[SUITE_GEMM_TILE][SUITE_GEMM_TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * SUITE_GEMM_TILE + ty, col = blockIdx.x * SUITE_GEMM_TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += SUITE_GEMM_TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < SUITE_GEMM_TILE; k++) sum = fmaf(As[ty][k], Bs[k][tx], sum);
    __syncthreads();
  }
  C[row * n + col] = sum;
}

__global__ void reduction_kernel(const float *x, float *out, int n) {
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += x[i];
  for (int off = 16; off > 0; off >>= 1) s += __shfl_down_sync(0xffffffffu, s, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, s);
}

__global__ void stencil_kernel(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  int i = y * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
    out[i] = in[i];
  else
    out[i] = fmaf(SUITE_STENCIL_C1, (in[i - n] + in[i + n]) + (in[i - 1] + in[i + 1]), SUITE_STENCIL_C0 * in[i]);
}

__global__ void histogram_kernel(const unsigned *words, unsigned *hist, int n) {
  __shared__ unsigned h[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned w = words[i];
    atomicAdd(&h[w & 255u], 1u);
    atomicAdd(&h[(w >> 8) & 255u], 1u);
    atomicAdd(&h[(w >> 16) & 255u], 1u);
    atomicAdd(&h[w >> 24], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x) atomicAdd(&hist[b], h[b]);
}

__global__ void transpose_kernel(const float *in, float *out, int n) {
  __shared__ float tile[SUITE_TR_TILE][SUITE_TR_TILE + 1];
  int x = blockIdx.x * SUITE_TR_TILE + threadIdx.x, y = blockIdx.y * SUITE_TR_TILE + threadIdx.y;
  for (int j = 0; j < SUITE_TR_TILE; j += SUITE_TR_ROWS) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * SUITE_TR_TILE + threadIdx.x;
  y = blockIdx.x * SUITE_TR_TILE + threadIdx.y;
  for (int j = 0; j < SUITE_TR_TILE; j += SUITE_TR_ROWS) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void nbody_kernel(const float4 *pos, float4 *acc, int n) {
  __shared__ float4 tile[SUITE_NBODY_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int t = 0; t < n; t += SUITE_NBODY_TILE) {
    tile[threadIdx.x] = pos[t + threadIdx.x];
    __syncthreads();
    for (int j = 0; j < SUITE_NBODY_TILE; j++) {
      float4 q = tile[j];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float d2 = dx * dx + dy * dy + dz * dz + SUITE_NBODY_EPS2;
      float inv = rsqrtf(d2);
      float s = q.w * inv * inv * inv;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  acc[i] = make_float4(ax, ay, az, 0.0f);
}

// ---- drivers: each runs one unit of its kernel ----------------------------------------

typedef struct state {
  float *a, *b, *c;        // device
  float *ha, *hb, *hc;     // host
  unsigned *w, *hist, *hw, *hh;
  int launches;            // so far (reduction: results slot)
} state;

static void sync_all() { CHECK(cudaGetLastError()); CHECK(cudaDeviceSynchronize()); }

static float *dev_from(const float *h, size_t n) {
  float *d;
  CHECK(cudaMalloc(&d, n * sizeof *d));
  CHECK(cudaMemcpy(d, h, n * sizeof *d, cudaMemcpyHostToDevice));
  return d;
}

static float *host_floats(size_t n, uint32_t seed) {
  float *p = (float *)malloc(n * sizeof *p);
  suite_fill(p, n, seed);
  return p;
}

static void setup(const char *k, state *s) {
  memset(s, 0, sizeof *s);
  if (!strcmp(k, "vectoradd") || !strcmp(k, "saxpy")) {
    size_t n = SUITE_VEC_N;
    s->ha = host_floats(n, 1);
    s->hb = host_floats(n, 2);
    s->hc = (float *)malloc(n * sizeof(float));
    s->a = dev_from(s->ha, n);
    s->b = dev_from(s->hb, n);
    s->c = dev_from(s->hb, n);
  } else if (!strcmp(k, "sgemm")) {
    size_t n = (size_t)SUITE_GEMM_N * SUITE_GEMM_N;
    s->ha = host_floats(n, 3);
    s->hb = host_floats(n, 4);
    s->hc = (float *)malloc(n * sizeof(float));
    s->a = dev_from(s->ha, n);
    s->b = dev_from(s->hb, n);
    s->c = dev_from(s->hb, n);
  } else if (!strcmp(k, "reduction")) {
    s->ha = host_floats(SUITE_RED_N, 5);
    s->a = dev_from(s->ha, SUITE_RED_N);
    CHECK(cudaMalloc(&s->c, 4096 * sizeof(float)));
    CHECK(cudaMemset(s->c, 0, 4096 * sizeof(float)));
  } else if (!strcmp(k, "stencil") || !strcmp(k, "transpose")) {
    size_t n = (size_t)SUITE_STENCIL_N * SUITE_STENCIL_N;
    s->ha = host_floats(n, 6);
    s->hc = (float *)malloc(n * sizeof(float));
    s->a = dev_from(s->ha, n);
    s->b = dev_from(s->ha, n);
  } else if (!strcmp(k, "histogram")) {
    s->hw = (unsigned *)malloc((size_t)SUITE_HIST_WORDS * 4);
    for (size_t i = 0; i < SUITE_HIST_WORDS; i++) s->hw[i] = suite_hash((uint32_t)i * 3u + 1u) & 0x3f7f1fffu;
    s->hh = (unsigned *)malloc(256 * 4);
    CHECK(cudaMalloc(&s->w, (size_t)SUITE_HIST_WORDS * 4));
    CHECK(cudaMemcpy(s->w, s->hw, (size_t)SUITE_HIST_WORDS * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMalloc(&s->hist, 256 * 4));
  } else if (!strcmp(k, "nbody")) {
    s->ha = (float *)malloc((size_t)SUITE_NBODY_N * 16);
    suite_nbody_init(s->ha, SUITE_NBODY_N);
    s->hc = (float *)malloc((size_t)SUITE_NBODY_N * 16);
    s->a = dev_from(s->ha, (size_t)SUITE_NBODY_N * 4);
    CHECK(cudaMalloc(&s->c, (size_t)SUITE_NBODY_N * 16));
  } else {
    fprintf(stderr, "suite_cuda: unknown kernel %s\n", k);
    exit(2);
  }
}

static void unit(const char *k, state *s) {
  if (!strcmp(k, "vectoradd")) {
    for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
      vectoradd_kernel<<<SUITE_VEC_N / 256, 256>>>(s->a, s->b, s->c, SUITE_VEC_N);
  } else if (!strcmp(k, "saxpy")) {
    for (int r = 0; r < SUITE_VEC_LAUNCHES; r++)
      saxpy_kernel<<<SUITE_SAXPY_BLOCKS, 256>>>(SUITE_SAXPY_A, s->a, s->c, SUITE_VEC_N);
  } else if (!strcmp(k, "sgemm")) {
    dim3 block(SUITE_GEMM_TILE, SUITE_GEMM_TILE), grid(SUITE_GEMM_N / SUITE_GEMM_TILE, SUITE_GEMM_N / SUITE_GEMM_TILE);
    sgemm_kernel<<<grid, block>>>(s->a, s->b, s->c, SUITE_GEMM_N);
  } else if (!strcmp(k, "reduction")) {
    for (int r = 0; r < SUITE_RED_LAUNCHES; r++)
      reduction_kernel<<<SUITE_RED_BLOCKS, 256>>>(s->a, s->c + (s->launches++ % 4096), SUITE_RED_N);
  } else if (!strcmp(k, "stencil")) {
    dim3 block(32, 8), grid(SUITE_STENCIL_N / 32, SUITE_STENCIL_N / 8);
    for (int r = 0; r < SUITE_STENCIL_SWEEPS; r++) {
      stencil_kernel<<<grid, block>>>(s->a, s->b, SUITE_STENCIL_N);
      float *t = s->a;
      s->a = s->b;
      s->b = t;
    }
  } else if (!strcmp(k, "histogram")) {
    for (int r = 0; r < SUITE_HIST_PASSES; r++)
      histogram_kernel<<<SUITE_HIST_BLOCKS, 256>>>(s->w, s->hist, SUITE_HIST_WORDS);
  } else if (!strcmp(k, "transpose")) {
    dim3 block(SUITE_TR_TILE, SUITE_TR_ROWS), grid(SUITE_TR_N / SUITE_TR_TILE, SUITE_TR_N / SUITE_TR_TILE);
    for (int r = 0; r < SUITE_TR_REPS; r++) transpose_kernel<<<grid, block>>>(s->a, s->b, SUITE_TR_N);
  } else if (!strcmp(k, "nbody")) {
    nbody_kernel<<<SUITE_NBODY_N / SUITE_NBODY_TILE, SUITE_NBODY_TILE>>>((const float4 *)s->a, (float4 *)s->c,
                                                                         SUITE_NBODY_N);
  }
  sync_all();
}

static int check(const char *k, state *s) {
  if (!strcmp(k, "vectoradd")) {
    CHECK(cudaMemcpy(s->hc, s->c, (size_t)SUITE_VEC_N * 4, cudaMemcpyDeviceToHost));
    return suite_check_vectoradd(s->ha, s->hb, s->hc, SUITE_VEC_N);
  }
  if (!strcmp(k, "saxpy")) {
    CHECK(cudaMemcpy(s->hc, s->c, (size_t)SUITE_VEC_N * 4, cudaMemcpyDeviceToHost));
    return suite_check_saxpy(s->ha, s->hb, s->hc, SUITE_VEC_N, SUITE_VEC_LAUNCHES);
  }
  if (!strcmp(k, "sgemm")) {
    CHECK(cudaMemcpy(s->hc, s->c, (size_t)SUITE_GEMM_N * SUITE_GEMM_N * 4, cudaMemcpyDeviceToHost));
    return suite_check_sgemm(s->ha, s->hb, s->hc, SUITE_GEMM_N);
  }
  if (!strcmp(k, "reduction")) {
    float r[SUITE_RED_LAUNCHES];
    CHECK(cudaMemcpy(r, s->c, sizeof r, cudaMemcpyDeviceToHost));
    for (int i = 0; i < SUITE_RED_LAUNCHES; i++)
      if (suite_check_reduction(s->ha, SUITE_RED_N, r[i])) return 1;
    return 0;
  }
  if (!strcmp(k, "stencil")) {
    CHECK(cudaMemcpy(s->hc, s->a, (size_t)SUITE_STENCIL_N * SUITE_STENCIL_N * 4, cudaMemcpyDeviceToHost));
    return suite_check_stencil(s->ha, s->hc, SUITE_STENCIL_N, SUITE_STENCIL_SWEEPS);
  }
  if (!strcmp(k, "histogram")) {
    CHECK(cudaMemcpy(s->hh, s->hist, 256 * 4, cudaMemcpyDeviceToHost));
    return suite_check_histogram(s->hw, SUITE_HIST_WORDS, s->hh, SUITE_HIST_PASSES);
  }
  if (!strcmp(k, "transpose")) {
    CHECK(cudaMemcpy(s->hc, s->b, (size_t)SUITE_TR_N * SUITE_TR_N * 4, cudaMemcpyDeviceToHost));
    return suite_check_transpose(s->ha, s->hc, SUITE_TR_N);
  }
  CHECK(cudaMemcpy(s->hc, s->c, (size_t)SUITE_NBODY_N * 16, cudaMemcpyDeviceToHost));
  return suite_check_nbody(s->ha, s->hc, SUITE_NBODY_N);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: suite_cuda KERNEL [UNITS]\n");
    return 2;
  }
  const char *k = argv[1];
  int units = argc > 2 ? atoi(argv[2]) : 3;
  if (units < 1 || units > 64) units = 3;
  state s;
  setup(k, &s);
  if (!strcmp(k, "histogram")) CHECK(cudaMemset(s.hist, 0, 256 * 4));
  unit(k, &s);  // warm-up (the JIT compile), then checked
  if (check(k, &s)) return 1;
  double ms[64];
  for (int u = 0; u < units; u++) {
    double t0 = suite_now();
    unit(k, &s);
    ms[u] = suite_now() - t0;
  }
  suite_report(k, ms, units);
  return 0;
}
