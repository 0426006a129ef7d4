// cub_algorithms: CUB's device-wide algorithms, and its block- and warp-level
// collectives inside kernels of our own, as people call them: each device
// algorithm is called twice, first with a NULL temporary-storage pointer to
// learn the size, then with an allocation of that size.
//
// Device-wide, on several sizes (0, 1, 1000, 100000 and 1<<18 where it
// matters): DeviceRadixSort (SortKeys on unsigned, float and int64,
// SortKeysDescending, SortPairs, a bit range, the DoubleBuffer form),
// DeviceScan (InclusiveSum, ExclusiveSum, InclusiveScan with cuda::maximum,
// ExclusiveScan with a user functor and an init), DeviceReduce (Sum, Max,
// Reduce with a user functor, ArgMax, ReduceByKey), DeviceSelect (If,
// Flagged, Unique), DeviceRunLengthEncode::Encode, DeviceHistogram::HistogramEven
// and DeviceSegmentedReduce::Sum.
// Block- and warp-level: BlockReduce (raking, warp reductions, a partial
// tile), BlockScan (raking, raking-memoize, warp scans; sum with aggregate,
// max), BlockLoad/BlockStore (transpose), BlockRadixSort, WarpReduce (full
// and 16-lane logical warps, sum and max), WarpScan; and a grid-stride
// BlockReduce whose grid is sized from the occupancy queries, as CUB sizes its own.
//
// Every result is compared exactly with a host computation (integer data, and
// floats that are small integers); stdout has one line per group of checks.
#include "check.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include <cub/cub.cuh>
#include <cuda/functional>

// ---------------------------------------------------------------- helpers

template <class T> static T *to_device(const std::vector<T> &h) {
  T *d = NULL;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T) + 1));  // +1: a valid pointer for n == 0
  if (!h.empty()) CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T> static T *device_zeros(size_t n) {
  T *d = NULL;
  CHECK(cudaMalloc(&d, n * sizeof(T) + 1));
  CHECK(cudaMemset(d, 0, n * sizeof(T) + 1));
  return d;
}
template <class T> static std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaDeviceSynchronize());
  if (n) CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
template <class T> static void expect(const char *what, int n, const std::vector<T> &got,
                                      const std::vector<T> &want) {
  for (size_t i = 0; i < want.size(); i++)
    if (!(got[i] == want[i])) {
      printf("FAIL %s n=%d: index %zu: got %.17g, expected %.17g\n", what, n, i,
             (double)got[i], (double)want[i]);
      exit(1);
    }
}
static void expect_count(const char *what, int n, int got, int want) {
  if (got != want) {
    printf("FAIL %s n=%d: count %d, expected %d\n", what, n, got, want);
    exit(1);
  }
}

// Runs a CUB device algorithm the documented way: size query, then the call.
// `call(temp, bytes)` invokes the algorithm.
template <class F> static void run_cub(F call) {
  size_t bytes = 0;
  CHECK(call((void *)NULL, bytes));
  void *temp = NULL;
  CHECK(cudaMalloc(&temp, bytes + 1));
  CHECK(call(temp, bytes));
  CHECK(cudaGetLastError());
  CHECK(cudaFree(temp));
}

struct abs_diff_max {  // a user functor for scans and reductions: max of |x|
  __host__ __device__ int operator()(int a, int b) const {
    int aa = a < 0 ? -a : a, bb = b < 0 ? -b : b;
    return aa > bb ? aa : bb;
  }
};
struct is_multiple_of_3 {
  __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};

// ---------------------------------------------------------------- device-wide

