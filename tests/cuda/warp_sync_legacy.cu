// warp_sync_legacy: pre-Volta warp-synchronous code -- `volatile` shared
// memory, no __syncwarp, relying on the 32 lanes of a warp running in
// lockstep (CUDA samples' reduction "warpReduce", CUDPP-style warp scan).
// Each step must see every lane's loads before any lane's store.
//
// The host reproduces the lockstep order exactly (each step reads the old
// values, then writes), so the float block sums are checked bit for bit.
#include "check.h"

#define THREADS 256

__device__ void warp_reduce(volatile float *s, int tid) {
  s[tid] += s[tid + 32];
  s[tid] += s[tid + 16];
  s[tid] += s[tid + 8];
  s[tid] += s[tid + 4];
  s[tid] += s[tid + 2];
  s[tid] += s[tid + 1];
}

__global__ void reduce_legacy(const float *in, float *out, int n) {
  __shared__ float sdata[THREADS];
  int tid = threadIdx.x;
  int i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warp_reduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Inclusive scan per warp: 32 zeros of padding in front of each warp's 32
// values, so that no lane needs a bounds test.
__global__ void scan_legacy(const int *in, int *out) {
  __shared__ int sbuf[THREADS * 2];
  int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  volatile int *s = sbuf + warp * 64 + 32;
  s[lane - 32] = 0;
  s[lane] = in[blockIdx.x * blockDim.x + tid];
  s[lane] += s[lane - 1];
  s[lane] += s[lane - 2];
  s[lane] += s[lane - 4];
  s[lane] += s[lane - 8];
  s[lane] += s[lane - 16];
  out[blockIdx.x * blockDim.x + tid] = s[lane];
}

// Host model of the lockstep steps: new[t] = old[t] + old[t + k], t < 32.
static float host_block_sum(const float *in, int base, int n) {
  float s[THREADS];
  for (int t = 0; t < THREADS; t++) s[t] = base + t < n ? in[base + t] : 0.0f;
  for (int k = THREADS / 2; k > 32; k >>= 1)
    for (int t = 0; t < k; t++) s[t] += s[t + k];
  for (int k = 32; k >= 1; k >>= 1) {
    float old[THREADS];
    memcpy(old, s, sizeof s);
    for (int t = 0; t < 32; t++) s[t] = old[t] + old[t + k];
  }
  return s[0];
}

int main(void) {
  const int blocks = 97, n = THREADS * blocks - 131;
  float *in = (float *)malloc(THREADS * blocks * sizeof(float));
  unsigned seed = 7;
  for (int i = 0; i < n; i++) in[i] = (float)(test_rand(&seed) % 100000) / 977.0f - 40.0f;
  float *want = (float *)malloc(blocks * sizeof(float));
  for (int b = 0; b < blocks; b++) want[b] = host_block_sum(in, b * THREADS, n);
  float *din, *dout;
  CHECK(cudaMalloc(&din, n * sizeof(float)));
  CHECK(cudaMalloc(&dout, blocks * sizeof(float)));
  CHECK(cudaMemcpy(din, in, n * sizeof(float), cudaMemcpyHostToDevice));
  reduce_legacy<<<blocks, THREADS>>>(din, dout, n);
  CHECK_LAUNCH();
  float *got = (float *)malloc(blocks * sizeof(float));
  CHECK(cudaMemcpy(got, dout, blocks * sizeof(float), cudaMemcpyDeviceToHost));
  check_f32_exact("legacy warp-synchronous block sums", got, want, blocks);

  const int total = THREADS * blocks;
  int *vals = (int *)malloc(total * sizeof(int)), *scan_want = (int *)malloc(total * sizeof(int));
  for (int i = 0; i < total; i++) vals[i] = (int)(test_rand(&seed) % 2001) - 1000;
  for (int i = 0; i < total; i++) scan_want[i] = vals[i] + ((i & 31) ? scan_want[i - 1] : 0);
  int *dvals, *dscan;
  CHECK(cudaMalloc(&dvals, total * sizeof(int)));
  CHECK(cudaMalloc(&dscan, total * sizeof(int)));
  CHECK(cudaMemcpy(dvals, vals, total * sizeof(int), cudaMemcpyHostToDevice));
  scan_legacy<<<blocks, THREADS>>>(dvals, dscan);
  CHECK_LAUNCH();
  int *scan_got = (int *)malloc(total * sizeof(int));
  CHECK(cudaMemcpy(scan_got, dscan, total * sizeof(int), cudaMemcpyDeviceToHost));
  check_i32("legacy warp-synchronous inclusive scan", scan_got, scan_want, total);

  CHECK(cudaFree(din)); CHECK(cudaFree(dout)); CHECK(cudaFree(dvals)); CHECK(cudaFree(dscan));
  free(in); free(want); free(got); free(vals); free(scan_want); free(scan_got);
  return pass("warp_sync_legacy");
}
