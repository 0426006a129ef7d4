// recursion: recursive __noinline__ device functions (fibonacci, factorial,
// Ackermann-lite and a recursive sum over a small binary tree held in an array).
#include "check.h"

__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ unsigned long long fact(int n) { return n <= 1 ? 1ull : n * fact(n - 1); }

__device__ __noinline__ int tree_sum(const int *tree, int node, int n) {
  if (node >= n) return 0;
  return tree[node] + tree_sum(tree, 2 * node + 1, n) + tree_sum(tree, 2 * node + 2, n);
}

static int host_fib(int n) { return n < 2 ? n : host_fib(n - 1) + host_fib(n - 2); }
static unsigned long long host_fact(int n) { return n <= 1 ? 1ull : n * host_fact(n - 1); }
static int host_tree_sum(const int *t, int node, int n) {
  return node >= n ? 0 : t[node] + host_tree_sum(t, 2 * node + 1, n) + host_tree_sum(t, 2 * node + 2, n);
}

__global__ void run(int *fibs, unsigned long long *facts, const int *tree, int tree_n, int *sums) {
  int t = threadIdx.x;
  fibs[t] = fib(t % 18);
  facts[t] = fact(t % 21);
  sums[t] = tree_sum(tree, t % tree_n, tree_n);
}

int main(void) {
  const int threads = 64, tree_n = 100;
  int tree[tree_n];
  for (int i = 0; i < tree_n; i++) tree[i] = (i * 17) % 23 - 11;
  int wf[threads], gf[threads], ws[threads], gs[threads];
  unsigned long long wfa[threads], gfa[threads];
  for (int t = 0; t < threads; t++) {
    wf[t] = host_fib(t % 18);
    wfa[t] = host_fact(t % 21);
    ws[t] = host_tree_sum(tree, t % tree_n, tree_n);
  }
  CHECK(cudaDeviceSetLimit(cudaLimitStackSize, 8192));
  int *df, *dtree, *ds;
  unsigned long long *dfa;
  CHECK(cudaMalloc(&df, sizeof(gf)));
  CHECK(cudaMalloc(&dfa, sizeof(gfa)));
  CHECK(cudaMalloc(&ds, sizeof(gs)));
  CHECK(cudaMalloc(&dtree, sizeof(tree)));
  CHECK(cudaMemcpy(dtree, tree, sizeof(tree), cudaMemcpyHostToDevice));
  run<<<1, threads>>>(df, dfa, dtree, tree_n, ds);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(gf, df, sizeof(gf), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gfa, dfa, sizeof(gfa), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(gs, ds, sizeof(gs), cudaMemcpyDeviceToHost));
  check_i32("fib", gf, wf, threads);
  check_u64("fact", gfa, wfa, threads);
  check_i32("tree_sum", gs, ws, threads);
  CHECK(cudaFree(df)); CHECK(cudaFree(dfa)); CHECK(cudaFree(ds)); CHECK(cudaFree(dtree));
  return pass("recursion");
}
