// Survey: atomics on every type, scope and memory order that CUDA C reaches:
// the classic atomicXxx functions, _block/_system, 16-bit CAS (sm_70),
// half/bfloat16 adds, float2/float4 adds and 128-bit CAS/exch (sm_90),
// __nv_atomic_* builtins, and libcu++ cuda::atomic_ref.
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/atomic>
#define K extern "C" __global__ void

K a_int(int *p, unsigned *u, unsigned long long *q, long long *l, int v) {
  atomicAdd(p, v); atomicSub(p, v); atomicExch(p, v); atomicMin(p, v); atomicMax(p, v); atomicCAS(p, v, 1); atomicAnd(p, v); atomicOr(p, v); atomicXor(p, v);
  atomicAdd(u, v); atomicInc(u, v); atomicDec(u, v); atomicMin(u, v); atomicMax(u, v);
  atomicAdd(q, v); atomicExch(q, v); atomicCAS(q, v, 1); atomicMin(q, v); atomicMax(q, v); atomicAnd(q, v); atomicOr(q, v); atomicXor(q, v);
  atomicMin(l, v); atomicMax(l, v);
}
K a_int_ret(int *p, unsigned long long *q, int *o, int v) {
  o[0] = atomicAdd(p, v) + atomicExch(p, v) + atomicMin(p, v) + atomicCAS(p, v, 1) + atomicAnd(p, v) + atomicInc((unsigned *)p, 5);
  o[1] = (int)(atomicAdd(q, 1ull) + atomicCAS(q, 2ull, 3ull) + atomicXor(q, 5ull));
}
K a_scope(int *p, unsigned long long *q, float *f, double *d, int v) {
  atomicAdd_block(p, v); atomicAdd_system(p, v); atomicCAS_block(p, v, 1); atomicExch_system(p, v); atomicMax_block(p, v); atomicOr_system(p, v);
  atomicInc_block((unsigned *)p, 4); atomicDec_system((unsigned *)p, 4);
  atomicAdd_block(q, 1ull); atomicCAS_system(q, 2ull, 3ull);
  atomicAdd_block(f, 1.0f); atomicAdd_system(d, 1.0); atomicExch_block(f, 2.0f);
}
K a_float(float *f, double *d, float *o) {
  o[0] = atomicAdd(f, 1.5f) + atomicExch(f, 2.5f) + (float)atomicAdd(d, 1.5);
}
K a_shared(int *o) {
  __shared__ int s[4]; __shared__ unsigned long long s64; __shared__ float sf; __shared__ double sd;
  if (threadIdx.x == 0) { s[0] = 0; s64 = 0; sf = 0; sd = 0; } __syncthreads();
  atomicAdd(&s[0], 1); atomicMax(&s[1], threadIdx.x); atomicCAS(&s64, 0ull, 1ull); atomicAdd(&sf, 1.0f); atomicAdd(&sd, 1.0); atomicInc((unsigned *)&s[2], 7);
  __syncthreads(); o[threadIdx.x] = s[0] + s[1] + (int)s64 + (int)sf + (int)sd;
}
K a_cas16(unsigned short *p, unsigned short v) { atomicCAS(p, v, (unsigned short)(v + 1)); }
K a_half(__half *h, __half2 *h2, __nv_bfloat16 *b, __nv_bfloat162 *b2, float *o) {
  __half r = atomicAdd(h, __float2half(1.0f)); __half2 r2 = atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
  __nv_bfloat16 rb = atomicAdd(b, __float2bfloat16(1.0f)); __nv_bfloat162 rb2 = atomicAdd(b2, __floats2bfloat162_rn(1.0f, 2.0f));
  o[0] = __half2float(r) + __low2float(r2) + __bfloat162float(rb) + __low2float(rb2);
}
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
K a_vec(float2 *f2, float4 *f4, float *o) {  // sm_90
  float2 r = atomicAdd(f2, make_float2(1, 2)); float4 s = atomicAdd(f4, make_float4(1, 2, 3, 4));
  atomicAdd_block(f2, make_float2(1, 2)); atomicAdd_system(f4, make_float4(1, 2, 3, 4));
  o[0] = r.x + r.y + s.x + s.w;
}
#endif
struct __align__(16) U128 { unsigned long long lo, hi; };
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 900
K a_128(U128 *p, U128 *o) {  // sm_90
  U128 c = o[1], v = o[2];
  o[0] = atomicCAS(p, c, v); o[3] = atomicExch(p, v); o[4] = atomicCAS_block(p, c, v); o[5] = atomicExch_system(p, v);
}
#endif
K a_nv(int *p, unsigned long long *q, float *f, int *o, int v) {
  o[0] = __nv_atomic_fetch_add(p, v, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  o[1] = __nv_atomic_fetch_or(p, v, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  o[2] = __nv_atomic_fetch_max(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_SYSTEM);
  o[3] = __nv_atomic_fetch_min(p, v, __NV_ATOMIC_ACQ_REL, __NV_THREAD_SCOPE_CLUSTER);
  o[4] = __nv_atomic_exchange_n(p, v, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
  int e = 1; o[5] = __nv_atomic_compare_exchange_n(p, &e, v, false, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  o[6] = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_DEVICE);
  __nv_atomic_store_n(p, v, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_BLOCK);
  o[7] = (int)__nv_atomic_fetch_add(f, 1.0f, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  o[8] = (int)__nv_atomic_fetch_and(q, 3ull, __NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_SYSTEM);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_CLUSTER);
  __nv_atomic_thread_fence(__NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
}
K a_libcu(int *p, float *f, double *d, unsigned long long *q, int *o) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*p);
  o[0] = a.fetch_add(1, cuda::memory_order_relaxed) + a.fetch_sub(1) + a.exchange(3, cuda::memory_order_acq_rel) + a.load(cuda::memory_order_acquire) + a.fetch_min(2) + a.fetch_max(5);
  a.store(4, cuda::memory_order_release);
  int e = 4; a.compare_exchange_strong(e, 5); a.compare_exchange_weak(e, 6, cuda::memory_order_seq_cst);
  cuda::atomic_ref<float, cuda::thread_scope_block> b(*f); o[1] = (int)(b.fetch_add(1.0f) + b.fetch_min(0.5f) + b.fetch_max(2.0f) + b.load());
  cuda::atomic_ref<double, cuda::thread_scope_system> c(*d); o[2] = (int)(c.fetch_add(1.0) + c.exchange(2.0));
  cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> u(*q); o[3] = (int)(u.fetch_and(1) + u.fetch_or(2) + u.fetch_xor(3));
  cuda::atomic_thread_fence(cuda::memory_order_seq_cst, cuda::thread_scope_device);
  cuda::atomic_thread_fence(cuda::memory_order_acquire, cuda::thread_scope_block);
  cuda::atomic_thread_fence(cuda::memory_order_release, cuda::thread_scope_system);
}
K a_wait(int *p) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(*p);
  a.wait(0); a.notify_one(); a.notify_all();
}
