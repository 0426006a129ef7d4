// err_misaligned: 8- and 16-byte loads and stores at addresses that are not
// multiples of their size.  The GPU fails each launch with
// cudaErrorMisalignedAddress, sticky until cudaDeviceReset; the same
// accesses at aligned addresses work.
#include "check.h"

__global__ void load8(const char *p, long long off, double *out) { *out = *(const double *)(p + off); }
__global__ void store8(char *p, long long off) { *(double *)(p + off) = 1.5; }
__global__ void load16(const char *p, long long off, float4 *out) { *out = *(const float4 *)(p + off); }
__global__ void store16(char *p, long long off) { *(float4 *)(p + off) = make_float4(1, 2, 3, 4); }

enum { LOAD8, STORE8, LOAD16, STORE16 };
static const char *const names[] = {"8-byte load", "8-byte store", "16-byte load", "16-byte store"};

// Runs access `which` at byte offset off of a fresh 256-byte buffer;
// returns the error of the synchronize.
static cudaError_t run(int which, long long off) {
  char *buf;
  float4 *out;
  CHECK(cudaMalloc(&buf, 256));
  CHECK(cudaMalloc(&out, sizeof(float4)));
  CHECK(cudaMemset(buf, 0, 256));
  switch (which) {
  case LOAD8: load8<<<1, 1>>>(buf, off, (double *)out); break;
  case STORE8: store8<<<1, 1>>>(buf, off); break;
  case LOAD16: load16<<<1, 1>>>(buf, off, out); break;
  default: store16<<<1, 1>>>(buf, off); break;
  }
  CHECK(cudaGetLastError());
  cudaError_t e = cudaDeviceSynchronize();
  if (e == cudaSuccess) {
    CHECK(cudaFree(buf));
    CHECK(cudaFree(out));
  }
  return e;
}

int main(void) {
  for (int which = LOAD8; which <= STORE16; which++) {
    long long size = which <= STORE8 ? 8 : 16;
    cudaError_t e = run(which, size);            // aligned: fine
    if (e != cudaSuccess) {
      printf("FAIL aligned %s: %s\n", names[which], cudaGetErrorName(e));
      return 1;
    }
    long long offs[] = {size / 2, 2};             // misaligned by half its size, and by 2
    for (int k = 0; k < 2; k++) {
      e = run(which, size + offs[k]);
      if (e != cudaErrorMisalignedAddress) {
        printf("FAIL %s at offset %lld: %s, expected cudaErrorMisalignedAddress\n", names[which],
               size + offs[k], cudaGetErrorName(e));
        return 1;
      }
      void *d;
      EXPECT_ERROR(cudaMalloc(&d, 64), cudaErrorMisalignedAddress);   // sticky
      CHECK(cudaDeviceReset());
      cudaGetLastError();   // the thread's last error may still hold the fault
      printf("%s at offset %lld: cudaErrorMisalignedAddress\n", names[which], size + offs[k]);
    }
  }
  return pass("err_misaligned");
}
