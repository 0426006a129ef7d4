// cluster_basics: thread block clusters (sm_90), as cooperative groups'
// cluster API uses them:
//   - cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension, and a
//     kernel with __cluster_dims__ launched with <<< >>>;
//   - the cluster registers (%cluster_ctarank, %cluster_nctarank,
//     %clusterid, %cluster_ctaid ...) through cg::this_cluster();
//   - cluster.sync() (barrier.cluster) between phases;
//   - distributed shared memory: cluster.map_shared_rank (mapa) to read a
//     neighbour's shared memory, and atomicAdd into rank 0's shared memory
//     from every block of the cluster;
//   - the errors of a cluster shape that does not divide the grid.
// Built with -arch=sm_90, run with CUBRIDGE_SM=90 (tests/cuda/CMakeLists.txt).
#include "check.h"

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// out[block] = {rank, nranks, cluster index x, rank of the neighbour whose value it read}
__global__ void ranks(int *out) {
  __shared__ int mine;
  cg::cluster_group cl = cg::this_cluster();
  unsigned r = cl.block_rank(), nr = cl.num_blocks();
  if (threadIdx.x == 0) mine = 1000 * (int)r + (int)blockIdx.x;
  cl.sync();   // every block's `mine` is written
  int *theirs = cl.map_shared_rank(&mine, (r + 1) % nr);
  int v = *theirs;
  cl.sync();   // nobody exits while a neighbour still reads its shared memory
  if (threadIdx.x == 0) {
    int b = blockIdx.x + gridDim.x * blockIdx.y;
    out[4 * b + 0] = (int)r;
    out[4 * b + 1] = (int)nr;
    out[4 * b + 2] = (int)cl.block_index().x + 100 * (int)(blockIdx.x / cl.dim_blocks().x);
    out[4 * b + 3] = v;
  }
}

// a histogram of 64 bins in rank 0's shared memory, filled by every block of the cluster
__global__ void __cluster_dims__(4, 1, 1) cluster_histogram(const int *data, int n, int *hist) {
  __shared__ int bins[64];
  cg::cluster_group cl = cg::this_cluster();
  for (int i = threadIdx.x; i < 64; i += blockDim.x) bins[i] = 0;
  cl.sync();
  int *bins0 = cl.map_shared_rank(bins, 0);
  int per_cluster = n / (gridDim.x / 4), start = (blockIdx.x / 4) * per_cluster;
  for (int i = start + (int)cl.block_rank() * blockDim.x + threadIdx.x; i < start + per_cluster;
       i += 4 * blockDim.x)
    atomicAdd(&bins0[data[i] & 63], 1);
  cl.sync();
  if (cl.block_rank() == 0)
    for (int i = threadIdx.x; i < 64; i += blockDim.x) atomicAdd(&hist[i], bins[i]);
}

int main() {
  int dev;
  CHECK(cudaGetDevice(&dev));
  int cluster_ok = 0;
  CHECK(cudaDeviceGetAttribute(&cluster_ok, cudaDevAttrClusterLaunch, dev));
  if (!cluster_ok) fail("cudaDevAttrClusterLaunch is 0");

  // 16 blocks in clusters of 2 and of 4
  const int blocks = 16;
  int *out, got[4 * blocks];
  CHECK(cudaMalloc(&out, sizeof got));
  for (int cs = 2; cs <= 4; cs += 2) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(64);
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cs;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, ranks, out));
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    int want[4 * blocks];
    for (int b = 0; b < blocks; b++) {
      int r = b % cs, next = b - r + (r + 1) % cs;
      want[4 * b + 0] = r;
      want[4 * b + 1] = cs;
      want[4 * b + 2] = r + 100 * (b / cs);
      want[4 * b + 3] = 1000 * ((r + 1) % cs) + next;
    }
    check_i32(cs == 2 ? "clusters of 2" : "clusters of 4", got, want, 4 * blocks);
    printf("clusters of %d: block 5 is rank %d of %d and read %d\n", cs, got[20], got[21], got[23]);
  }

  // a cluster that does not divide the grid, and one of 32 blocks
  cudaLaunchConfig_t bad = {};
  bad.gridDim = dim3(6);
  bad.blockDim = dim3(32);
  cudaLaunchAttribute battr;
  battr.id = cudaLaunchAttributeClusterDimension;
  battr.val.clusterDim.x = 4;
  battr.val.clusterDim.y = 1;
  battr.val.clusterDim.z = 1;
  bad.attrs = &battr;
  bad.numAttrs = 1;
  EXPECT_ERROR(cudaLaunchKernelEx(&bad, ranks, out), cudaErrorInvalidClusterSize);
  cudaGetLastError();

  // __cluster_dims__(4,1,1): the histogram through rank 0's shared memory
  const int n = 8192, grid = 8;
  int *data, *hist, h_data[n], h_hist[64], want_hist[64] = {0};
  for (int i = 0; i < n; i++) {
    h_data[i] = (i * 7919 + i / 3) % 1000;
    want_hist[h_data[i] & 63]++;
  }
  CHECK(cudaMalloc(&data, sizeof h_data));
  CHECK(cudaMalloc(&hist, sizeof h_hist));
  CHECK(cudaMemcpy(data, h_data, sizeof h_data, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(hist, 0, sizeof h_hist));
  cluster_histogram<<<grid, 128>>>(data, n, hist);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(h_hist, hist, sizeof h_hist, cudaMemcpyDeviceToHost));
  check_i32("cluster histogram", h_hist, want_hist, 64);
  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, cluster_histogram));
  printf("histogram: bin 0 = %d, bin 63 = %d, required cluster width %d\n", h_hist[0], h_hist[63],
         fa.requiredClusterWidth);
  if (fa.requiredClusterWidth != 4) fail("requiredClusterWidth is not 4");

  CHECK(cudaFree(out));
  CHECK(cudaFree(data));
  CHECK(cudaFree(hist));
  return pass("cluster_basics");
}
