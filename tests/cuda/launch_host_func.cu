// launch_host_func: host functions enqueued with cudaLaunchHostFunc run in
// stream order, after the work before them and before the work after them.
#include "check.h"

struct log_state {
  int order[8];
  int count;
  const int *pinned;   // filled by a copy enqueued before the host function
  long long sum;
};

static void CUDART_CB note(void *arg) {
  log_state *st = (log_state *)arg;
  st->order[st->count] = st->count + 100;
  st->count++;
}

static void CUDART_CB sum_pinned(void *arg) {
  log_state *st = (log_state *)arg;
  long long s = 0;
  for (int i = 0; i < 1024; i++) s += st->pinned[i];
  st->sum = s;
  st->order[st->count++] = 999;
}

__global__ void fill(int *p, int base) { p[threadIdx.x + blockIdx.x * blockDim.x] = base + threadIdx.x; }

int main(void) {
  log_state st;
  memset(&st, 0, sizeof(st));
  int *pinned, *d;
  CHECK(cudaMallocHost(&pinned, 1024 * sizeof(int)));
  CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
  st.pinned = pinned;
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaLaunchHostFunc(s, note, &st));
  fill<<<4, 256, 0, s>>>(d, 10);
  CHECK(cudaGetLastError());
  CHECK(cudaLaunchHostFunc(s, note, &st));
  CHECK(cudaMemcpyAsync(pinned, d, 1024 * sizeof(int), cudaMemcpyDeviceToHost, s));
  CHECK(cudaLaunchHostFunc(s, sum_pinned, &st));
  CHECK(cudaLaunchHostFunc(s, note, &st));
  CHECK(cudaStreamSynchronize(s));
  long long want_sum = 0;
  for (int i = 0; i < 1024; i++) want_sum += 10 + i % 256;
  int want_order[4] = {100, 101, 999, 103};
  int got_count = st.count, want_count = 4;
  check_i32("host function count", &got_count, &want_count, 1);
  check_i32("host function order", st.order, want_order, 4);
  check_i64("sum seen by host function", &st.sum, &want_sum, 1);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(d));
  return pass("launch_host_func");
}
