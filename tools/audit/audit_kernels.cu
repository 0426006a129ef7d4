// audit_kernels.cu: the kernels of the softmax, layernorm and reduce presets
// of `cubridge audit` (tools/audit/audit_kernels.c). Compiled to PTX at build
// time (nvcc -ptx) and embedded in cubridge-workloads, so users need no nvcc.
// Written the way such kernels are commonly written for NVIDIA GPUs: one
// warp per row with full-mask __shfl_xor_sync butterflies (softmax,
// layernorm), a shared-memory tree that hands its last 32 partial sums to a
// warp (reduce). Those are the idioms that assume 32-lane warps.
// Element types: float, __half, __nv_bfloat16, accumulated in float.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

__device__ __forceinline__ float to_f(float v) { return v; }
__device__ __forceinline__ float to_f(__half v) { return __half2float(v); }
__device__ __forceinline__ float to_f(__nv_bfloat16 v) { return __bfloat162float(v); }
template <typename T> __device__ __forceinline__ T from_f(float v);
template <> __device__ __forceinline__ float from_f<float>(float v) { return v; }
template <> __device__ __forceinline__ __half from_f<__half>(float v) { return __float2half_rn(v); }
template <> __device__ __forceinline__ __nv_bfloat16 from_f<__nv_bfloat16>(float v) { return __float2bfloat16_rn(v); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

// y[row] = softmax(x[row]); blockDim.x = 32 (one warp per row), grid = rows.
template <typename T> __device__ void softmax_rows(const T *x, T *y, int cols) {
  const T *xr = x + (size_t)blockIdx.x * cols;
  T *yr = y + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (int c = threadIdx.x; c < cols; c += 32) m = fmaxf(m, to_f(xr[c]));
  m = warp_max(m);
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 32) s += __expf(to_f(xr[c]) - m);
  s = warp_sum(s);
  for (int c = threadIdx.x; c < cols; c += 32) yr[c] = from_f<T>(__expf(to_f(xr[c]) - m) / s);
}

// The same with 4 rows per block of 128 threads, one warp (threadIdx.x / 32) per
// row, and another common way to reduce: __shfl_down_sync from 16, then lane
// 0's result broadcast with __shfl_sync(0xffffffff, v, 0). On 64-lane warps
// (cubridge audit --warp-size 64) two rows share a warp and the second one
// takes the first one's max and sum: its output drifts. rows % 4 == 0.
__device__ __forceinline__ float warp_max_bcast(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
  return __shfl_sync(0xffffffffu, v, 0);
}
__device__ __forceinline__ float warp_sum_bcast(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return __shfl_sync(0xffffffffu, v, 0);
}
template <typename T> __device__ void softmax_rows4(const T *x, T *y, int cols) {
  const int row = blockIdx.x * 4 + threadIdx.x / 32, lane = threadIdx.x % 32;
  const T *xr = x + (size_t)row * cols;
  T *yr = y + (size_t)row * cols;
  float m = -INFINITY;
  for (int c = lane; c < cols; c += 32) m = fmaxf(m, to_f(xr[c]));
  m = warp_max_bcast(m);
  float s = 0.f;
  for (int c = lane; c < cols; c += 32) s += __expf(to_f(xr[c]) - m);
  s = warp_sum_bcast(s);
  for (int c = lane; c < cols; c += 32) yr[c] = from_f<T>(__expf(to_f(xr[c]) - m) / s);
}

// y[row] = (x[row] - mean) / sqrt(var + eps) * gamma + beta; one warp per row.
template <typename T>
__device__ void layernorm_rows(const T *x, const T *gamma, const T *beta, T *y, int cols, float eps) {
  const T *xr = x + (size_t)blockIdx.x * cols;
  T *yr = y + (size_t)blockIdx.x * cols;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += 32) s += to_f(xr[c]);
  const float mean = warp_sum(s) / cols;
  float v = 0.f;
  for (int c = threadIdx.x; c < cols; c += 32) {
    float d = to_f(xr[c]) - mean;
    v += d * d;
  }
  const float rstd = rsqrtf(warp_sum(v) / cols + eps);
  for (int c = threadIdx.x; c < cols; c += 32)
    yr[c] = from_f<T>((to_f(xr[c]) - mean) * rstd * to_f(gamma[c]) + to_f(beta[c]));
}

// y[row] = sum(x[row]); blockDim.x = 256: shared-memory tree down to 32, then a warp.
template <typename T> __device__ void reduce_rows(const T *x, T *y, int cols) {
  __shared__ float part[256];
  const T *xr = x + (size_t)blockIdx.x * cols;
  float s = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += to_f(xr[c]);
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w >= 32; w >>= 1) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x < 32) {
    float t = warp_sum(part[threadIdx.x]);
    if (threadIdx.x == 0) y[blockIdx.x] = from_f<T>(t);
  }
}

#define AUDIT_KERNELS(suffix, T)                                                                            \
  extern "C" __global__ void softmax_##suffix(const T *x, T *y, int cols) { softmax_rows<T>(x, y, cols); }  \
  extern "C" __global__ void softmax4_##suffix(const T *x, T *y, int cols) { softmax_rows4<T>(x, y, cols); } \
  extern "C" __global__ void layernorm_##suffix(const T *x, const T *g, const T *b, T *y, int cols,         \
                                                float eps) {                                                \
    layernorm_rows<T>(x, g, b, y, cols, eps);                                                               \
  }                                                                                                         \
  extern "C" __global__ void reduce_##suffix(const T *x, T *y, int cols) { reduce_rows<T>(x, y, cols); }

AUDIT_KERNELS(f32, float)
AUDIT_KERNELS(f16, __half)
AUDIT_KERNELS(bf16, __nv_bfloat16)
