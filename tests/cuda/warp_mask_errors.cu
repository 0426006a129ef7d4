// warp_mask_errors: warp collectives whose member mask is computed per lane
// (each half-warp names itself, as tiled groups do), reached by the whole
// block together: __shfl_sync broadcasts and __ballot_sync per half. Then,
// under cubridge only (on a GPU it is undefined behaviour), a __shfl_sync
// whose mask leaves out lanes that execute it must fail the launch with
// cudaErrorLaunchFailure, never give an answer; it runs last, as the error
// is sticky.
#include "check.h"

#include <string.h>

__global__ void halves(const int *in, int *bcast, unsigned *ballots) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x & 31;
  unsigned m = 0xffffu << (lane & 16);           // this lane's half of the warp
  int v = in[i];
  bcast[i] = __shfl_sync(m, v, 3, 16);            // lane 3 of each half
  unsigned b = __ballot_sync(m, v > 0);
  if ((lane & 15) == 0) ballots[i / 16] = b;
}

__global__ void lanes_outside_mask(int *out) {
  int v = threadIdx.x;
  out[threadIdx.x] = __shfl_sync(0x0000ffffu, v, 0);   // lanes 16..31 are not in the mask
}

int main(void) {
  const int threads = 96, blocks = 3, n = threads * blocks;
  int *h_in = (int *)malloc(n * 4), *h_b = (int *)malloc(n * 4), *want = (int *)malloc(n * 4);
  unsigned h_ballots[n / 16], want_ballots[n / 16];
  unsigned seed = 11;
  for (int i = 0; i < n; i++) h_in[i] = (int)(test_rand(&seed) % 101) - 50;
  int *d_in, *d_b;
  unsigned *d_ballots;
  CHECK(cudaMalloc(&d_in, n * 4));
  CHECK(cudaMalloc(&d_b, n * 4));
  CHECK(cudaMalloc(&d_ballots, sizeof h_ballots));
  CHECK(cudaMemcpy(d_in, h_in, n * 4, cudaMemcpyHostToDevice));
  halves<<<blocks, threads>>>(d_in, d_b, d_ballots);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_b, d_b, n * 4, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_ballots, d_ballots, sizeof h_ballots, cudaMemcpyDeviceToHost));
  for (int h = 0; h < n / 16; h++) {
    want_ballots[h] = 0;
    for (int l = 0; l < 16; l++) {
      want[h * 16 + l] = h_in[h * 16 + 3];
      if (h_in[h * 16 + l] > 0) want_ballots[h] |= 1u << (l + 16 * (h & 1));
    }
  }
  check_i32("shfl per half-warp", h_b, want, n);
  check_u32("ballot per half-warp", h_ballots, want_ballots, n / 16);
  printf("halves: %d blocks of %d threads checked\n", blocks, threads);

  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  if (strstr(prop.name, "[cubridge]")) {
    lanes_outside_mask<<<1, 32>>>(d_b);
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    if (e != cudaErrorLaunchFailure) {
      printf("FAIL lanes_outside_mask: got %s, want cudaErrorLaunchFailure\n", cudaGetErrorName(e));
      return 1;
    }
    fprintf(stderr, "warp_mask_errors: lanes_outside_mask failed the launch, as it must\n");
  }
  printf("lanes outside their mask: checked where defined\n");
  return pass("warp_mask_errors");
}
