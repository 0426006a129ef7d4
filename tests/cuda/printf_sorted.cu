// printf_sorted: many threads of several blocks print at once; the order is up
// to the hardware, so printf_sorted.expected starts with "# sorted" and the
// runner compares the sorted lines.
#include "check.h"

__global__ void report(int scale) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  printf("block %d thread %2d id %3d square %5d\n", blockIdx.x, threadIdx.x, id, id * id * scale);
}

int main(void) {
  report<<<3, 40>>>(1);
  CHECK_LAUNCH();
  return pass("printf_sorted");
}
