// thrust_algorithms: Thrust's sort, scan, reduce and selection algorithms on
// device_vectors of int, unsigned, float, double and int64, each on sizes
// 0, 1, 31, 1000, 4097 and 1<<17 (dozens of tiles: every multi-tile path,
// with decoupled look-back across more tiles than workers), plus a struct key
// with a custom comparator.
//
// Per type and size: sort (ascending and with thrust::greater), stable_sort,
// sort_by_key, inclusive_scan (plus, thrust::maximum, a user functor),
// exclusive_scan (plus with an init, thrust::maximum), reduce (plus and
// maximum), reduce_by_key over runs of keys, unique (sorted and raw),
// copy_if, transform, transform_reduce, gather and scatter.  Unsigned also
// scans a non-commutative operator (composition of affine maps).  Every
// result is compared exactly with a host computation: the values are chosen
// so that every float sum is exact in any order.  stdout: one line per type
// and size with the counts that unique/copy_if/reduce_by_key produced.
#include "check.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <vector>

#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

static const int kSizes[] = {0, 1, 31, 1000, 4097, 1 << 17};

// Values with many duplicates whose sums are exact in any order.
template <class T> struct gen;
template <> struct gen<int> {
  static int make(unsigned r) { return (int)(r % 2001u) - 1000; }
  static const char *name() { return "int"; }
};
template <> struct gen<unsigned> {
  static unsigned make(unsigned r) { return r % 3u == 0 ? r % 1000u : r; }  // top bits too
  static const char *name() { return "unsigned"; }
};
template <> struct gen<float> {
  static float make(unsigned r) { return (float)((int)(r % 31u) - 15) * 0.5f; }
  static const char *name() { return "float"; }
};
template <> struct gen<double> {
  static double make(unsigned r) { return (double)((int)(r % 20001u) - 10000) / 64.0; }
  static const char *name() { return "double"; }
};
template <> struct gen<long long> {
  static long long make(unsigned r) {
    return ((long long)(r % 2001u) - 1000) * (1LL << 31) + (long long)((r >> 21) & 0x3ff);
  }
  static const char *name() { return "int64"; }
};