static void radix_sorts(int n) {
  unsigned s = 1u + (unsigned)n;
  std::vector<unsigned> ku(n);
  std::vector<float> kf(n);
  std::vector<long long> kl(n);
  std::vector<int> vals(n);
  for (int i = 0; i < n; i++) {
    ku[i] = test_rand(&s);
    kf[i] = (float)((int)(test_rand(&s) % 4001u) - 2000) * 0.25f;
    kl[i] = ((long long)test_rand(&s) << 32 | test_rand(&s)) - (1LL << 62);
    vals[i] = i;
  }
  unsigned *d_ku = to_device(ku), *d_ku_out = device_zeros<unsigned>(n);
  float *d_kf = to_device(kf), *d_kf_out = device_zeros<float>(n);
  long long *d_kl = to_device(kl), *d_kl_out = device_zeros<long long>(n);
  int *d_v = to_device(vals), *d_v_out = device_zeros<int>(n);

  std::vector<unsigned> wu = ku;
  std::sort(wu.begin(), wu.end());
  run_cub([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, d_ku, d_ku_out, n); });
  expect("DeviceRadixSort::SortKeys unsigned", n, to_host(d_ku_out, n), wu);

  std::vector<float> wf = kf;
  std::sort(wf.begin(), wf.end());
  run_cub([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, d_kf, d_kf_out, n); });
  expect("DeviceRadixSort::SortKeys float", n, to_host(d_kf_out, n), wf);

  std::vector<long long> wl = kl;
  std::sort(wl.begin(), wl.end(), [](long long a, long long b) { return a > b; });
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortKeysDescending(t, b, d_kl, d_kl_out, n);
  });
  expect("DeviceRadixSort::SortKeysDescending int64", n, to_host(d_kl_out, n), wl);

  // SortPairs is stable: values of equal keys stay in input order.
  std::vector<int> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return kf[a] < kf[b]; });
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortPairs(t, b, d_kf, d_kf_out, d_v, d_v_out, n);
  });
  expect("DeviceRadixSort::SortPairs float/int values", n, to_host(d_v_out, n), order);

  // Bits [8, 20) only: a stable sort on that field.
  std::vector<unsigned> wb = ku;
  std::stable_sort(wb.begin(), wb.end(),
                   [](unsigned a, unsigned b) { return (a >> 8 & 0xfffu) < (b >> 8 & 0xfffu); });
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceRadixSort::SortKeys(t, b, d_ku, d_ku_out, n, 8, 20);
  });
  expect("DeviceRadixSort::SortKeys bits 8-20", n, to_host(d_ku_out, n), wb);

  // DoubleBuffer: the result is in whichever buffer Current() names.
  CHECK(cudaMemcpy(d_ku_out, d_ku, n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  unsigned *d_alt = device_zeros<unsigned>(n);
  cub::DoubleBuffer<unsigned> db(d_ku_out, d_alt);
  run_cub([&](void *t, size_t &b) { return cub::DeviceRadixSort::SortKeys(t, b, db, n); });
  expect("DeviceRadixSort::SortKeys DoubleBuffer", n, to_host(db.Current(), n), wu);

  CHECK(cudaFree(d_alt));
  CHECK(cudaFree(d_ku)); CHECK(cudaFree(d_ku_out));
  CHECK(cudaFree(d_kf)); CHECK(cudaFree(d_kf_out));
  CHECK(cudaFree(d_kl)); CHECK(cudaFree(d_kl_out));
  CHECK(cudaFree(d_v)); CHECK(cudaFree(d_v_out));
  printf("DeviceRadixSort n=%d: ok\n", n);
}

static void scans_reductions(int n) {
  unsigned s = 77u + (unsigned)n;
  std::vector<int> h(n);
  std::vector<double> hd(n);
  for (int i = 0; i < n; i++) {
    h[i] = (int)(test_rand(&s) % 2001u) - 1000;
    hd[i] = (double)h[i] / 8.0;
  }
  int *d = to_device(h), *d_out = device_zeros<int>(n);
  double *dd = to_device(hd), *dd_out = device_zeros<double>(n);
  std::vector<int> want(n);

  std::partial_sum(h.begin(), h.end(), want.begin());
  run_cub([&](void *t, size_t &b) { return cub::DeviceScan::InclusiveSum(t, b, d, d_out, n); });
  expect("DeviceScan::InclusiveSum int", n, to_host(d_out, n), want);

  std::vector<double> wantd(n);
  double accd = 0;
  for (int i = 0; i < n; i++) { wantd[i] = accd; accd += hd[i]; }
  run_cub([&](void *t, size_t &b) { return cub::DeviceScan::ExclusiveSum(t, b, dd, dd_out, n); });
  expect("DeviceScan::ExclusiveSum double", n, to_host(dd_out, n), wantd);

  int m = -2000;
  for (int i = 0; i < n; i++) want[i] = m = std::max(m, h[i]);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceScan::InclusiveScan(t, b, d, d_out, cuda::maximum<int>(), n);
  });
  expect("DeviceScan::InclusiveScan maximum", n, to_host(d_out, n), want);

  int acc = 5;
  for (int i = 0; i < n; i++) { want[i] = acc; acc = abs_diff_max()(acc, h[i]); }
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceScan::ExclusiveScan(t, b, d, d_out, abs_diff_max(), 5, n);
  });
  expect("DeviceScan::ExclusiveScan user functor init 5", n, to_host(d_out, n), want);

  int *d_one = device_zeros<int>(2);
  double *dd_one = device_zeros<double>(1);
  run_cub([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, d, d_one, n); });
  expect("DeviceReduce::Sum int", n, to_host(d_one, 1),
         std::vector<int>(1, std::accumulate(h.begin(), h.end(), 0)));
  run_cub([&](void *t, size_t &b) { return cub::DeviceReduce::Sum(t, b, dd, dd_one, n); });
  expect("DeviceReduce::Sum double", n, to_host(dd_one, 1),
         std::vector<double>(1, std::accumulate(hd.begin(), hd.end(), 0.0)));
  if (n > 0) {
    run_cub([&](void *t, size_t &b) { return cub::DeviceReduce::Max(t, b, d, d_one, n); });
    expect("DeviceReduce::Max", n, to_host(d_one, 1),
           std::vector<int>(1, *std::max_element(h.begin(), h.end())));
    run_cub([&](void *t, size_t &b) {
      return cub::DeviceReduce::ArgMax(t, b, d, d_one, d_one + 1, n);
    });
    int first_max = (int)(std::max_element(h.begin(), h.end()) - h.begin());  // the first one
    std::vector<int> am = to_host(d_one, 2);
    if (am[0] != h[first_max] || h[am[1]] != am[0]) {
      printf("FAIL DeviceReduce::ArgMax n=%d: got %d at %d, expected %d\n", n, am[0], am[1],
             h[first_max]);
      exit(1);
    }
  }
  int wr = 3;
  for (int i = 0; i < n; i++) wr = abs_diff_max()(wr, h[i]);
  run_cub([&](void *t, size_t &b) { return cub::DeviceReduce::Reduce(t, b, d, d_one, n, abs_diff_max(), 3); });
  expect("DeviceReduce::Reduce user functor init 3", n, to_host(d_one, 1), std::vector<int>(1, wr));

  // ReduceByKey over runs of keys.
  std::vector<int> keys(n);
  for (int i = 0; i < n; i++) keys[i] = (i / 7) * 3 + (i % 7 == 6 ? 1 : 0);  // runs of 6 and 1
  std::vector<int> wk, wv;
  for (int i = 0; i < n; i++) {
    if (i == 0 || keys[i] != keys[i - 1]) { wk.push_back(keys[i]); wv.push_back(0); }
    wv.back() += h[i];
  }
  int *d_keys = to_device(keys), *d_uk = device_zeros<int>(n), *d_agg = device_zeros<int>(n),
      *d_runs = device_zeros<int>(1);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceReduce::ReduceByKey(t, b, d_keys, d_uk, d, d_agg, d_runs,
                                          cuda::std::plus<int>(), n);
  });
  int runs = to_host(d_runs, 1)[0];
  expect_count("DeviceReduce::ReduceByKey runs", n, runs, (int)wk.size());
  expect("DeviceReduce::ReduceByKey keys", n, to_host(d_uk, runs), wk);
  expect("DeviceReduce::ReduceByKey sums", n, to_host(d_agg, runs), wv);

  CHECK(cudaFree(d_keys)); CHECK(cudaFree(d_uk)); CHECK(cudaFree(d_agg)); CHECK(cudaFree(d_runs));
  CHECK(cudaFree(d_one)); CHECK(cudaFree(dd_one));
  CHECK(cudaFree(d)); CHECK(cudaFree(d_out)); CHECK(cudaFree(dd)); CHECK(cudaFree(dd_out));
  printf("DeviceScan/DeviceReduce n=%d: ok, %d runs\n", n, runs);
}

