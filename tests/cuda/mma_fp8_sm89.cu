// mma_fp8_sm89: warp-level mma through inline PTX, the forms that the
// WMMA API does not reach (built -arch=sm_89; cubridge must report
// compute capability 8.9 or higher, CUBRIDGE_SM=89, for this PTX to be chosen):
//   - fp8: mma.sync.aligned.m16n8k32 .e4m3 x .e4m3 with f32 accumulators
//     (a 64x32x64 GEMM) and .e5m2 x .e4m3 with f16 accumulators;
//   - mma.m8n8k4 .f16 (the sm_70 "quad pair" form: four independent 8x8x4
//     products per warp), .row.col with f32 accumulators;
//   - sparse mma.sp::ordered_metadata m16n8k16 .f16 with a 2:4 sparse A,
//     its non-zeros and metadata built on the device.
// Each lane loads its fragment from memory at the positions of the PTX
// ISA's fragment tables, as hand-written tensor-core code does. All inputs
// are small integers, so every sum is exact (even for tensor cores that
// accumulate fp8 products in fewer bits than f32) and the checks are exact.
#include <cuda_fp16.h>

#include "check.h"

// e4m3 / e5m2 encodings of the integer q, |q| <= 8
__host__ __device__ static unsigned char fp8_of_int(int q, int e5m2) {
  if (q == 0) return 0;
  unsigned s = q < 0 ? 0x80u : 0, a = (unsigned)(q < 0 ? -q : q), e = 0;
  while ((a >> e) > 1) e++;
  if (e5m2) return (unsigned char)(s | (e + 15) << 2 | ((a << 2 >> e) & 3u));
  return (unsigned char)(s | (e + 7) << 3 | ((a << 3 >> e) & 7u));
}

#define FM 64
#define FN 32
#define FK 64

// D (FMxFN, f32) = A (FMxFK e4m3, row-major) * B (FKxFN e4m3, column-major) + C; one warp per 16x8 tile.
__global__ void fp8_gemm(const unsigned char *a, const unsigned char *b, const float *c, float *d) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
  if (tile >= (FM / 16) * (FN / 8)) return;
  int tm = tile / (FN / 8), tn = tile % (FN / 8), g = lane >> 2, t = lane & 3;
  float acc[4];
  for (int i = 0; i < 4; i++) acc[i] = c[(tm * 16 + g + 8 * (i >> 1)) * FN + tn * 8 + 2 * t + (i & 1)];
  for (int k0 = 0; k0 < FK; k0 += 32) {
    unsigned ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0};
    for (int i = 0; i < 16; i++) {
      int row = g + 8 * ((i >> 2) & 1), col = 4 * t + (i & 3) + 16 * (i >> 3);
      ra[i / 4] |= (unsigned)a[(tm * 16 + row) * FK + k0 + col] << (8 * (i % 4));
    }
    for (int i = 0; i < 8; i++) {
      int row = 4 * t + (i & 3) + 16 * (i >> 2), col = g;
      rb[i / 4] |= (unsigned)b[(tn * 8 + col) * FK + k0 + row] << (8 * (i % 4));
    }
    asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
                 "{%8, %9}, {%0, %1, %2, %3};"
                 : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
  }
  for (int i = 0; i < 4; i++) d[(tm * 16 + g + 8 * (i >> 1)) * FN + tn * 8 + 2 * t + (i & 1)] = acc[i];
}

// One 16x8x32 product with f16 accumulators: A e5m2 (16x32 row-major), B e4m3 (32x8 column-major), C f16.
__global__ void fp8_f16acc(const unsigned char *a, const unsigned char *b, const __half *c, __half *d) {
  int lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
  unsigned ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0}, rc[2], rd[2];
  for (int i = 0; i < 16; i++)
    ra[i / 4] |= (unsigned)a[(g + 8 * ((i >> 2) & 1)) * 32 + 4 * t + (i & 3) + 16 * (i >> 3)] << (8 * (i % 4));
  for (int i = 0; i < 8; i++) rb[i / 4] |= (unsigned)b[g * 32 + 4 * t + (i & 3) + 16 * (i >> 2)] << (8 * (i % 4));
  for (int j = 0; j < 2; j++) {
    __half lo = c[(g + 8 * j) * 8 + 2 * t], hi = c[(g + 8 * j) * 8 + 2 * t + 1];
    rc[j] = (unsigned)__half_as_ushort(lo) | (unsigned)__half_as_ushort(hi) << 16;
  }
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(rd[0]), "=r"(rd[1])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]));
  for (int j = 0; j < 2; j++) {
    d[(g + 8 * j) * 8 + 2 * t] = __ushort_as_half((unsigned short)(rd[j] & 0xffff));
    d[(g + 8 * j) * 8 + 2 * t + 1] = __ushort_as_half((unsigned short)(rd[j] >> 16));
  }
}

