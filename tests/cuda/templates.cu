// templates: kernels templated on element type, functor and a compile-time
// block size, instantiated for int, float, double and unsigned char.
#include "check.h"

struct plus { template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; } };
struct maxop { template <typename T> __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; } };

template <typename T, typename Op, int BLOCK>
__global__ void block_reduce(const T *in, T *out, T identity, int n) {
  __shared__ T buf[BLOCK];
  Op op;
  int i = blockIdx.x * BLOCK + threadIdx.x;
  buf[threadIdx.x] = i < n ? in[i] : identity;
  __syncthreads();
  for (int s = BLOCK / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) buf[threadIdx.x] = op(buf[threadIdx.x], buf[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

template <typename T, typename Op, int BLOCK>
static void run(const char *what, T (*gen)(int), T identity, int n) {
  int blocks = (n + BLOCK - 1) / BLOCK;
  T *in = (T *)malloc(n * sizeof(T)), *got = (T *)malloc(blocks * sizeof(T));
  T *want = (T *)malloc(blocks * sizeof(T));
  Op op;
  for (int i = 0; i < n; i++) in[i] = gen(i);
  // The same tree as the kernel, so float sums round the same way.
  T buf[BLOCK];
  for (int b = 0; b < blocks; b++) {
    for (int t = 0; t < BLOCK; t++) buf[t] = b * BLOCK + t < n ? in[b * BLOCK + t] : identity;
    for (int s = BLOCK / 2; s > 0; s >>= 1)
      for (int t = 0; t < s; t++) buf[t] = op(buf[t], buf[t + s]);
    want[b] = buf[0];
  }
  T *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(T)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(T)));
  CHECK(cudaMemcpy(din, in, n * sizeof(T), cudaMemcpyHostToDevice));
  block_reduce<T, Op, BLOCK><<<blocks, BLOCK>>>(din, dout, identity, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, blocks * sizeof(T), cudaMemcpyDeviceToHost));
  if (memcmp(got, want, blocks * sizeof(T)) != 0) {
    for (int b = 0; b < blocks; b++)
      if (memcmp(&got[b], &want[b], sizeof(T)) != 0) {
        printf("FAIL %s: index %d: got %.17g, expected %.17g\n", what, b, (double)got[b], (double)want[b]);
        exit(1);
      }
  }
  CHECK(cudaFree(din)); CHECK(cudaFree(dout));
  free(in); free(got); free(want);
}

static int gen_int(int i) { return (i * 7919) % 1000 - 500; }
static float gen_float(int i) { return (float)((i * 31) % 97) * 0.37f - 11.0f; }
static double gen_double(int i) { return (double)((i * 13) % 1009) / 3.0; }
static unsigned char gen_u8(int i) { return (unsigned char)((i * 37) ^ (i >> 3)); }

int main(void) {
  run<int, plus, 128>("int sum", gen_int, 0, 100000);
  run<int, maxop, 64>("int max", gen_int, -2147483647 - 1, 77777);
  run<float, plus, 256>("float sum", gen_float, 0.0f, 50000);
  run<double, plus, 32>("double sum", gen_double, 0.0, 40000);
  run<double, maxop, 128>("double max", gen_double, -1e300, 40000);
  run<unsigned char, maxop, 256>("u8 max", gen_u8, (unsigned char)0, 9999);
  return pass("templates");
}