static void selections(int n) {
  unsigned s = 31337u + (unsigned)n;
  std::vector<int> h(n);
  std::vector<char> flags(n);
  for (int i = 0; i < n; i++) {
    h[i] = (int)(test_rand(&s) % 50u);
    flags[i] = (char)(test_rand(&s) % 4u == 0);
  }
  int *d = to_device(h), *d_out = device_zeros<int>(n), *d_count = device_zeros<int>(1);
  char *d_flags = to_device(flags);

  std::vector<int> want;
  for (int i = 0; i < n; i++) if (is_multiple_of_3()(h[i])) want.push_back(h[i]);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceSelect::If(t, b, d, d_out, d_count, n, is_multiple_of_3());
  });
  int c_if = to_host(d_count, 1)[0];
  expect_count("DeviceSelect::If", n, c_if, (int)want.size());
  expect("DeviceSelect::If", n, to_host(d_out, c_if), want);

  want.clear();
  for (int i = 0; i < n; i++) if (flags[i]) want.push_back(h[i]);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceSelect::Flagged(t, b, d, d_flags, d_out, d_count, n);
  });
  int c_flag = to_host(d_count, 1)[0];
  expect_count("DeviceSelect::Flagged", n, c_flag, (int)want.size());
  expect("DeviceSelect::Flagged", n, to_host(d_out, c_flag), want);

  want = h;
  want.erase(std::unique(want.begin(), want.end()), want.end());
  run_cub([&](void *t, size_t &b) { return cub::DeviceSelect::Unique(t, b, d, d_out, d_count, n); });
  int c_uniq = to_host(d_count, 1)[0];
  expect_count("DeviceSelect::Unique", n, c_uniq, (int)want.size());
  expect("DeviceSelect::Unique", n, to_host(d_out, c_uniq), want);

  // Run-length encoding of the data sorted by value.
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> wu, wc;
  for (int i = 0; i < n; i++) {
    if (i == 0 || sorted[i] != sorted[i - 1]) { wu.push_back(sorted[i]); wc.push_back(0); }
    wc.back()++;
  }
  int *d_sorted = to_device(sorted), *d_counts = device_zeros<int>(n);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceRunLengthEncode::Encode(t, b, d_sorted, d_out, d_counts, d_count, n);
  });
  int c_runs = to_host(d_count, 1)[0];
  expect_count("DeviceRunLengthEncode::Encode", n, c_runs, (int)wu.size());
  expect("DeviceRunLengthEncode::Encode values", n, to_host(d_out, c_runs), wu);
  expect("DeviceRunLengthEncode::Encode counts", n, to_host(d_counts, c_runs), wc);

  // Histogram: 10 even bins over [0, 50).
  std::vector<int> wh(10, 0);
  for (int i = 0; i < n; i++) wh[h[i] / 5]++;
  int *d_hist = device_zeros<int>(10);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceHistogram::HistogramEven(t, b, d, d_hist, 11, 0, 50, n);
  });
  expect("DeviceHistogram::HistogramEven", n, to_host(d_hist, 10), wh);

  // Segmented sum: segments of length i % 5 (some empty).
  std::vector<int> begins, ends, ws;
  for (int at = 0, i = 0; at < n; i++) {
    int len = std::min(i % 5, n - at);
    begins.push_back(at);
    ends.push_back(at + len);
    ws.push_back(std::accumulate(h.begin() + at, h.begin() + at + len, 0));
    at += len;
  }
  int segs = (int)ws.size();
  int *d_b = to_device(begins), *d_e = to_device(ends), *d_sums = device_zeros<int>(segs);
  run_cub([&](void *t, size_t &b) {
    return cub::DeviceSegmentedReduce::Sum(t, b, d, d_sums, segs, d_b, d_e);
  });
  expect("DeviceSegmentedReduce::Sum", n, to_host(d_sums, segs), ws);

  CHECK(cudaFree(d_b)); CHECK(cudaFree(d_e)); CHECK(cudaFree(d_sums)); CHECK(cudaFree(d_hist));
  CHECK(cudaFree(d_sorted)); CHECK(cudaFree(d_counts)); CHECK(cudaFree(d_flags));
  CHECK(cudaFree(d)); CHECK(cudaFree(d_out)); CHECK(cudaFree(d_count));
  printf("DeviceSelect n=%d: ok, if %d, flagged %d, unique %d, runs %d, segments %d\n", n, c_if,
         c_flag, c_uniq, c_runs, segs);
}