// mma.m8n8k4 .row.col f16 -> f32: quad pair q (lanes 4q..4q+3 and 4q+16..4q+19) multiplies A_q (8x4,
// row-major, at a + 32q) by B_q (4x8, column-major, at b + 32q) and adds C_q (8x8 row-major, at c + 64q).
__global__ void m8n8k4_quadpairs(const __half *a, const __half *b, const float *c, float *d) {
  int lane = threadIdx.x % 32, q = (lane >> 2) & 3, hi = lane >= 16 ? 4 : 0;
  unsigned short ea[4], eb[4];
  for (int i = 0; i < 4; i++) {
    ea[i] = __half_as_ushort(a[32 * q + (lane % 4 + hi) * 4 + i]);   // row lane%4 (+4), column i
    eb[i] = __half_as_ushort(b[32 * q + (lane % 4 + hi) * 4 + i]);   // .col: row i, column lane%4 (+4)
  }
  unsigned ra[2] = {ea[0] | (unsigned)ea[1] << 16, ea[2] | (unsigned)ea[3] << 16};
  unsigned rb[2] = {eb[0] | (unsigned)eb[1] << 16, eb[2] | (unsigned)eb[3] << 16};
  float acc[8];
  for (int i = 0; i < 8; i++) {
    int row = (lane & 1) + (i & 2) + hi, col = (i & 4) + (lane & 2) + (i & 1);
    acc[i] = c[64 * q + row * 8 + col];
  }
  asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, "
               "{%10, %11}, {%0, %1, %2, %3, %4, %5, %6, %7};"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3]), "+f"(acc[4]), "+f"(acc[5]), "+f"(acc[6]),
                 "+f"(acc[7])
               : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "r"(rb[1]));
  for (int i = 0; i < 8; i++) {
    int row = (lane & 1) + (i & 2) + hi, col = (i & 4) + (lane & 2) + (i & 1);
    d[64 * q + row * 8 + col] = acc[i];
  }
}

// Sparse m16n8k16: A (16x16 row-major, two non-zeros in every 4-wide chunk) is compressed here: lane (g, t)
// holds the non-zeros of chunk t of rows g and g+8; the lane with t == 1 (selector 1) provides the metadata
// of rows g (bits 0-15) and g+8 (bits 16-31), chunk c at bits 4c..4c+3, first index in the low 2 bits.
__global__ void sparse_f16(const __half *a, const __half *b, const float *c, float *d) {
  int lane = threadIdx.x % 32, g = lane >> 2, t = lane & 3;
  unsigned short av[4] = {0, 0, 0, 0};
  unsigned meta = 0;
  for (int h = 0; h < 2; h++) {   // rows g and g+8
    int row = g + 8 * h, n = 0;
    for (int j = 0; j < 4 && n < 2; j++) {
      __half v = a[row * 16 + 4 * t + j];
      if (__half_as_ushort(v) != 0) av[2 * h + n++] = __half_as_ushort(v);
    }
    for (int ch = 0; ch < 4; ch++) {   // metadata of this row, all four chunks
      int idx[2] = {0, 1}, m = 0;
      for (int j = 0; j < 4 && m < 2; j++)
        if (__half_as_ushort(a[row * 16 + 4 * ch + j]) != 0) idx[m++] = j;
      meta |= (unsigned)(idx[0] | idx[1] << 2) << (16 * h + 4 * ch);
    }
  }
  if (t != 1) meta = 0xdeadbeefu;   // lanes other than the selected one: their metadata is ignored
  unsigned ra[2] = {av[0] | (unsigned)av[1] << 16, av[2] | (unsigned)av[3] << 16}, rb[2];
  for (int j = 0; j < 2; j++) {
    unsigned short lo = __half_as_ushort(b[g * 16 + 2 * t + 8 * j]), hi = __half_as_ushort(b[g * 16 + 2 * t + 1 + 8 * j]);
    rb[j] = lo | (unsigned)hi << 16;   // B column-major: element (k, n) at n*16 + k
  }
  float acc[4];
  for (int i = 0; i < 4; i++) acc[i] = c[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)];
  asm volatile("mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
               "{%4, %5}, {%6, %7}, {%0, %1, %2, %3}, %8, 1;"
               : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
               : "r"(ra[0]), "r"(ra[1]), "r"(rb[0]), "r"(rb[1]), "r"(meta));
  for (int i = 0; i < 4; i++) d[(g + 8 * (i >> 1)) * 8 + 2 * t + (i & 1)] = acc[i];
}

