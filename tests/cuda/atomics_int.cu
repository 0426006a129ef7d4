// atomics_int: the integer atomics -- add/sub/exch/min/max/inc/dec/and/or/xor
// on 32 bits, and add/min/max/CAS on 64 bits.  Results are order-independent.
#include "check.h"

__global__ void atomics(int *i32, unsigned *u32, unsigned long long *u64, long long *s64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&i32[0], i);
  atomicSub(&i32[1], i % 7);
  atomicMin(&i32[2], (i * 37) % 1001 - 500);
  atomicMax(&i32[3], (i * 53) % 997 - 400);
  atomicAnd(&u32[0], ~(1u << (i % 32)) | (i % 64 < 32 ? 0u : 0xffffffffu));
  atomicOr(&u32[1], 1u << (i % 29));
  atomicXor(&u32[2], (unsigned)i * 2654435761u);
  atomicInc(&u32[3], 99u);                 // wraps to 0 after 99
  atomicDec(&u32[4], 49u);                 // wraps to 49 after 0
  atomicAdd(&u64[0], (unsigned long long)i << 20);
  atomicMin(&u64[1], 1000000000000ull + (unsigned long long)((i * 7919) % n));
  atomicMax(&s64[0], ((long long)i * 104729) % n - 5000000000ll);
  if (i == n / 2) atomicExch(&i32[4], 4242);
  atomicCAS(&i32[5], 0, i + 1);            // exactly one thread wins; 1..n
}

int main(void) {
  const int n = 100000;
  int wi[6] = {0, 0, 1 << 30, -(1 << 30), 0, 0}, gi[6];
  unsigned wu[5] = {0xffffffffu, 0, 0, 0, 0}, gu[5];
  unsigned long long wu64[2] = {0, ~0ull}, gu64[2];
  long long ws64[1] = {-(1ll << 62)}, gs64[1];
  int *di; unsigned *du; unsigned long long *du64; long long *ds64;
  CHECK(cudaMalloc(&di, sizeof(wi)));
  CHECK(cudaMalloc(&du, sizeof(wu)));
  CHECK(cudaMalloc(&du64, sizeof(wu64)));
  CHECK(cudaMalloc(&ds64, sizeof(ws64)));
  CHECK(cudaMemcpy(di, wi, sizeof(wi), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(du, wu, sizeof(wu), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(du64, wu64, sizeof(wu64), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(ds64, ws64, sizeof(ws64), cudaMemcpyHostToDevice));
  atomics<<<(n + 255) / 256, 256>>>(di, du, du64, ds64, n);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(gi, di, sizeof(gi), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gu, du, sizeof(gu), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gu64, du64, sizeof(gu64), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gs64, ds64, sizeof(gs64), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) {
    wi[0] += i;
    wi[1] -= i % 7;
    if ((i * 37) % 1001 - 500 < wi[2]) wi[2] = (i * 37) % 1001 - 500;
    if ((i * 53) % 997 - 400 > wi[3]) wi[3] = (i * 53) % 997 - 400;
    wu[0] &= ~(1u << (i % 32)) | (i % 64 < 32 ? 0u : 0xffffffffu);
    wu[1] |= 1u << (i % 29);
    wu[2] ^= (unsigned)i * 2654435761u;
    wu[3] = wu[3] >= 99u ? 0 : wu[3] + 1;
    wu[4] = (wu[4] == 0 || wu[4] > 49u) ? 49u : wu[4] - 1;
    wu64[0] += (unsigned long long)i << 20;
    unsigned long long m = 1000000000000ull + (unsigned long long)((i * 7919) % n);
    if (m < wu64[1]) wu64[1] = m;
    long long s = ((long long)i * 104729) % n - 5000000000ll;
    if (s > ws64[0]) ws64[0] = s;
  }
  wi[4] = 4242;
  if (gi[5] < 1 || gi[5] > n) {
    printf("FAIL CAS winner: got %d, expected one of 1..%d\n", gi[5], n);
    return 1;
  }
  wi[5] = gi[5];
  check_i32("int atomics", gi, wi, 6);
  check_u32("unsigned atomics", gu, wu, 5);
  check_u64("u64 atomics", gu64, wu64, 2);
  check_i64("s64 atomicMax", gs64, ws64, 1);
  CHECK(cudaFree(di)); CHECK(cudaFree(du)); CHECK(cudaFree(du64)); CHECK(cudaFree(ds64));
  return pass("atomics_int");
}
