// occupancy_coop: the occupancy answers that libraries size their grids by
// (CUB's radix sort: SM count x cudaOccupancyMaxActiveBlocksPerMultiprocessor;
// multi-block conjugate gradient: a cooperative grid of exactly that size)
// must agree with what launches. For kernels with few and many registers,
// __launch_bounds__, 40 KiB of static shared memory, and dynamic shared
// memory up to the opt-in limit, at every block size the kernel allows:
//   - occupancy 0 only when the launch itself is refused (too many
//     resources), never for a launchable configuration;
//   - a cooperative grid of exactly occupancy x SMs launches, and every
//     block arrives at grid.sync(); one block more is refused as too large;
//   - cudaOccupancyMaxPotentialBlockSize's answer launches cooperatively;
//   - cudaOccupancyAvailableDynamicSMemPerBlock's answer launches;
//   - cudaOccupancyMaxActiveClusters with clusters of one block lies in
//     [1, occupancy x SMs].
#include <cooperative_groups.h>
#include "check.h"

namespace cg = cooperative_groups;

// Every block counts itself in, the grid syncs, and the first thread reads
// the count: it must be the whole grid.
__device__ void arrive(unsigned *count, unsigned *seen) {
  cg::grid_group g = cg::this_grid();
  if (threadIdx.x == 0) atomicAdd(count, 1u);
  g.sync();
  if (g.thread_rank() == 0) *seen = atomicAdd(count, 0u);
}

__global__ void small_kernel(unsigned *count, unsigned *seen) { arrive(count, seen); }

// Many values live at once: a large register count.
__global__ void heavy_kernel(unsigned *count, unsigned *seen, const float *x, float *sink) {
  float acc[48];
#pragma unroll
  for (int k = 0; k < 48; k++) acc[k] = x[(threadIdx.x + 7 * k) & 255];
#pragma unroll
  for (int r = 0; r < 4; r++)
#pragma unroll
    for (int k = 0; k < 48; k++) acc[k] = acc[k] * acc[(k + r + 1) % 48] + x[(k * 5 + r) & 255];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 48; k++) s += acc[k];
  if (s == 12345.0f) sink[0] = s;   // keeps the work; never true for the inputs
  arrive(count, seen);
}

__global__ void __launch_bounds__(256) bounded_kernel(unsigned *count, unsigned *seen) { arrive(count, seen); }

__global__ void static_smem_kernel(unsigned *count, unsigned *seen, float *sink) {
  __shared__ float buf[10240];   // 40 KiB
  for (int i = threadIdx.x; i < 10240; i += blockDim.x) buf[i] = (float)i;
  __syncthreads();
  if (buf[(threadIdx.x * 37) % 10240] < 0.0f) sink[0] = 1.0f;
  arrive(count, seen);
}

__global__ void dynamic_smem_kernel(unsigned *count, unsigned *seen, float *sink, int words) {
  extern __shared__ float dyn[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) dyn[i] = (float)i;
  __syncthreads();
  if (words > 0 && dyn[threadIdx.x % words] < 0.0f) sink[0] = 1.0f;
  arrive(count, seen);
}

struct Args {
  unsigned *count, *seen;
  float *x, *sink;
  int words;
};

// Kernel table: how to pass each kernel's arguments.
enum { SMALL, HEAVY, BOUNDED, STATIC_SMEM, DYNAMIC_SMEM, KERNELS };
static const char *const kernel_names[KERNELS] = {"small", "heavy", "bounded", "static_smem", "dynamic_smem"};
static void *kernel_fn(int k) {
  switch (k) {
  case SMALL: return (void *)small_kernel;
  case HEAVY: return (void *)heavy_kernel;
  case BOUNDED: return (void *)bounded_kernel;
  case STATIC_SMEM: return (void *)static_smem_kernel;
  default: return (void *)dynamic_smem_kernel;
  }
}

static cudaError_t launch(int k, Args *a, int grid, int block, size_t dyn, int cooperative) {
  void *args[5];
  int n = 0;
  args[n++] = &a->count;
  args[n++] = &a->seen;
  if (k == HEAVY) args[n++] = &a->x;
  if (k == HEAVY || k == STATIC_SMEM || k == DYNAMIC_SMEM) args[n++] = &a->sink;
  if (k == DYNAMIC_SMEM) args[n++] = &a->words;
  if (cooperative)
    return cudaLaunchCooperativeKernel(kernel_fn(k), dim3(grid), dim3(block), args, dyn, 0);
  return cudaLaunchKernel(kernel_fn(k), dim3(grid), dim3(block), args, dyn, 0);
}

static int checked;

// A cooperative grid of `grid` blocks runs and every block arrives.
static void run_cooperative(int k, Args *a, int grid, int block, size_t dyn, const char *what) {
  CHECK(cudaMemset(a->count, 0, sizeof(unsigned)));
  CHECK(cudaMemset(a->seen, 0, sizeof(unsigned)));
  a->words = (int)(dyn / sizeof(float));
  cudaError_t e = launch(k, a, grid, block, dyn, 1);
  if (e != cudaSuccess) {
    printf("FAIL %s kernel, %s: cooperative launch of %d blocks of %d threads, %zu bytes dynamic: %s\n",
           kernel_names[k], what, grid, block, dyn, cudaGetErrorName(e));
    exit(1);
  }
  CHECK(cudaDeviceSynchronize());
  unsigned seen = 0;
  CHECK(cudaMemcpy(&seen, a->seen, sizeof seen, cudaMemcpyDeviceToHost));
  if (seen != (unsigned)grid) {
    printf("FAIL %s kernel, %s: %u of %d blocks arrived before grid.sync()\n", kernel_names[k], what, seen, grid);
    exit(1);
  }
  checked++;
}

