// stencil2d: a 5-point stencil (Jacobi step) on a 2D grid, with 16x16 tiles
// and a one-cell halo staged in shared memory; three iterations ping-ponging
// between two buffers.  Values are multiples of 1/4 that stay small, so every
// operation is exact and the host reference matches bit for bit.
#include "check.h"

#define T 16

__global__ void jacobi(const float *in, float *out, int w, int h) {
  __shared__ float tile[T + 2][T + 2];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  bool inside = x < w && y < h;
  tile[ly][lx] = inside ? in[y * w + x] : 0.0f;
  if (threadIdx.x == 0) tile[ly][0] = (x > 0 && y < h) ? in[y * w + x - 1] : 0.0f;
  if (threadIdx.x == T - 1) tile[ly][T + 1] = (x + 1 < w && y < h) ? in[y * w + x + 1] : 0.0f;
  if (threadIdx.y == 0) tile[0][lx] = (y > 0 && x < w) ? in[(y - 1) * w + x] : 0.0f;
  if (threadIdx.y == T - 1) tile[T + 1][lx] = (y + 1 < h && x < w) ? in[(y + 1) * w + x] : 0.0f;
  __syncthreads();
  if (!inside) return;
  float s = tile[ly - 1][lx] + tile[ly + 1][lx] + tile[ly][lx - 1] + tile[ly][lx + 1];
  out[y * w + x] = (x == 0 || y == 0 || x == w - 1 || y == h - 1) ? tile[ly][lx] : 0.25f * s;
}

static void host_jacobi(const float *in, float *out, int w, int h) {
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        out[y * w + x] = in[y * w + x];
        continue;
      }
      float s = in[(y - 1) * w + x] + in[(y + 1) * w + x] + in[y * w + x - 1] + in[y * w + x + 1];
      out[y * w + x] = 0.25f * s;
    }
}

int main(void) {
  const int w = 203, h = 131, n = w * h, iters = 3;
  float *a = (float *)malloc(n * 4), *b = (float *)malloc(n * 4), *got = (float *)malloc(n * 4);
  for (int i = 0; i < n; i++) a[i] = (float)((i * 37) % 64);
  float *da, *db;
  CHECK(cudaMalloc(&da, n * 4));
  CHECK(cudaMalloc(&db, n * 4));
  CHECK(cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice));
  dim3 block(T, T), grid((w + T - 1) / T, (h + T - 1) / T);
  for (int it = 0; it < iters; it++) {
    jacobi<<<grid, block>>>(it % 2 ? db : da, it % 2 ? da : db, w, h);
    CHECK(cudaGetLastError());
    host_jacobi(it % 2 ? b : a, it % 2 ? a : b, w, h);
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(got, iters % 2 ? db : da, n * 4, cudaMemcpyDeviceToHost));
  check_f32_exact("grid", got, iters % 2 ? b : a, n);
  CHECK(cudaFree(da)); CHECK(cudaFree(db));
  free(a); free(b); free(got);
  return pass("stencil2d");
}
