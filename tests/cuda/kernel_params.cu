// kernel_params: a kernel taking many parameters of mixed sizes and
// alignments by value -- char, short, int, long long, float, double, a
// pointer, a struct with padding, a 16-byte aligned struct and an array in a
// struct -- and writing each back so the host can compare.
#include "check.h"

struct padded { char c; double d; short s; };
struct __align__(16) aligned16 { int a, b, c, d; };
struct arr { int v[9]; };

__global__ void echo(char c, short s, int i, long long ll, float f, double d, const int *p,
                     padded pd, unsigned char uc, aligned16 al, arr ar, float4 f4,
                     long long *out) {
  int k = 0;
  out[k++] = c;
  out[k++] = s;
  out[k++] = i;
  out[k++] = ll;
  out[k++] = (long long)(f * 1000.0f);
  out[k++] = (long long)(d * 1e6);
  out[k++] = p[3];
  out[k++] = pd.c;
  out[k++] = (long long)(pd.d * 100.0);
  out[k++] = pd.s;
  out[k++] = uc;
  out[k++] = al.a + 10 * al.b + 100 * al.c + 1000 * al.d;
  for (int j = 0; j < 9; j++) out[k++] = ar.v[j];
  out[k++] = (long long)(f4.x + 2 * f4.y + 4 * f4.z + 8 * f4.w);
}

int main(void) {
  int hp[4] = {5, 6, 7, 8}, *dp;
  long long *dout, got[22];
  CHECK(cudaMalloc(&dp, sizeof(hp)));
  CHECK(cudaMalloc(&dout, sizeof(got)));
  CHECK(cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice));
  padded pd = {'x', 3.25, -300};
  aligned16 al = {1, 2, 3, 4};
  arr ar;
  for (int j = 0; j < 9; j++) ar.v[j] = j * j - 3;
  echo<<<1, 1>>>((char)-7, (short)-12345, 123456789, -9876543210123ll, 1.5f, 2.718281, dp, pd,
                 (unsigned char)250, al, ar, make_float4(1, 2, 3, 4), dout);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(got, dout, sizeof(got), cudaMemcpyDeviceToHost));
  long long want[22] = {-7, -12345, 123456789, -9876543210123ll, 1500, 2718281, 8, 'x', 325,
                        -300, 250, 4321};
  for (int j = 0; j < 9; j++) want[12 + j] = j * j - 3;
  want[21] = 1 + 4 + 12 + 32;
  check_i64("echoed parameter", got, want, 22);
  CHECK(cudaFree(dp)); CHECK(cudaFree(dout));
  return pass("kernel_params");
}