// ---------------------------------------------------------------- block and warp level

template <int BLOCK, int IPT, cub::BlockReduceAlgorithm ALG>
__global__ void block_reduce_kernel(const int *in, int *sums, int *maxes, int *partial, int valid) {
  using BlockReduce = cub::BlockReduce<int, BLOCK, ALG>;
  __shared__ typename BlockReduce::TempStorage temp;
  int items[IPT];
  cub::LoadDirectBlocked(threadIdx.x, in + blockIdx.x * BLOCK * IPT, items);
  int sum = BlockReduce(temp).Sum(items);
  __syncthreads();
  int mx = BlockReduce(temp).Reduce(items, cuda::maximum<int>());
  __syncthreads();
  // A partial tile: only the first `valid` threads hold an item.
  int part = BlockReduce(temp).Sum(items[0], valid);
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = sum;
    maxes[blockIdx.x] = mx;
    partial[blockIdx.x] = part;
  }
}

template <int BLOCK, int IPT, cub::BlockScanAlgorithm ALG>
__global__ void block_scan_kernel(const int *in, int *excl, int *incl_max, int *aggregates) {
  using BlockLoad = cub::BlockLoad<int, BLOCK, IPT, cub::BLOCK_LOAD_TRANSPOSE>;
  using BlockStore = cub::BlockStore<int, BLOCK, IPT, cub::BLOCK_STORE_TRANSPOSE>;
  using BlockScan = cub::BlockScan<int, BLOCK, ALG>;
  __shared__ union {
    typename BlockLoad::TempStorage load;
    typename BlockStore::TempStorage store;
    typename BlockScan::TempStorage scan;
  } temp;
  int offset = blockIdx.x * BLOCK * IPT;
  int items[IPT], out[IPT];
  BlockLoad(temp.load).Load(in + offset, items);
  __syncthreads();
  int aggregate;
  BlockScan(temp.scan).ExclusiveSum(items, out, aggregate);
  __syncthreads();
  BlockStore(temp.store).Store(excl + offset, out);
  __syncthreads();
  BlockScan(temp.scan).InclusiveScan(items, out, cuda::maximum<int>());
  __syncthreads();
  BlockStore(temp.store).Store(incl_max + offset, out);
  if (threadIdx.x == 0) aggregates[blockIdx.x] = aggregate;
}