static void check_config(int k, Args *a, int block, size_t dyn, int sms) {
  void *f = kernel_fn(k);
  int occ = -1;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, f, block, dyn));
  fprintf(stderr, "occupancy_coop: %s kernel, %d threads, %zu bytes dynamic: %d blocks per SM\n", kernel_names[k],
          block, dyn, occ);
  if (occ < 0) fail("negative occupancy");
  if (occ == 0) {
    // Only a configuration the device refuses may have no occupancy.
    a->words = (int)(dyn / sizeof(float));
    cudaError_t e = launch(k, a, 1, block, dyn, 0);
    cudaDeviceSynchronize();
    cudaGetLastError();
    if (e == cudaSuccess) {
      printf("FAIL %s kernel: occupancy 0 at %d threads and %zu bytes, but the launch is accepted\n",
             kernel_names[k], block, dyn);
      exit(1);
    }
    return;
  }
  run_cooperative(k, a, occ * sms, block, dyn, "occupancy x SMs");
  cudaError_t e = launch(k, a, occ * sms + 1, block, dyn, 1);
  cudaGetLastError();
  if (e != cudaErrorCooperativeLaunchTooLarge) {
    printf("FAIL %s kernel: a cooperative grid one block over the limit returned %s\n", kernel_names[k],
           cudaGetErrorName(e));
    exit(1);
  }
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = attr.val.clusterDim.y = attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3(occ * sms);
  cfg.blockDim = dim3(block);
  cfg.dynamicSmemBytes = dyn;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  int clusters = -1;
  CHECK(cudaOccupancyMaxActiveClusters(&clusters, f, &cfg));
  if (clusters < 1 || clusters > occ * sms) {
    printf("FAIL %s kernel: %d active clusters of one block, occupancy x SMs is %d\n", kernel_names[k], clusters,
           occ * sms);
    exit(1);
  }
}

int main(void) {
  int dev = 0, coop = 0, sms = 0, optin = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  if (!coop) fail("the device has no cooperative launch");
  Args a = {};
  CHECK(cudaMalloc(&a.count, sizeof(unsigned)));
  CHECK(cudaMalloc(&a.seen, sizeof(unsigned)));
  CHECK(cudaMalloc(&a.x, 256 * sizeof(float)));
  CHECK(cudaMalloc(&a.sink, sizeof(float)));
  float hx[256];
  for (int i = 0; i < 256; i++) hx[i] = 0.5f + (float)(i % 7) * 0.0625f;
  CHECK(cudaMemcpy(a.x, hx, sizeof hx, cudaMemcpyHostToDevice));

  cudaFuncAttributes fa;
  CHECK(cudaFuncGetAttributes(&fa, dynamic_smem_kernel));
  int dyn_max = optin - (int)fa.sharedSizeBytes;
  CHECK(cudaFuncSetAttribute(dynamic_smem_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn_max));

  for (int k = 0; k < KERNELS; k++) {
    CHECK(cudaFuncGetAttributes(&fa, kernel_fn(k)));
    fprintf(stderr, "occupancy_coop: %s kernel: %d registers, %zu bytes static shared, at most %d threads\n",
            kernel_names[k], fa.numRegs, fa.sharedSizeBytes, fa.maxThreadsPerBlock);
    if (k == BOUNDED && fa.maxThreadsPerBlock != 256) fail("__launch_bounds__(256) kernel allows other than 256");
    for (int block = 32; block <= fa.maxThreadsPerBlock; block *= 2) {
      check_config(k, &a, block, 0, sms);
      if (k == DYNAMIC_SMEM) {
        check_config(k, &a, block, 4096, sms);
        check_config(k, &a, block, (size_t)dyn_max, sms);
      }
    }
    // The suggested block size and grid launch cooperatively.
    int min_grid = 0, best = 0;
    size_t dyn = k == DYNAMIC_SMEM ? 8192 : 0;
    CHECK(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best, kernel_fn(k), dyn, 0));
    if (best <= 0 || min_grid <= 0) fail("cudaOccupancyMaxPotentialBlockSize gave no configuration");
    run_cooperative(k, &a, min_grid, best, dyn, "cudaOccupancyMaxPotentialBlockSize");
  }

  // The dynamic shared memory available to 1 and to 2 resident blocks.
  for (int blocks = 1; blocks <= 2; blocks++) {
    size_t avail = 0;
    CHECK(cudaOccupancyAvailableDynamicSMemPerBlock(&avail, dynamic_smem_kernel, blocks, 256));
    if (avail == 0 || avail > (size_t)dyn_max) {
      printf("FAIL available dynamic shared memory for %d blocks: %zu (opt-in limit %d)\n", blocks, avail, dyn_max);
      return 1;
    }
    int occ = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&occ, dynamic_smem_kernel, 256, avail));
    if (occ < 1) fail("occupancy 0 with the available dynamic shared memory");
    run_cooperative(DYNAMIC_SMEM, &a, occ * sms, 256, avail, "cudaOccupancyAvailableDynamicSMemPerBlock");
  }

  fprintf(stderr, "occupancy_coop: %d cooperative grids checked\n", checked);
  CHECK(cudaFree(a.count));
  CHECK(cudaFree(a.seen));
  CHECK(cudaFree(a.x));
  CHECK(cudaFree(a.sink));
  return pass("occupancy_coop");
}
