// memcpy_async_pinned: pinned host memory from cudaMallocHost and
// cudaHostAlloc, cudaMemcpyAsync both ways and cudaMemsetAsync on a stream,
// pipelined over chunks, plus a device-to-device async copy.
#include "check.h"

__global__ void negate_add(int *p, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = -p[i] + add;
}

int main(void) {
  const int n = 1 << 20, chunks = 8, cn = n / chunks;
  int *src, *dst;
  CHECK(cudaMallocHost(&src, n * sizeof(int)));
  CHECK(cudaHostAlloc(&dst, n * sizeof(int), cudaHostAllocDefault));
  unsigned flags = 99;
  CHECK(cudaHostGetFlags(&flags, dst));
  for (int i = 0; i < n; i++) src[i] = i ^ 0x5a5a;
  int *d, *d2;
  CHECK(cudaMalloc(&d, n * sizeof(int)));
  CHECK(cudaMalloc(&d2, n * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  for (int c = 0; c < chunks; c++) {
    CHECK(cudaMemcpyAsync(d + c * cn, src + c * cn, cn * sizeof(int), cudaMemcpyHostToDevice, s));
    negate_add<<<cn / 256, 256, 0, s>>>(d + c * cn, cn, c);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaMemsetAsync(d2, 0x01, n * sizeof(int), s));               // 0x01010101
  CHECK(cudaMemcpyAsync(d2, d, (n / 2) * sizeof(int), cudaMemcpyDeviceToDevice, s));
  CHECK(cudaMemcpyAsync(dst, d2, n * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  int *want = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) want[i] = i < n / 2 ? -(i ^ 0x5a5a) + i / cn : 0x01010101;
  check_i32("dst", dst, want, n);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(src));
  CHECK(cudaFreeHost(dst));
  CHECK(cudaFree(d)); CHECK(cudaFree(d2));
  free(want);
  return pass("memcpy_async_pinned");
}