template <int BLOCK, int IPT>
__global__ void block_radix_sort_kernel(unsigned *data) {
  using BlockRadixSort = cub::BlockRadixSort<unsigned, BLOCK, IPT>;
  __shared__ typename BlockRadixSort::TempStorage temp;
  unsigned keys[IPT];
  cub::LoadDirectBlocked(threadIdx.x, data + blockIdx.x * BLOCK * IPT, keys);
  BlockRadixSort(temp).Sort(keys);
  cub::StoreDirectBlocked(threadIdx.x, data + blockIdx.x * BLOCK * IPT, keys);
}

// One result per warp (32 lanes) and per logical 16-lane warp; and WarpScan.
__global__ void warp_kernel(const int *in, int *warp_sums, int *warp_max, int *half_sums,
                            int *incl, int *excl) {
  constexpr int WARPS = 4;
  using WarpReduce = cub::WarpReduce<int>;
  using HalfReduce = cub::WarpReduce<int, 16>;
  using WarpScan = cub::WarpScan<int>;
  __shared__ typename WarpReduce::TempStorage red[WARPS];
  __shared__ typename HalfReduce::TempStorage half[WARPS * 2];
  __shared__ typename WarpScan::TempStorage scan[WARPS];
  int gid = blockIdx.x * blockDim.x + threadIdx.x;
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int x = in[gid];
  int sum = WarpReduce(red[warp]).Sum(x);
  __syncwarp();
  int mx = WarpReduce(red[warp]).Reduce(x, cuda::maximum<int>());
  int hs = HalfReduce(half[threadIdx.x / 16]).Sum(x);
  int inc, exc;
  WarpScan(scan[warp]).InclusiveSum(x, inc);
  __syncwarp();
  WarpScan(scan[warp]).ExclusiveSum(x, exc);
  if (lane == 0) {
    warp_sums[gid / 32] = sum;
    warp_max[gid / 32] = mx;
  }
  if (lane % 16 == 0) half_sums[gid / 16] = hs;
  incl[gid] = inc;
  excl[gid] = exc;
}

