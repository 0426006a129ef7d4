// thrust_line_of_sight: which points of a terrain can an observer see?
//
// Written in the style of the public CUDA samples' line-of-sight program: a
// height map (here a 2D texture) is sampled along rays from an observer; each
// sample becomes an elevation angle (a kernel, and thrust::transform of a
// counting iterator); thrust::inclusive_scan with thrust::maximum gives the
// highest angle up to each sample, and a sample is visible when no earlier one
// rises above it (angle >= running maximum).  thrust::exclusive_scan with
// thrust::maximum and an init of -FLT_MAX must agree with it, and
// thrust::count / thrust::reduce sum up the visible samples.
//
// Sample positions are integers (a DDA along the ray), so every angle is
// (h - z) / sqrtf(d2) of exact floats: two correctly rounded operations, the
// same on the host, the GPU and cubridge.  Everything is checked exactly
// against a host computation; stdout is the per-ray visible counts' summary.
//
// Built like the sample (-arch=sm_80: sm_80 SASS and compute_80 PTX).  The
// sample once failed under cubridge with no fault ("Test failed!"): scans of
// more than one tile came back wrong past element 4095, because
// CU_FUNC_ATTRIBUTE_PTX_VERSION answered the PTX ISA version (90), so CUB's
// host side chose its sm_90 tuning (a few large tiles) while the kernels ran
// their compute_80 tuning (1024-element tiles); docs/fatbin.md, "Which PTX".
// Rays here are up to 3000 samples long for that reason.
#include "check.h"

#include <float.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/transform.h>

// A strip of terrain like the sample's (10000 x 100): rays along it are
// thousands of samples long, so every scan spans several of CUB's tiles.
#define MAP_W 6000
#define MAP_H 240
#define NUM_RAYS 100

struct Ray {
  int ox, oy;     // observer position (a texel)
  float oz;       // observer height
  int dx, dy;     // end point minus origin
  int length;     // samples along the ray (max(|dx|, |dy|))
};

// The terrain: a hill every 500 texels plus a ridge every 1300, in whole metres.
static float terrain(int x, int y) {
  int h = 40 + (x * 7 + y * 3) % 23;
  int k = x / 500;
  int cx = x - (250 + 500 * k), cy = y - (60 + (k * 37) % 120);
  int r2 = 1600 + 400 * (k % 5);
  if (cx * cx + cy * cy < r2) h += (r2 - cx * cx - cy * cy) / 20;
  if (x % 1300 < 6) h += 35 + (x / 1300) * 10;
  return (float)h;
}

static Ray make_ray(int r) {
  Ray ray;
  ray.ox = MAP_W / 2;
  ray.oy = MAP_H / 2;
  ray.oz = 130.0f;
  // End points walk around the border of the map.
  int per = 2 * (MAP_W - 1) + 2 * (MAP_H - 1);
  int p = (int)((long long)r * per / NUM_RAYS);
  int ex, ey;
  if (p < MAP_W - 1) { ex = p; ey = 0; }
  else if ((p -= MAP_W - 1) < MAP_H - 1) { ex = MAP_W - 1; ey = p; }
  else if ((p -= MAP_H - 1) < MAP_W - 1) { ex = MAP_W - 1 - p; ey = MAP_H - 1; }
  else { p -= MAP_W - 1; ex = 0; ey = MAP_H - 1 - p; }
  ray.dx = ex - ray.ox;
  ray.dy = ey - ray.oy;
  int ax = ray.dx < 0 ? -ray.dx : ray.dx, ay = ray.dy < 0 ? -ray.dy : ray.dy;
  ray.length = ax > ay ? ax : ay;
  return ray;
}

// Sample i (0-based) of a ray: the texel (ox + dx*(i+1)/length, ...), integers.
__host__ __device__ inline void sample_position(const Ray &ray, int i, int *x, int *y) {
  *x = ray.ox + ray.dx * (i + 1) / ray.length;
  *y = ray.oy + ray.dy * (i + 1) / ray.length;
}

__host__ __device__ inline float elevation_angle(const Ray &ray, int x, int y, float h) {
  int ddx = x - ray.ox, ddy = y - ray.oy;
  float dist = sqrtf((float)(ddx * ddx + ddy * ddy));
  return (h - ray.oz) / dist;
}

// The sample's kernel form: angles from the texture.
__global__ void compute_angles_kernel(const Ray ray, float *angles, cudaTextureObject_t height_map) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < ray.length) {
    int x, y;
    sample_position(ray, i, &x, &y);
    float h = tex2D<float>(height_map, x + 0.5f, y + 0.5f);
    angles[i] = elevation_angle(ray, x, y, h);
  }
}

__global__ void compute_visibilities_kernel(const float *angles, const float *scanned_angles,
                                            int n, unsigned char *visible) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) visible[i] = scanned_angles[i] <= angles[i];
}

// The Thrust form: the same angles from a plain device array.
struct angle_of_sample {
  Ray ray;
  const float *heights;
  __host__ __device__ float operator()(int i) const {
    int x, y;
    sample_position(ray, i, &x, &y);
    return elevation_angle(ray, x, y, heights[y * MAP_W + x]);
  }
};

