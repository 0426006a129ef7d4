// memcpy2d_pitch: cudaMallocPitch, cudaMemcpy2D both ways (with a host pitch
// different from the width), cudaMemset2D, and a kernel that walks the pitched
// rows.
#include "check.h"

__global__ void bump(char *base, size_t pitch, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) {
    int *row = (int *)(base + y * pitch);
    row[x] = (int)((unsigned)row[x] * 2u + (unsigned)y);
  }
}

int main(void) {
  const int w = 300, h = 77, host_pitch_ints = 320;
  int *host = (int *)malloc(host_pitch_ints * h * sizeof(int));
  int *back = (int *)malloc(host_pitch_ints * h * sizeof(int));
  for (int i = 0; i < host_pitch_ints * h; i++) { host[i] = i; back[i] = -1; }
  char *d;
  size_t pitch = 0;
  CHECK(cudaMallocPitch((void **)&d, &pitch, w * sizeof(int), h));
  if (pitch < w * sizeof(int)) {
    printf("FAIL pitch %zu < row bytes %zu\n", pitch, w * sizeof(int));
    return 1;
  }
  CHECK(cudaMemset2D(d, pitch, 0x7f, w * sizeof(int), h));
  CHECK(cudaMemcpy2D(d, pitch, host, host_pitch_ints * sizeof(int), (w - 10) * sizeof(int), h,
                     cudaMemcpyHostToDevice));       // the last 10 columns keep 0x7f7f7f7f
  bump<<<dim3((w + 127) / 128, h), 128>>>(d, pitch, w, h);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy2D(back, host_pitch_ints * sizeof(int), d, pitch, w * sizeof(int), h,
                     cudaMemcpyDeviceToHost));
  int *want = (int *)malloc(host_pitch_ints * h * sizeof(int));
  for (int y = 0; y < h; y++)
    for (int x = 0; x < host_pitch_ints; x++) {
      int v = x < w - 10 ? host[y * host_pitch_ints + x] : 0x7f7f7f7f;
      want[y * host_pitch_ints + x] = x < w ? (int)((unsigned)v * 2u + (unsigned)y) : -1;
    }
  check_i32("2D copy (row*320 + column)", back, want, host_pitch_ints * h);
  CHECK(cudaFree(d));
  free(host); free(back); free(want);
  return pass("memcpy2d_pitch");
}
