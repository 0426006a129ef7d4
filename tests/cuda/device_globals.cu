// device_globals: __device__ variables (a counter, a table, an initialised
// struct) written by kernels and read back with cudaMemcpyFromSymbol and
// through cudaGetSymbolAddress.
#include "check.h"

struct config { int mult; int add; };

__device__ int counter;
__device__ int table[64];
__device__ config cfg = {7, 11};
__device__ unsigned long long big = 0x0123456789abcdefull;

__global__ void fill(void) {
  int t = threadIdx.x;
  table[t] = t * cfg.mult + cfg.add;
  atomicAdd(&counter, 1);
  if (t == 0) big ^= 0xffull;
}

int main(void) {
  int zero = 0;
  CHECK(cudaMemcpyToSymbol(counter, &zero, sizeof(int)));
  fill<<<1, 64>>>();
  CHECK_LAUNCH();
  fill<<<1, 64>>>();
  CHECK_LAUNCH();
  int got_table[64], want_table[64], got_counter, want_counter = 128;
  unsigned long long got_big, want_big = 0x0123456789abcdefull;
  CHECK(cudaMemcpyFromSymbol(got_table, table, sizeof(got_table)));
  CHECK(cudaMemcpyFromSymbol(&got_counter, counter, sizeof(int)));
  CHECK(cudaMemcpyFromSymbol(&got_big, big, sizeof(got_big)));
  for (int t = 0; t < 64; t++) want_table[t] = t * 7 + 11;
  check_i32("table", got_table, want_table, 64);
  check_i32("counter", &got_counter, &want_counter, 1);
  check_u64("big (xored twice)", &got_big, &want_big, 1);
  // Through the symbol's address and size.
  void *addr;
  size_t size;
  CHECK(cudaGetSymbolAddress(&addr, table));
  CHECK(cudaGetSymbolSize(&size, table));
  if (size != sizeof(got_table)) {
    printf("FAIL cudaGetSymbolSize(table): got %zu, expected %zu\n", size, sizeof(got_table));
    return 1;
  }
  int via_addr[64];
  CHECK(cudaMemcpy(via_addr, addr, sizeof(via_addr), cudaMemcpyDeviceToHost));
  check_i32("table via address", via_addr, want_table, 64);
  config c2 = {2, -1};
  CHECK(cudaMemcpyToSymbol(cfg, &c2, sizeof(c2)));
  fill<<<1, 64>>>();
  CHECK_LAUNCH();
  CHECK(cudaMemcpyFromSymbol(got_table, table, sizeof(got_table)));
  for (int t = 0; t < 64; t++) want_table[t] = t * 2 - 1;
  check_i32("table after new cfg", got_table, want_table, 64);
  return pass("device_globals");
}
