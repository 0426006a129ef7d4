// printf_ordered: kernel printf with the common conversions, from one block of
// 4 threads taking turns (a __syncthreads between turns), so the order of the
// lines is fixed.  The runner compares stdout with printf_ordered.expected.
#include "check.h"

__global__ void speak(int round, const char *word) {
  for (int turn = 0; turn < 4; turn++) {
    if (threadIdx.x == turn)
      printf("round %d thread %u: %s %5.2f %x %lld %c|%-4d|%s\n", round, threadIdx.x, word,
             (double)turn * 1.25, 255 + turn, -1234567890123ll * (turn + 1), 'a' + turn, turn,
             turn % 2 ? "odd" : "even");
    __syncthreads();
  }
}

__global__ void one_line(double d, unsigned u) {
  printf("double %.6e unsigned %u percent %% hex %08X\n", d, u, u);
}

int main(void) {
  const char word[] = "hello";
  char *dword;
  CHECK(cudaMalloc(&dword, sizeof(word)));
  CHECK(cudaMemcpy(dword, word, sizeof(word), cudaMemcpyHostToDevice));
  printf("host before\n");
  fflush(stdout);
  speak<<<1, 4>>>(1, dword);
  CHECK_LAUNCH();
  speak<<<1, 4>>>(2, dword);
  CHECK_LAUNCH();
  one_line<<<1, 1>>>(6.02214076e23, 3735928559u);
  CHECK_LAUNCH();
  fflush(stdout);
  CHECK(cudaFree(dword));
  return pass("printf_ordered");
}