template <typename T>
static T *to_device(const T *h, size_t n) {
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

int main(void) {
  unsigned seed = 89;
  // fp8 GEMM
  static unsigned char a8[FM * FK], b8[FK * FN];
  static int ai[FM * FK], bi[FK * FN];
  static float c32[FM * FN], got[FM * FN], want[FM * FN];
  for (int i = 0; i < FM * FK; i++) ai[i] = (int)(test_rand(&seed) % 17) - 8, a8[i] = fp8_of_int(ai[i], 0);
  for (int i = 0; i < FK * FN; i++) bi[i] = (int)(test_rand(&seed) % 17) - 8, b8[i] = fp8_of_int(bi[i], 0);
  for (int i = 0; i < FM * FN; i++) c32[i] = (float)((int)(test_rand(&seed) % 201) - 100);
  unsigned char *da8 = to_device(a8, FM * FK), *db8 = to_device(b8, FK * FN);
  float *dc = to_device(c32, FM * FN), *dd;
  CHECK(cudaMalloc(&dd, FM * FN * sizeof(float)));
  fp8_gemm<<<(FM / 16) * (FN / 8) / 4, 128>>>(da8, db8, dc, dd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dd, sizeof got, cudaMemcpyDeviceToHost));
  for (int m = 0; m < FM; m++)
    for (int n = 0; n < FN; n++) {
      int s = 0;
      for (int k = 0; k < FK; k++) s += ai[m * FK + k] * bi[n * FK + k];
      want[m * FN + n] = (float)s + c32[m * FN + n];
    }
  check_f32_exact("mma m16n8k32 e4m3 GEMM", got, want, FM * FN);

  // fp8 with f16 accumulators (16x8x32): e5m2 A, e4m3 B, values -4..4
  static unsigned char a5[16 * 32], b4[32 * 8];
  static int a5i[16 * 32], b4i[32 * 8];
  static __half c16[16 * 8], d16[16 * 8];
  static float got16[16 * 8], want16[16 * 8];
  for (int i = 0; i < 16 * 32; i++) a5i[i] = (int)(test_rand(&seed) % 9) - 4, a5[i] = fp8_of_int(a5i[i], 1);
  for (int i = 0; i < 32 * 8; i++) b4i[i] = (int)(test_rand(&seed) % 9) - 4, b4[i] = fp8_of_int(b4i[i], 0);
  for (int i = 0; i < 16 * 8; i++) c16[i] = __float2half((float)((int)(test_rand(&seed) % 41) - 20));
  unsigned char *da5 = to_device(a5, 16 * 32), *db4 = to_device(b4, 32 * 8);
  __half *dc16 = to_device(c16, 16 * 8), *dd16;
  CHECK(cudaMalloc(&dd16, sizeof d16));
  fp8_f16acc<<<1, 32>>>(da5, db4, dc16, dd16);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(d16, dd16, sizeof d16, cudaMemcpyDeviceToHost));
  for (int m = 0; m < 16; m++)
    for (int n = 0; n < 8; n++) {
      int s = 0;
      for (int k = 0; k < 32; k++) s += a5i[m * 32 + k] * b4i[n * 32 + k];
      want16[m * 8 + n] = (float)s + __half2float(c16[m * 8 + n]);
      got16[m * 8 + n] = __half2float(d16[m * 8 + n]);
    }
  check_f32_exact("mma m16n8k32 e5m2 x e4m3, f16 accumulators", got16, want16, 16 * 8);

  // m8n8k4 quad pairs
  static __half qa[4 * 32], qb[4 * 32];
  static float qaf[4 * 32], qbf[4 * 32], qc[4 * 64], qgot[4 * 64], qwant[4 * 64];
  for (int i = 0; i < 4 * 32; i++) {
    qaf[i] = (float)((int)(test_rand(&seed) % 9) - 4), qa[i] = __float2half(qaf[i]);
    qbf[i] = (float)((int)(test_rand(&seed) % 9) - 4), qb[i] = __float2half(qbf[i]);
  }
  for (int i = 0; i < 4 * 64; i++) qc[i] = (float)((int)(test_rand(&seed) % 41) - 20);
  __half *dqa = to_device(qa, 4 * 32), *dqb = to_device(qb, 4 * 32);
  float *dqc = to_device(qc, 4 * 64), *dqd;
  CHECK(cudaMalloc(&dqd, sizeof qgot));
  m8n8k4_quadpairs<<<1, 32>>>(dqa, dqb, dqc, dqd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(qgot, dqd, sizeof qgot, cudaMemcpyDeviceToHost));
  for (int q = 0; q < 4; q++)
    for (int r = 0; r < 8; r++)
      for (int n = 0; n < 8; n++) {
        float s = qc[64 * q + r * 8 + n];
        for (int k = 0; k < 4; k++) s += qaf[32 * q + r * 4 + k] * qbf[32 * q + n * 4 + k];
        qwant[64 * q + r * 8 + n] = s;
      }
  check_f32_exact("mma m8n8k4 f16 quad pairs", qgot, qwant, 4 * 64);

  // sparse m16n8k16
  static __half sa[16 * 16], sb[16 * 8];
  static float saf[16 * 16], sbf[16 * 8], sc[16 * 8], sgot[16 * 8], swant[16 * 8];
  for (int r = 0; r < 16; r++)
    for (int ch = 0; ch < 4; ch++) {
      int i0 = (int)(test_rand(&seed) % 4), i1;
      do i1 = (int)(test_rand(&seed) % 4); while (i1 == i0);
      for (int j = 0; j < 4; j++) {
        int v = 0;
        if (j == i0 || j == i1) do v = (int)(test_rand(&seed) % 9) - 4; while (v == 0);
        saf[r * 16 + 4 * ch + j] = (float)v;
        sa[r * 16 + 4 * ch + j] = __float2half((float)v);
      }
    }
  for (int i = 0; i < 16 * 8; i++) {
    sbf[i] = (float)((int)(test_rand(&seed) % 9) - 4), sb[i] = __float2half(sbf[i]);
    sc[i] = (float)((int)(test_rand(&seed) % 41) - 20);
  }
  __half *dsa = to_device(sa, 16 * 16), *dsb = to_device(sb, 16 * 8);
  float *dsc = to_device(sc, 16 * 8), *dsd;
  CHECK(cudaMalloc(&dsd, sizeof sgot));
  sparse_f16<<<1, 32>>>(dsa, dsb, dsc, dsd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(sgot, dsd, sizeof sgot, cudaMemcpyDeviceToHost));
  for (int m = 0; m < 16; m++)
    for (int n = 0; n < 8; n++) {
      float s = sc[m * 8 + n];
      for (int k = 0; k < 16; k++) s += saf[m * 16 + k] * sbf[n * 16 + k];
      swant[m * 8 + n] = s;
    }
  check_f32_exact("mma.sp m16n8k16 f16 (2:4 A, selector 1)", sgot, swant, 16 * 8);

  CHECK(cudaFree(da8)); CHECK(cudaFree(db8)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
  CHECK(cudaFree(da5)); CHECK(cudaFree(db4)); CHECK(cudaFree(dc16)); CHECK(cudaFree(dd16));
  CHECK(cudaFree(dqa)); CHECK(cudaFree(dqb)); CHECK(cudaFree(dqc)); CHECK(cudaFree(dqd));
  CHECK(cudaFree(dsa)); CHECK(cudaFree(dsb)); CHECK(cudaFree(dsc)); CHECK(cudaFree(dsd));
  return pass("mma_fp8_sm89");
}