struct visible_after_exclusive {
  __host__ __device__ int operator()(float angle, float max_before) const {
    return angle >= max_before ? 1 : 0;
  }
};

int main() {
  // Height map: host copy, a device_vector, and a CUDA array behind a texture.
  thrust::host_vector<float> h_heights(MAP_W * MAP_H);
  for (int y = 0; y < MAP_H; y++)
    for (int x = 0; x < MAP_W; x++) h_heights[y * MAP_W + x] = terrain(x, y);
  thrust::device_vector<float> d_heights = h_heights;

  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, MAP_W, MAP_H));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, thrust::raw_pointer_cast(h_heights.data()),
                            MAP_W * sizeof(float), MAP_W * sizeof(float), MAP_H,
                            cudaMemcpyHostToDevice));
  cudaResourceDesc res;
  memset(&res, 0, sizeof res);
  res.resType = cudaResourceTypeArray;
  res.res.array.array = array;
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 0;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));

  const int max_len = MAP_W;
  thrust::device_vector<float> d_angles(max_len), d_angles_t(max_len), d_scanned(max_len),
      d_excl(max_len);
  thrust::device_vector<unsigned char> d_visible(max_len);
  thrust::device_vector<int> d_visible_excl(max_len);

  long long total_visible = 0;
  unsigned checksum = 0;
  int first_counts[8];
  for (int r = 0; r < NUM_RAYS; r++) {
    Ray ray = make_ray(r);
    int n = ray.length;

    // Angles: the kernel (texture) and thrust::transform (device array).
    compute_angles_kernel<<<(n + 127) / 128, 128>>>(ray, thrust::raw_pointer_cast(d_angles.data()), tex);
    CHECK(cudaGetLastError());
    angle_of_sample f = {ray, thrust::raw_pointer_cast(d_heights.data())};
    thrust::transform(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
                      d_angles_t.begin(), f);

    // Running maximum, then the visibility compare.
    thrust::inclusive_scan(d_angles.begin(), d_angles.begin() + n, d_scanned.begin(),
                           thrust::maximum<float>());
    compute_visibilities_kernel<<<(n + 127) / 128, 128>>>(
        thrust::raw_pointer_cast(d_angles.data()), thrust::raw_pointer_cast(d_scanned.data()), n,
        thrust::raw_pointer_cast(d_visible.data()));
    CHECK(cudaGetLastError());
    thrust::exclusive_scan(d_angles_t.begin(), d_angles_t.begin() + n, d_excl.begin(), -FLT_MAX,
                           thrust::maximum<float>());
    thrust::transform(d_angles_t.begin(), d_angles_t.begin() + n, d_excl.begin(),
                      d_visible_excl.begin(), visible_after_exclusive());
    int count = (int)thrust::count(d_visible.begin(), d_visible.begin() + n, (unsigned char)1);
    int count_excl = thrust::reduce(d_visible_excl.begin(), d_visible_excl.begin() + n);

    // Host reference.
    thrust::host_vector<float> angles = d_angles, angles_t = d_angles_t, scanned = d_scanned,
                               excl = d_excl;
    thrust::host_vector<unsigned char> visible = d_visible;
    float running = -FLT_MAX;
    int want_count = 0;
    for (int i = 0; i < n; i++) {
      int x, y;
      sample_position(ray, i, &x, &y);
      float want_angle = elevation_angle(ray, x, y, h_heights[y * MAP_W + x]);
      float want_excl = running;
      running = running > want_angle ? running : want_angle;
      int want_visible = running <= want_angle;
      want_count += want_visible;
      char what[96];
      snprintf(what, sizeof what, "ray %d sample %d", r, i);
      if (angles[i] != want_angle || angles_t[i] != want_angle) {
        printf("FAIL %s: angle kernel %.9g, transform %.9g, expected %.9g\n", what,
               angles[i], angles_t[i], want_angle);
        return 1;
      }
      if (scanned[i] != running || excl[i] != want_excl) {
        printf("FAIL %s: inclusive max-scan %.9g (expected %.9g), exclusive %.9g (expected %.9g)\n",
               what, scanned[i], running, excl[i], want_excl);
        return 1;
      }
      if (visible[i] != want_visible) {
        printf("FAIL %s: visible %d, expected %d\n", what, visible[i], want_visible);
        return 1;
      }
    }
    if (count != want_count || count_excl != want_count) {
      printf("FAIL ray %d: %d visible (count), %d (reduce), expected %d\n", r, count, count_excl,
             want_count);
      return 1;
    }
    total_visible += count;
    checksum = checksum * 31u + (unsigned)count;
    if (r < 8) first_counts[r] = count;
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(array));

  printf("rays %d, visible samples %lld, checksum %08x\n", NUM_RAYS, total_visible, checksum);
  printf("first rays:");
  for (int r = 0; r < 8; r++) printf(" %d", first_counts[r]);
  printf("\n");
  return pass("thrust_line_of_sight");
}
