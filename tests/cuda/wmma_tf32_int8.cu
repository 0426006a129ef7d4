// wmma_tf32_int8: the WMMA API beyond half precision (built -arch=sm_80):
//   - a tf32 GEMM (m16n16k8, wmma::precision::tf32, float accumulators),
//     the inputs rounded with wmma::__float_to_tf32 as real code does, A
//     row-major and B row-major, then D = acc + 0.5 * C element-wise on the
//     fragment;
//   - an s8 GEMM (m16n16k16, int accumulators), A row-major, B column-major;
//   - a u8 GEMM on m32n8k16 and an s8 GEMM on m8n32k16, B row-major, C
//     loaded from memory and accumulated into;
//   - a double GEMM (m8n8k4, the sm_80 DMMA shape);
//   - the sub-byte experimental API: s4 (m8n8k32) and b1 (m8n8k128,
//     bmma_sync with XOR / POPC), 16x16 results from 8x8 tiles.
// Every input is a small integer or a quarter of one, so every product and
// partial sum is exact in the accumulator type: the results do not depend on
// how the tensor cores order or round their sums, and the checks against
// the host GEMMs are exact, on cubridge and on a real GPU alike.
#include <mma.h>

#include "check.h"

using namespace nvcuda;

#define M 64
#define N 64
#define K 64

// tf32: one warp per 16x16 tile of D; A (MxK) and B (KxN) row-major, C and D row-major.
__global__ void gemm_tf32(const float *a, const float *b, const float *c, float *d) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (tile >= (M / 16) * (N / 16)) return;
  int tm = tile / (N / 16), tn = tile % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc, fc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 8) {
    wmma::load_matrix_sync(fa, a + tm * 16 * K + k0, K);
    wmma::load_matrix_sync(fb, b + k0 * N + tn * 16, N);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::load_matrix_sync(fc, c + tm * 16 * N + tn * 16, N, wmma::mem_row_major);
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] += 0.5f * fc.x[i];
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// s8, m16n16k16: A (MxK) row-major, B column-major (element (k, n) at n*K + k).
__global__ void gemm_s8(const signed char *a, const signed char *b, int *d) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (tile >= (M / 16) * (N / 16)) return;
  int tm = tile / (N / 16), tn = tile % (N / 16);
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int> acc;
  wmma::fill_fragment(acc, 0);
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(fa, a + tm * 16 * K + k0, K);
    wmma::load_matrix_sync(fb, b + tn * 16 * K + k0, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}

// TM x TN tiles (m32n8k16 or m8n32k16), B row-major, D = A*B + C with C from memory.
template <int TM, int TN, typename T>
__global__ void gemm_rect(const T *a, const T *b, const int *c, int *d) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (tile >= (M / TM) * (N / TN)) return;
  int tm = tile / (N / TN), tn = tile % (N / TN);
  wmma::fragment<wmma::matrix_a, TM, TN, 16, T, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, TM, TN, 16, T, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, TM, TN, 16, int> acc;
  wmma::load_matrix_sync(acc, c + tm * TM * N + tn * TN, N, wmma::mem_row_major);
  for (int k0 = 0; k0 < K; k0 += 16) {
    wmma::load_matrix_sync(fa, a + tm * TM * K + k0, K);
    wmma::load_matrix_sync(fb, b + k0 * N + tn * TN, N);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * TM * N + tn * TN, acc, N, wmma::mem_row_major);
}

// double, m8n8k4: A row-major, B column-major, D column-major.
__global__ void gemm_f64(const double *a, const double *b, double *d) {
  int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  if (tile >= (M / 8) * (N / 8)) return;
  int tm = tile / (N / 8), tn = tile % (N / 8);
  wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 4, double> acc;
  wmma::fill_fragment(acc, 1.0);
  for (int k0 = 0; k0 < K; k0 += 4) {
    wmma::load_matrix_sync(fa, a + tm * 8 * K + k0, K);
    wmma::load_matrix_sync(fb, b + tn * 8 * K + k0, K);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tn * 8 * M + tm * 8, acc, M, wmma::mem_col_major);
}

// Sub-byte: A (16 x KS, row-major, KS elements per row) and B (KS x 16, column-major), D 16x16 row-major;
// warp w computes tile (w / 2, w % 2).
using namespace nvcuda::wmma::experimental;
__global__ void gemm_s4(const void *a, const void *b, int *d) {
  int w = threadIdx.x / 32, tm = w / 2, tn = w % 2;
  wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::fill_fragment(acc, 0);
  wmma::load_matrix_sync(fa, (const char *)a + tm * 8 * 16, 32);
  wmma::load_matrix_sync(fb, (const char *)b + tn * 8 * 16, 32);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d + tm * 8 * 16 + tn * 8, acc, 16, wmma::mem_row_major);
}