template <int BLOCK, int IPT, cub::BlockReduceAlgorithm ALG>
static void check_block_reduce(const char *name, const std::vector<int> &h, const int *d, int blocks) {
  int *d_s = device_zeros<int>(blocks), *d_m = device_zeros<int>(blocks), *d_p = device_zeros<int>(blocks);
  const int valid = BLOCK / 3;
  block_reduce_kernel<BLOCK, IPT, ALG><<<blocks, BLOCK>>>(d, d_s, d_m, d_p, valid);
  CHECK_LAUNCH();
  std::vector<int> ws(blocks), wm(blocks), wp(blocks);
  for (int b = 0; b < blocks; b++) {
    const int *t = &h[b * BLOCK * IPT];
    ws[b] = std::accumulate(t, t + BLOCK * IPT, 0);
    wm[b] = *std::max_element(t, t + BLOCK * IPT);
    wp[b] = 0;
    for (int i = 0; i < valid; i++) wp[b] += t[i * IPT];
  }
  expect(name, blocks, to_host(d_s, blocks), ws);
  expect(name, blocks, to_host(d_m, blocks), wm);
  expect(name, blocks, to_host(d_p, blocks), wp);
  CHECK(cudaFree(d_s)); CHECK(cudaFree(d_m)); CHECK(cudaFree(d_p));
}

template <int BLOCK, int IPT, cub::BlockScanAlgorithm ALG>
static void check_block_scan(const char *name, const std::vector<int> &h, const int *d, int blocks) {
  int n = blocks * BLOCK * IPT;
  int *d_e = device_zeros<int>(n), *d_m = device_zeros<int>(n), *d_a = device_zeros<int>(blocks);
  block_scan_kernel<BLOCK, IPT, ALG><<<blocks, BLOCK>>>(d, d_e, d_m, d_a);
  CHECK_LAUNCH();
  std::vector<int> we(n), wm(n), wa(blocks);
  for (int b = 0; b < blocks; b++) {
    int acc = 0, mx = -1 << 30;
    for (int i = b * BLOCK * IPT; i < (b + 1) * BLOCK * IPT; i++) {
      we[i] = acc;
      acc += h[i];
      wm[i] = mx = std::max(mx, h[i]);
    }
    wa[b] = acc;
  }
  expect(name, n, to_host(d_e, n), we);
  expect(name, n, to_host(d_m, n), wm);
  expect(name, n, to_host(d_a, blocks), wa);
  CHECK(cudaFree(d_e)); CHECK(cudaFree(d_m)); CHECK(cudaFree(d_a));
}

