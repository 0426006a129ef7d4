// printf_formats: device printf beyond printf_ordered's conversions: %s of a
// string in the thread's local memory and of one in shared memory, '*' width,
// a '.*' precision (which CUDA's printf does not take: the H200 prints such a
// conversion as written, so these come last on their line), length modifiers, printf from a __noinline__ function (its
// own local buffer and format), a format without arguments, and printf's
// return value (the number of arguments). One thread prints at a time (a
// __syncthreads between turns), so the order is fixed; the runner compares
// stdout with printf_formats.expected.
#include "check.h"

__device__ __noinline__ int tell(int depth, const char *who) {
  char tag[8];
  for (int i = 0; i < 7; i++) tag[i] = (char)('a' + (depth * 5 + i) % 26);
  tag[7] = 0;
  return printf("tell depth %d who %s tag %s\n", depth, who, tag);
}

__global__ void formats(int *ret) {
  __shared__ char word[16];
  int t = threadIdx.x;
  if (t == 0) {
    const char w[] = "shared-word";
    for (int i = 0; i < 12; i++) word[i] = w[i];
  }
  __syncthreads();
  for (int turn = 0; turn < 3; turn++) {
    if (t == turn) {
      char local[12];
      for (int i = 0; i < 11; i++) local[i] = (char)('A' + (t * 3 + i) % 26);
      local[11] = 0;
      ret[t * 4 + 0] = printf("t%d local %s shared %s\n", t, local, word);
      printf("t%d width [%*d] prec [%.*f] both [%*.*e]\n", t, 6 + t, -42 * (t + 1), t + 1,
             3.14159265 * (t + 1), 12, t + 2, 1.0e-3 / (t + 1));
      ret[t * 4 + 1] = printf("t%d lengths %hd %ld %llu %c%c %5s|%-6s|\n", t, (short)(-3 - t),
                              -1234567890123L * (t + 1), 18446744073709551615ull - t, 'x', 'y' - t,
                              "ab", t % 2 ? "odd" : "even");
      ret[t * 4 + 2] = tell(t, t % 2 ? "odd" : "even");
      ret[t * 4 + 3] = printf("t%d float %g %.3f %E\n", t, 0.5f * (t + 1), -2.0f / 3.0f, 6.25e-5 * t);
    }
    __syncthreads();
  }
  if (t == 0)
    ret[12] = printf("no arguments, 100%% literal\n");
}

int main(void) {
  int *dret, ret[13];
  CHECK(cudaMalloc(&dret, sizeof ret));
  CHECK(cudaMemset(dret, 0xff, sizeof ret));
  formats<<<1, 3>>>(dret);
  CHECK_LAUNCH();
  fflush(stdout);
  CHECK(cudaMemcpy(ret, dret, sizeof ret, cudaMemcpyDeviceToHost));
  // printf returns the number of arguments after the format
  const int want[4] = {3, 8, 3, 4};
  for (int t = 0; t < 3; t++)
    for (int k = 0; k < 4; k++)
      if (ret[t * 4 + k] != want[k]) {
        printf("FAIL printf %d of thread %d returned %d, expected %d\n", k, t, ret[t * 4 + k], want[k]);
        return 1;
      }
  if (ret[12] != 0) {
    printf("FAIL printf without arguments returned %d, expected 0\n", ret[12]);
    return 1;
  }
  CHECK(cudaFree(dret));
  return pass("printf_formats");
}