__global__ void gemm_b1(const void *a, const void *b, int *d) {
  int w = threadIdx.x / 32, tm = w / 2, tn = w % 2;
  wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
  wmma::fill_fragment(acc, 3);
  wmma::load_matrix_sync(fa, (const char *)a + tm * 8 * 16, 128);
  wmma::load_matrix_sync(fb, (const char *)b + tn * 8 * 16, 128);
  wmma::bmma_sync(acc, fa, fb, acc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(d + tm * 8 * 16 + tn * 8, acc, 16, wmma::mem_row_major);
}

template <typename T>
static T *to_device(const T *h, size_t n) {
  T *d;
  CHECK(cudaMalloc(&d, n * sizeof(T)));
  CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
static void from_device(T *h, const T *d, size_t n) {
  CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}

int main(void) {
  unsigned seed = 77;
  static float fa[M * K], fb[K * N], fc[M * N], fwant[M * N], fgot[M * N];
  static signed char sa[M * K], sb[K * N], sbr[K * N];
  static unsigned char ua[M * K], ub[K * N];
  static int ic[M * N], iwant[M * N], igot[M * N];
  static double da[M * K], db[K * N], dwant[M * N], dgot[M * N];
  for (int i = 0; i < M * K; i++) {
    fa[i] = (float)((int)(test_rand(&seed) % 17) - 8) * 0.25f;
    sa[i] = (signed char)(test_rand(&seed) & 0xff);
    ua[i] = (unsigned char)(test_rand(&seed) & 0xff);
    da[i] = (double)((int)(test_rand(&seed) % 9) - 4);
  }
  for (int i = 0; i < K * N; i++) {
    fb[i] = (float)((int)(test_rand(&seed) % 9) - 4);
    sb[i] = (signed char)(test_rand(&seed) & 0xff);
    sbr[i] = (signed char)(test_rand(&seed) & 0xff);
    ub[i] = (unsigned char)(test_rand(&seed) & 0xff);
    db[i] = (double)((int)(test_rand(&seed) % 7) - 3);
  }
  for (int i = 0; i < M * N; i++) {
    fc[i] = (float)((int)(test_rand(&seed) % 41) - 20);
    ic[i] = (int)(test_rand(&seed) % 200001) - 100000;
  }
  const int threads = 128, warps = threads / 32;

  // tf32
  float *dfa = to_device(fa, M * K), *dfb = to_device(fb, K * N), *dfc = to_device(fc, M * N), *dfd;
  CHECK(cudaMalloc(&dfd, M * N * sizeof(float)));
  gemm_tf32<<<(M / 16) * (N / 16) / warps, threads>>>(dfa, dfb, dfc, dfd);
  CHECK_LAUNCH();
  from_device(fgot, dfd, M * N);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = 0;
      for (int k = 0; k < K; k++) s += (double)fa[m * K + k] * fb[k * N + n];
      fwant[m * N + n] = (float)(s + 0.5 * fc[m * N + n]);
    }
  check_f32_exact("wmma tf32 m16n16k8 GEMM", fgot, fwant, M * N);

  // s8 m16n16k16
  signed char *dsa = to_device(sa, M * K), *dsb = to_device(sb, K * N), *dsbr = to_device(sbr, K * N);
  int *did, *dic = to_device(ic, M * N);
  CHECK(cudaMalloc(&did, M * N * sizeof(int)));
  gemm_s8<<<(M / 16) * (N / 16) / warps, threads>>>(dsa, dsb, did);
  CHECK_LAUNCH();
  from_device(igot, did, M * N);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int s = 0;
      for (int k = 0; k < K; k++) s += sa[m * K + k] * sb[n * K + k];
      iwant[m * N + n] = s;
    }
  check_i32("wmma s8 m16n16k16 GEMM", igot, iwant, M * N);

  // u8 m32n8k16 with C
  unsigned char *dua = to_device(ua, M * K), *dub = to_device(ub, K * N);
  gemm_rect<32, 8, unsigned char><<<(M / 32) * (N / 8) / warps, threads>>>(dua, dub, dic, did);
  CHECK_LAUNCH();
  from_device(igot, did, M * N);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int s = ic[m * N + n];
      for (int k = 0; k < K; k++) s += ua[m * K + k] * ub[k * N + n];
      iwant[m * N + n] = s;
    }
  check_i32("wmma u8 m32n8k16 GEMM", igot, iwant, M * N);

  // s8 m8n32k16 with C
  gemm_rect<8, 32, signed char><<<(M / 8) * (N / 32) / warps, threads>>>(dsa, dsbr, dic, did);
  CHECK_LAUNCH();
  from_device(igot, did, M * N);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      int s = ic[m * N + n];
      for (int k = 0; k < K; k++) s += sa[m * K + k] * sbr[k * N + n];
      iwant[m * N + n] = s;
    }
  check_i32("wmma s8 m8n32k16 GEMM", igot, iwant, M * N);

  // f64 m8n8k4 (B column-major: db read as element (k, n) at n*K + k)
  double *dda = to_device(da, M * K), *ddb = to_device(db, K * N), *ddd;
  CHECK(cudaMalloc(&ddd, M * N * sizeof(double)));
  gemm_f64<<<(M / 8) * (N / 8) / warps, threads>>>(dda, ddb, ddd);
  CHECK_LAUNCH();
  from_device(dgot, ddd, M * N);
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = 1.0;
      for (int k = 0; k < K; k++) s += da[m * K + k] * db[n * K + k];
      dwant[n * M + m] = s;
    }
  check_f64_exact("wmma f64 m8n8k4 GEMM", dgot, dwant, M * N);

  // s4: element e of a row is nibble e % 2 (low first) of byte e / 2; any fixed order gives the same sums
  static unsigned char a4[16 * 16], b4[16 * 16], a1[16 * 16], b1[16 * 16];
  static int sgot[256], swant[256];
  for (int i = 0; i < 256; i++) {
    a4[i] = (unsigned char)test_rand(&seed), b4[i] = (unsigned char)test_rand(&seed);
    a1[i] = (unsigned char)test_rand(&seed), b1[i] = (unsigned char)test_rand(&seed);
  }
  unsigned char *da4 = to_device(a4, 256), *db4 = to_device(b4, 256), *da1 = to_device(a1, 256), *db1 = to_device(b1, 256);
  int *dsd;
  CHECK(cudaMalloc(&dsd, 256 * sizeof(int)));
  gemm_s4<<<1, 128>>>(da4, db4, dsd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(sgot, dsd, sizeof sgot, cudaMemcpyDeviceToHost));
  for (int m = 0; m < 16; m++)
    for (int n = 0; n < 16; n++) {
      int s = 0;
      for (int k = 0; k < 32; k++) {
        int x = (a4[m * 16 + k / 2] >> (4 * (k % 2))) & 15, y = (b4[n * 16 + k / 2] >> (4 * (k % 2))) & 15;
        s += (x - (x & 8 ? 16 : 0)) * (y - (y & 8 ? 16 : 0));
      }
      swant[m * 16 + n] = s;
    }
  check_i32("wmma s4 m8n8k32", sgot, swant, 256);
  gemm_b1<<<1, 128>>>(da1, db1, dsd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(sgot, dsd, sizeof sgot, cudaMemcpyDeviceToHost));
  for (int m = 0; m < 16; m++)
    for (int n = 0; n < 16; n++) {
      int s = 3;
      for (int k = 0; k < 16; k++) s += __builtin_popcount((unsigned)(a1[m * 16 + k] ^ b1[n * 16 + k]));
      swant[m * 16 + n] = s;
    }
  check_i32("wmma b1 m8n8k128 xor.popc", sgot, swant, 256);
  CHECK(cudaFree(da4)); CHECK(cudaFree(db4)); CHECK(cudaFree(da1)); CHECK(cudaFree(db1)); CHECK(cudaFree(dsd));

  CHECK(cudaFree(dfa)); CHECK(cudaFree(dfb)); CHECK(cudaFree(dfc)); CHECK(cudaFree(dfd));
  CHECK(cudaFree(dsa)); CHECK(cudaFree(dsb)); CHECK(cudaFree(dsbr)); CHECK(cudaFree(did)); CHECK(cudaFree(dic));
  CHECK(cudaFree(dua)); CHECK(cudaFree(dub)); CHECK(cudaFree(dda)); CHECK(cudaFree(ddb)); CHECK(cudaFree(ddd));
  return pass("wmma_tf32_int8");
}