static void block_and_warp(void) {
  const int blocks = 6, n = blocks * 256 * 4;
  unsigned s = 2024u;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (int)(test_rand(&s) % 1999u) - 999;
  int *d = to_device(h);

  check_block_reduce<128, 4, cub::BLOCK_REDUCE_RAKING>("BlockReduce raking", h, d, blocks);
  check_block_reduce<256, 2, cub::BLOCK_REDUCE_WARP_REDUCTIONS>("BlockReduce warp reductions", h, d, blocks);
  check_block_reduce<96, 3, cub::BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY>("BlockReduce raking commutative", h, d, blocks);
  check_block_scan<128, 4, cub::BLOCK_SCAN_RAKING>("BlockScan raking", h, d, blocks);
  check_block_scan<256, 2, cub::BLOCK_SCAN_RAKING_MEMOIZE>("BlockScan raking memoize", h, d, blocks);
  check_block_scan<64, 5, cub::BLOCK_SCAN_WARP_SCANS>("BlockScan warp scans", h, d, blocks);

  // BlockRadixSort: each block sorts its own 512 keys.
  std::vector<unsigned> keys(blocks * 512);
  for (auto &k : keys) k = test_rand(&s);
  unsigned *d_keys = to_device(keys);
  block_radix_sort_kernel<128, 4><<<blocks, 128>>>(d_keys);
  CHECK_LAUNCH();
  for (int b = 0; b < blocks; b++) std::sort(keys.begin() + b * 512, keys.begin() + (b + 1) * 512);
  expect("BlockRadixSort", blocks * 512, to_host(d_keys, keys.size()), keys);

  // Warp level: 4 warps per block, 6 blocks.
  const int threads = 128, wn = blocks * threads;
  int *d_ws = device_zeros<int>(wn / 32), *d_wm = device_zeros<int>(wn / 32),
      *d_hs = device_zeros<int>(wn / 16), *d_inc = device_zeros<int>(wn), *d_exc = device_zeros<int>(wn);
  warp_kernel<<<blocks, threads>>>(d, d_ws, d_wm, d_hs, d_inc, d_exc);
  CHECK_LAUNCH();
  std::vector<int> ws(wn / 32), wm(wn / 32), whs(wn / 16), winc(wn), wexc(wn);
  for (int w = 0; w < wn / 32; w++) {
    int acc = 0, mx = -1 << 30;
    for (int l = 0; l < 32; l++) {
      int x = h[w * 32 + l];
      wexc[w * 32 + l] = acc;
      acc += x;
      winc[w * 32 + l] = acc;
      mx = std::max(mx, x);
    }
    ws[w] = acc;
    wm[w] = mx;
  }
  for (int w = 0; w < wn / 16; w++) whs[w] = std::accumulate(&h[w * 16], &h[w * 16] + 16, 0);
  expect("WarpReduce Sum", wn, to_host(d_ws, wn / 32), ws);
  expect("WarpReduce max", wn, to_host(d_wm, wn / 32), wm);
  expect("WarpReduce<16> Sum", wn, to_host(d_hs, wn / 16), whs);
  expect("WarpScan InclusiveSum", wn, to_host(d_inc, wn), winc);
  expect("WarpScan ExclusiveSum", wn, to_host(d_exc, wn), wexc);  // lane 0 gets 0 (documented)

  CHECK(cudaFree(d_ws)); CHECK(cudaFree(d_wm)); CHECK(cudaFree(d_hs));
  CHECK(cudaFree(d_inc)); CHECK(cudaFree(d_exc)); CHECK(cudaFree(d_keys)); CHECK(cudaFree(d));
  printf("block and warp collectives: ok\n");
}