template <class T> struct user_max {  // a user functor, not thrust::maximum
  __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <class T> struct is_positive {
  __host__ __device__ bool operator()(const T &x) const { return x > T(0); }
};
template <class T> struct twice_plus_one {
  __host__ __device__ T operator()(const T &x) const { return x + x + T(1); }
};
template <class T> struct absolute {
  __host__ __device__ T operator()(const T &x) const { return x > T(0) ? x : T(0) - x; }
};

static void fail_at(const char *type, int n, const char *what, size_t i) {
  printf("FAIL %s n=%d: %s: first mismatch at index %zu\n", type, n, what, i);
  exit(1);
}

template <class T>
static void expect_equal(const char *type, int n, const char *what,
                         const thrust::device_vector<T> &got, const std::vector<T> &want) {
  if (got.size() != want.size()) {
    printf("FAIL %s n=%d: %s: %zu elements, expected %zu\n", type, n, what, (size_t)got.size(),
           want.size());
    exit(1);
  }
  thrust::host_vector<T> h = got;
  for (size_t i = 0; i < want.size(); i++)
    if (!(h[i] == want[i])) fail_at(type, n, what, i);
}

template <class T>
static void expect_value(const char *type, int n, const char *what, T got, T want) {
  if (!(got == want)) {
    printf("FAIL %s n=%d: %s: got %.17g, expected %.17g\n", type, n, what, (double)got,
           (double)want);
    exit(1);
  }
}

template <class T> static void suite(int n) {
  const char *type = gen<T>::name();
  unsigned state = 0x9e3779b9u ^ (unsigned)n;
  std::vector<T> h(n);
  for (int i = 0; i < n; i++) h[i] = gen<T>::make(test_rand(&state));
  thrust::device_vector<T> d(h.begin(), h.end());

  // sort, sort with thrust::greater, stable_sort
  {
    std::vector<T> want = h;
    std::sort(want.begin(), want.end());
    thrust::device_vector<T> v = d;
    thrust::sort(v.begin(), v.end());
    expect_equal(type, n, "sort", v, want);
    v = d;
    thrust::stable_sort(v.begin(), v.end());
    expect_equal(type, n, "stable_sort", v, want);
    std::reverse(want.begin(), want.end());
    v = d;
    thrust::sort(v.begin(), v.end(), thrust::greater<T>());
    expect_equal(type, n, "sort greater", v, want);
  }

  // sort_by_key: keys sorted, and each value is the index its key came from.
  {
    std::vector<T> want = h;
    std::sort(want.begin(), want.end());
    thrust::device_vector<T> k = d;
    thrust::device_vector<int> idx(n);
    thrust::sequence(idx.begin(), idx.end());
    thrust::sort_by_key(k.begin(), k.end(), idx.begin());
    expect_equal(type, n, "sort_by_key keys", k, want);
    thrust::host_vector<int> hi = idx;
    std::vector<char> seen(n, 0);
    for (int i = 0; i < n; i++) {
      if (hi[i] < 0 || hi[i] >= n || seen[hi[i]] || !(h[hi[i]] == want[i]))
        fail_at(type, n, "sort_by_key values", (size_t)i);
      seen[hi[i]] = 1;
    }
  }

  // scans
  {
    std::vector<T> want(n);
    thrust::device_vector<T> out(n);
    std::partial_sum(h.begin(), h.end(), want.begin());
    thrust::inclusive_scan(d.begin(), d.end(), out.begin());
    expect_equal(type, n, "inclusive_scan plus", out, want);

    std::partial_sum(h.begin(), h.end(), want.begin(), user_max<T>());
    thrust::inclusive_scan(d.begin(), d.end(), out.begin(), thrust::maximum<T>());
    expect_equal(type, n, "inclusive_scan maximum", out, want);
    thrust::fill(out.begin(), out.end(), T(0));
    thrust::inclusive_scan(d.begin(), d.end(), out.begin(), user_max<T>());
    expect_equal(type, n, "inclusive_scan user functor", out, want);

    T acc = T(7);
    for (int i = 0; i < n; i++) { want[i] = acc; acc = acc + h[i]; }
    thrust::exclusive_scan(d.begin(), d.end(), out.begin(), T(7));
    expect_equal(type, n, "exclusive_scan plus init 7", out, want);

    acc = std::numeric_limits<T>::lowest();
    for (int i = 0; i < n; i++) { want[i] = acc; acc = h[i] < acc ? acc : h[i]; }
    thrust::exclusive_scan(d.begin(), d.end(), out.begin(), std::numeric_limits<T>::lowest(),
                           thrust::maximum<T>());
    expect_equal(type, n, "exclusive_scan maximum", out, want);

    // in place
    thrust::device_vector<T> v = d;
    std::partial_sum(h.begin(), h.end(), want.begin());
    thrust::inclusive_scan(v.begin(), v.end(), v.begin());
    expect_equal(type, n, "inclusive_scan in place", v, want);
  }

  // reduce
  {
    T sum = std::accumulate(h.begin(), h.end(), T(0));
    expect_value(type, n, "reduce plus", thrust::reduce(d.begin(), d.end()), sum);
    T lo = std::numeric_limits<T>::lowest(), mx = lo;
    for (int i = 0; i < n; i++) mx = h[i] < mx ? mx : h[i];
    expect_value(type, n, "reduce maximum", thrust::reduce(d.begin(), d.end(), lo, thrust::maximum<T>()), mx);
    T abs_sum = T(0);
    for (int i = 0; i < n; i++) abs_sum = abs_sum + absolute<T>()(h[i]);
    expect_value(type, n, "transform_reduce abs plus",
                 thrust::transform_reduce(d.begin(), d.end(), absolute<T>(), T(0), thrust::plus<T>()),
                 abs_sum);
  }

  // reduce_by_key over runs of equal keys (run lengths 1..9)
  int segments = 0;
  {
    std::vector<int> keys(n);
    unsigned s = 12345u + (unsigned)n;
    int key = 0, left = 0;
    for (int i = 0; i < n; i++) {
      if (left == 0) { key += 1 + (int)(test_rand(&s) % 3u); left = 1 + (int)(test_rand(&s) % 9u); }
      keys[i] = key;
      left--;
    }
    std::vector<int> want_keys;
    std::vector<T> want_vals;
    for (int i = 0; i < n; i++) {
      if (i == 0 || keys[i] != keys[i - 1]) { want_keys.push_back(keys[i]); want_vals.push_back(T(0)); }
      want_vals.back() = want_vals.back() + h[i];
    }
    thrust::device_vector<int> dk(keys.begin(), keys.end()), ok(n);
    thrust::device_vector<T> ov(n);
    auto ends = thrust::reduce_by_key(dk.begin(), dk.end(), d.begin(), ok.begin(), ov.begin());
    segments = (int)(ends.first - ok.begin());
    if (segments != (int)want_keys.size() || ends.second - ov.begin() != segments) {
      printf("FAIL %s n=%d: reduce_by_key: %d segments, expected %zu\n", type, n, segments,
             want_keys.size());
      exit(1);
    }
    ok.resize(segments);
    ov.resize(segments);
    expect_equal(type, n, "reduce_by_key keys", ok, want_keys);
    expect_equal(type, n, "reduce_by_key values", ov, want_vals);
  }

  // unique: on the raw data (consecutive duplicates) and after a sort.
  int uniques_raw = 0, uniques_sorted = 0;
  {
    std::vector<T> want = h;
    want.erase(std::unique(want.begin(), want.end()), want.end());
    thrust::device_vector<T> v = d;
    v.erase(thrust::unique(v.begin(), v.end()), v.end());
    expect_equal(type, n, "unique raw", v, want);
    uniques_raw = (int)want.size();
    want = h;
    std::sort(want.begin(), want.end());
    want.erase(std::unique(want.begin(), want.end()), want.end());
    v = d;
    thrust::sort(v.begin(), v.end());
    v.erase(thrust::unique(v.begin(), v.end()), v.end());
    expect_equal(type, n, "unique sorted", v, want);
    uniques_sorted = (int)want.size();
  }

  // copy_if, transform, gather, scatter
  int positives = 0;
  {
    std::vector<T> want;
    for (int i = 0; i < n; i++)
      if (is_positive<T>()(h[i])) want.push_back(h[i]);
    positives = (int)want.size();
    thrust::device_vector<T> out(n);
    auto end = thrust::copy_if(d.begin(), d.end(), out.begin(), is_positive<T>());
    out.resize(end - out.begin());
    expect_equal(type, n, "copy_if", out, want);

    want.resize(n);
    std::transform(h.begin(), h.end(), want.begin(), twice_plus_one<T>());
    out.resize(n);
    thrust::transform(d.begin(), d.end(), out.begin(), twice_plus_one<T>());
    expect_equal(type, n, "transform", out, want);

    std::vector<int> map(n);
    std::iota(map.begin(), map.end(), 0);
    unsigned s = 777u + (unsigned)n;
    for (int i = n - 1; i > 0; i--) std::swap(map[i], map[test_rand(&s) % (unsigned)(i + 1)]);
    thrust::device_vector<int> dmap(map.begin(), map.end());
    for (int i = 0; i < n; i++) want[i] = h[map[i]];
    thrust::gather(dmap.begin(), dmap.end(), d.begin(), out.begin());
    expect_equal(type, n, "gather", out, want);
    for (int i = 0; i < n; i++) want[map[i]] = h[i];
    thrust::scatter(d.begin(), d.end(), dmap.begin(), out.begin());
    expect_equal(type, n, "scatter", out, want);
  }

  printf("%s n=%d: ok, %d segments, %d unique raw, %d unique sorted, %d positive\n", type, n,
         segments, uniques_raw, uniques_sorted, positives);
}

// A non-commutative associative operator: x -> a*x + b maps, composed in order.
struct affine {
  unsigned a, b;
  __host__ __device__ bool operator==(const affine &o) const { return a == o.a && b == o.b; }
};
struct compose {  // apply l first, then r
  __host__ __device__ affine operator()(const affine &l, const affine &r) const {
    affine c = {r.a * l.a, r.a * l.b + r.b};
    return c;
  }
};

static void affine_scan(int n) {
  unsigned s = 4242u + (unsigned)n;
  std::vector<affine> h(n), want(n);
  for (int i = 0; i < n; i++) {
    h[i].a = test_rand(&s) | 1u;
    h[i].b = test_rand(&s);
  }
  affine acc = {1u, 0u};
  for (int i = 0; i < n; i++) want[i] = acc = compose()(acc, h[i]);
  thrust::device_vector<affine> d(h.begin(), h.end()), out(n);
  thrust::inclusive_scan(d.begin(), d.end(), out.begin(), compose());
  expect_equal("affine", n, "inclusive_scan compose", out, want);
  printf("affine n=%d: ok\n", n);
}

// A struct key with a custom comparator: major ascending, then minor descending.
struct record {
  int major;
  float minor;
  int id;
};
struct record_less {
  __host__ __device__ bool operator()(const record &x, const record &y) const {
    if (x.major != y.major) return x.major < y.major;
    return x.minor > y.minor;
  }
};

static void struct_sort(int n) {
  unsigned s = 99u + (unsigned)n;
  std::vector<record> h(n);
  for (int i = 0; i < n; i++) {
    h[i].major = (int)(test_rand(&s) % 50u);
    h[i].minor = (float)(test_rand(&s) % 8u) * 0.25f;
    h[i].id = i;
  }
  std::vector<record> want = h;
  std::stable_sort(want.begin(), want.end(), record_less());

  thrust::device_vector<record> d(h.begin(), h.end());
  thrust::stable_sort(d.begin(), d.end(), record_less());
  thrust::host_vector<record> got = d;
  for (int i = 0; i < n; i++)
    if (got[i].id != want[i].id) fail_at("record", n, "stable_sort comparator", (size_t)i);

  // sort (not stable): the keys must be ordered and a permutation of the input.
  d = thrust::device_vector<record>(h.begin(), h.end());
  thrust::sort(d.begin(), d.end(), record_less());
  got = d;
  std::vector<char> seen(n, 0);
  for (int i = 0; i < n; i++) {
    int id = got[i].id;
    if (id < 0 || id >= n || seen[id] || h[id].major != got[i].major || h[id].minor != got[i].minor ||
        (i > 0 && record_less()(got[i], got[i - 1])))
      fail_at("record", n, "sort comparator", (size_t)i);
    seen[id] = 1;
  }

  // stable_sort_by_key with the struct as key and its index as value.
  d = thrust::device_vector<record>(h.begin(), h.end());
  thrust::device_vector<int> idx(n);
  thrust::sequence(idx.begin(), idx.end());
  thrust::stable_sort_by_key(d.begin(), d.end(), idx.begin(), record_less());
  thrust::host_vector<int> hi = idx;
  for (int i = 0; i < n; i++)
    if (hi[i] != want[i].id) fail_at("record", n, "stable_sort_by_key comparator", (size_t)i);
  printf("record n=%d: ok\n", n);
}

int main() {
  for (int n : kSizes) suite<int>(n);
  for (int n : kSizes) suite<unsigned>(n);
  for (int n : kSizes) suite<float>(n);
  for (int n : kSizes) suite<double>(n);
  for (int n : kSizes) suite<long long>(n);
  for (int n : kSizes) affine_scan(n);
  for (int n : kSizes) struct_sort(n);
  CHECK(cudaDeviceSynchronize());
  return pass("thrust_algorithms");
}
