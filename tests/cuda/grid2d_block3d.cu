// grid2d_block3d: a 3D grid (2D in x/y, plus z) of 3D blocks; every thread
// records its built-in indices, which the host recomputes.
#include "check.h"

struct ids { int bx, by, bz, tx, ty, tz, gdx, gdy, gdz, bdx, bdy, bdz; };

__global__ void record(ids *out) {
  int block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  int thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int per_block = blockDim.x * blockDim.y * blockDim.z;
  ids v = {(int)blockIdx.x, (int)blockIdx.y, (int)blockIdx.z, (int)threadIdx.x,
           (int)threadIdx.y, (int)threadIdx.z, (int)gridDim.x, (int)gridDim.y,
           (int)gridDim.z, (int)blockDim.x, (int)blockDim.y, (int)blockDim.z};
  out[block * per_block + thread] = v;
}

int main(void) {
  dim3 grid(5, 3, 2), block(4, 3, 6);
  int nblocks = 5 * 3 * 2, per = 4 * 3 * 6, n = nblocks * per;
  ids *d, *got = (ids *)malloc(n * sizeof(ids));
  CHECK(cudaMalloc(&d, n * sizeof(ids)));
  CHECK(cudaMemset(d, 0xff, n * sizeof(ids)));
  record<<<grid, block>>>(d);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, d, n * sizeof(ids), cudaMemcpyDeviceToHost));
  for (int bz = 0; bz < 2; bz++)
    for (int by = 0; by < 3; by++)
      for (int bx = 0; bx < 5; bx++)
        for (int tz = 0; tz < 6; tz++)
          for (int ty = 0; ty < 3; ty++)
            for (int tx = 0; tx < 4; tx++) {
              int b = bx + 5 * (by + 3 * bz), t = tx + 4 * (ty + 3 * tz);
              ids want = {bx, by, bz, tx, ty, tz, 5, 3, 2, 4, 3, 6};
              check_i32("ids", (const int *)&got[b * per + t], (const int *)&want, 12);
            }
  CHECK(cudaFree(d));
  free(got);
  return pass("grid2d_block3d");
}