// A grid-stride BlockReduce sized the way CUB sizes its own grids: the SM
// count times cudaOccupancyMaxActiveBlocksPerMultiprocessor, with and without
// a large dynamic shared-memory buffer (which lowers the blocks per SM).  The
// grid must be at least one block, and a launch of that size must succeed.
template <int BLOCK>
__global__ void grid_stride_sum_kernel(const int *in, int n, unsigned long long *total) {
  using BlockReduce = cub::BlockReduce<long long, BLOCK>;
  __shared__ typename BlockReduce::TempStorage temp;
  extern __shared__ int staging[];  // the dynamic buffer: each thread stages its first item there
  long long acc = 0;
  int first = blockIdx.x * BLOCK + threadIdx.x;
  staging[threadIdx.x] = first < n ? in[first] : 0;
  for (int i = first + gridDim.x * BLOCK; i < n; i += gridDim.x * BLOCK) acc += in[i];
  long long sum = BlockReduce(temp).Sum(acc + staging[threadIdx.x]);
  if (threadIdx.x == 0) atomicAdd(total, (unsigned long long)sum);
}

template <int BLOCK>
static void occupancy_sized_reduce(const std::vector<int> &h, const int *d, size_t dyn_smem) {
  int device = 0, sms = 0, per_sm = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  if (dyn_smem > 48 * 1024)
    CHECK(cudaFuncSetAttribute(grid_stride_sum_kernel<BLOCK>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               (int)dyn_smem));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, grid_stride_sum_kernel<BLOCK>, BLOCK,
                                                      dyn_smem));
  int grid = sms * per_sm;
  fprintf(stderr, "cub_algorithms: BlockReduce<%d> with %zu bytes dynamic: %d SMs x %d blocks\n", BLOCK,
          dyn_smem, sms, per_sm);
  if (grid <= 0) {
    printf("FAIL occupancy-sized grid for BlockReduce<%d> (%zu bytes dynamic) is %d\n", BLOCK, dyn_smem, grid);
    exit(1);
  }
  unsigned long long *d_total = device_zeros<unsigned long long>(1);
  grid_stride_sum_kernel<BLOCK><<<grid, BLOCK, dyn_smem>>>(d, (int)h.size(), d_total);
  CHECK_LAUNCH();
  long long want = 0;
  for (int x : h) want += x;
  unsigned long long got = to_host(d_total, 1)[0];
  if ((long long)got != want) {
    printf("FAIL occupancy-sized BlockReduce<%d> (%zu bytes dynamic): %lld, expected %lld\n", BLOCK,
           dyn_smem, (long long)got, want);
    exit(1);
  }
  CHECK(cudaFree(d_total));
}

static void occupancy_sized(void) {
  const int n = 300007;
  unsigned s = 77u;
  std::vector<int> h(n);
  for (int i = 0; i < n; i++) h[i] = (int)(test_rand(&s) % 200001u) - 100000;
  int *d = to_device(h);
  occupancy_sized_reduce<256>(h, d, 256 * sizeof(int));
  occupancy_sized_reduce<128>(h, d, 96 * 1024);
  occupancy_sized_reduce<1024>(h, d, 1024 * sizeof(int));
  CHECK(cudaFree(d));
  printf("occupancy-sized BlockReduce: ok\n");
}

int main() {
  const int sizes[] = {0, 1, 1000, 100000, 1 << 18};
  for (int n : sizes) radix_sorts(n);
  for (int n : sizes) scans_reductions(n);
  for (int n : sizes) selections(n);
  block_and_warp();
  occupancy_sized();
  return pass("cub_algorithms");
}
