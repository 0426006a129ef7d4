// err_misaligned: 8- and 16-byte loads and stores at addresses that are not
// multiples of their size.  The GPU fails each launch with
// cudaErrorMisalignedAddress, sticky for the context; the same accesses at
// aligned addresses work.
#include "check.h"
#include <sys/wait.h>
#include <unistd.h>

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

// Each misaligned access runs in a process of its own: this program again,
// with the case's number. After a fault and cudaDeviceReset the H200 (driver
// 580) answers cudaErrorDevicesUnavailable to the same process's next
// context, so a process that faulted does nothing more. The parent never
// touches CUDA (a child forked after CUDA's initialisation could not use it).
static int run_child(int c) {
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    char arg[16];
    snprintf(arg, sizeof arg, "%d", c);
    execl("/proc/self/exe", "err_misaligned", arg, (char *)NULL);
    _exit(127);
  }
  int st = 0;
  if (pid < 0 || waitpid(pid, &st, 0) != pid)
    return 1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

// Case c: access c / 2, misaligned by half its size (even c) or by 2 (odd c),
// after the same access at an aligned address.
static int one_case(int c) {
  int which = c / 2;
  long long size = which <= STORE8 ? 8 : 16;
  long long off = size + (c % 2 ? 2 : size / 2);
  cudaError_t e = run(which, size);            // aligned: fine
  if (e != cudaSuccess) {
    printf("FAIL aligned %s: %s\n", names[which], cudaGetErrorName(e));
    return 1;
  }
  e = run(which, off);
  if (e != cudaErrorMisalignedAddress) {
    printf("FAIL %s at offset %lld: %s, expected cudaErrorMisalignedAddress\n", names[which], off,
           cudaGetErrorName(e));
    return 1;
  }
  void *d;
  EXPECT_ERROR(cudaMalloc(&d, 64), cudaErrorMisalignedAddress);   // sticky
  printf("%s at offset %lld: cudaErrorMisalignedAddress\n", names[which], off);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1)
    return one_case(atoi(argv[1]));
  for (int c = 0; c < 8; c++)
    if (run_child(c) != 0)
      return 1;
  return pass("err_misaligned");
}
