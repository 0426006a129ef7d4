// shared_per_kernel: static shared memory belongs to each kernel, not to the
// module. 1,500 instantiations of a kernel template with a function-scope
// `__shared__ float s[256]` (1 KiB each), all launched and checked, and each
// one's cudaFuncGetAttributes().sharedSizeBytes must be 1,024 (a module-wide
// layout would stack them: the 100th would ask for 100 KiB). Then module-scope
// `__shared__` arrays that two kernels share, and a __noinline__ device
// function that names one from two kernels whose layouts differ; each kernel's
// sharedSizeBytes is the sum of what it uses.
#include "check.h"

#include <utility>

#define NKERNELS 1500
#define THREADS 64

// Kernel N: each thread writes 4 of the 256 floats, then reads 4 others.
template <int N>
__global__ void own_shared(int *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  for (int j = 0; j < 4; j++) s[t + THREADS * j] = (float)(N * 4 + t * 4 + j);
  __syncthreads();
  int sum = 0;
  for (int j = 0; j < 4; j++) sum += (int)s[255 - (t + THREADS * j)];
  out[N * THREADS + t] = sum;
}

static int own_expected(int n, int t) {
  int sum = 0;
  for (int j = 0; j < 4; j++) {
    int k = 255 - (t + THREADS * j);  // the index read; written by thread k % 64, step k / 64
    sum += n * 4 + (k % THREADS) * 4 + k / THREADS;
  }
  return sum;
}

typedef void (*kernel_fn)(int *);

template <int... I>
static const kernel_fn *own_table(std::integer_sequence<int, I...>) {
  static const kernel_fn table[] = {own_shared<I>...};
  return table;
}

// Module scope: both_a in pair_first and pair_second, both_b in pair_first only,
// counter in bump (a __noinline__ function) called from pair_second and from
// with_counter, whose own array comes first in its layout.
__shared__ int both_a[128];    // 512 bytes
__shared__ float both_b[64];   // 256 bytes
__shared__ int counter[32];    // 128 bytes

__device__ __noinline__ int bump(int i, int by) {
  counter[i] += by;
  return counter[i];
}

__global__ void pair_first(int *out) {
  int t = threadIdx.x;
  both_a[t] = t * 3;
  both_a[t + THREADS] = t * 5;
  both_b[t] = (float)(t + 1);
  __syncthreads();
  out[t] = both_a[THREADS - 1 - t] + both_a[2 * THREADS - 1 - t] + (int)both_b[THREADS - 1 - t];
}

__global__ void pair_second(int *out) {
  int t = threadIdx.x;
  both_a[t] = t * 7;
  both_a[t + THREADS] = 1;
  if (t < 32) counter[t] = t;
  __syncthreads();
  if (t < 32) bump(t, 100);
  __syncthreads();
  out[t] = both_a[THREADS - 1 - t] + both_a[THREADS + t] + (t < 32 ? counter[31 - t] : 0);
}

__global__ void with_counter(int *out) {
  __shared__ int mine[96];     // 384 bytes
  int t = threadIdx.x;
  if (t < 32) counter[t] = 1000 + t;
  mine[t] = -t;
  if (t < 32) mine[THREADS + t] = 2 * t;
  __syncthreads();
  int r = t < 32 ? bump(t, t) : 0;
  __syncthreads();
  out[t] = r + mine[THREADS - 1 - t] + (t < 32 ? mine[THREADS + 31 - t] : 0);
}

static void check_shared_size(const char *name, const void *fn, size_t want) {
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, fn));
  if (attr.sharedSizeBytes != want) {
    printf("FAIL %s: sharedSizeBytes %zu, expected %zu\n", name, attr.sharedSizeBytes, want);
    exit(1);
  }
}

int main(void) {
  const kernel_fn *own = own_table(std::make_integer_sequence<int, NKERNELS>());
  int *d_out;
  const size_t n_out = (size_t)NKERNELS * THREADS;
  CHECK(cudaMalloc(&d_out, n_out * sizeof(int)));
  CHECK(cudaMemset(d_out, 0xff, n_out * sizeof(int)));
  for (int n = 0; n < NKERNELS; n++) {
    char name[64];
    snprintf(name, sizeof name, "own_shared<%d>", n);
    check_shared_size(name, (const void *)own[n], 256 * sizeof(float));
    own[n]<<<1, THREADS>>>(d_out);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  int *got = (int *)malloc(n_out * sizeof(int)), *want = (int *)malloc(n_out * sizeof(int));
  CHECK(cudaMemcpy(got, d_out, n_out * sizeof(int), cudaMemcpyDeviceToHost));
  for (int n = 0; n < NKERNELS; n++)
    for (int t = 0; t < THREADS; t++) want[n * THREADS + t] = own_expected(n, t);
  check_i32("own_shared", got, want, n_out);
  printf("%d kernels with 1024 bytes each\n", NKERNELS);

  check_shared_size("pair_first", (const void *)pair_first, sizeof both_a + sizeof both_b);
  check_shared_size("pair_second", (const void *)pair_second, sizeof both_a + sizeof counter);
  check_shared_size("with_counter", (const void *)with_counter, 96 * sizeof(int) + sizeof counter);

  pair_first<<<1, THREADS>>>(d_out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < THREADS; t++) {
    int u = THREADS - 1 - t;
    want[t] = u * 3 + u * 5 + (u + 1);
  }
  check_i32("pair_first", got, want, THREADS);

  pair_second<<<1, THREADS>>>(d_out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < THREADS; t++) want[t] = (THREADS - 1 - t) * 7 + 1 + (t < 32 ? (31 - t) + 100 : 0);
  check_i32("pair_second", got, want, THREADS);

  with_counter<<<1, THREADS>>>(d_out);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d_out, THREADS * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < THREADS; t++)
    want[t] = (t < 32 ? 1000 + 2 * t : 0) - (THREADS - 1 - t) + (t < 32 ? 2 * (31 - t) : 0);
  check_i32("with_counter", got, want, THREADS);
  printf("module-scope shared arrays: 768, 640 and 512 bytes\n");

  CHECK(cudaFree(d_out));
  free(got);
  free(want);
  return pass("shared_per_kernel");
}
