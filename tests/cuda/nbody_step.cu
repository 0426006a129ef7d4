// nbody_step: one leapfrog step of an all-pairs gravitational n-body system,
// bodies tiled through shared memory.  Float results depend on fma
// contraction and rsqrtf's approximation, so they are compared with the
// host's double-precision computation at a relative tolerance of 1e-4 of the
// largest magnitude (the sums run over 1024 terms of rsqrtf, 2 ulp each).
#include "check.h"

#define TB 128
#define SOFT 0.01f

__global__ void step(const float4 *pos, const float4 *vel, float4 *npos, float4 *nvel, int n, float dt) {
  __shared__ float4 tile[TB];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 p = i < n ? pos[i] : make_float4(0, 0, 0, 0);
  float ax = 0, ay = 0, az = 0;
  for (int base = 0; base < n; base += TB) {
    int j = base + threadIdx.x;
    tile[threadIdx.x] = j < n ? pos[j] : make_float4(0, 0, 0, 0);
    __syncthreads();
    for (int k = 0; k < TB && base + k < n; k++) {
      float4 q = tile[k];
      float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      float r2 = dx * dx + dy * dy + dz * dz + SOFT;
      float inv = rsqrtf(r2);
      float s = q.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  if (i < n) {
    float4 v = vel[i];
    v.x += ax * dt; v.y += ay * dt; v.z += az * dt;
    nvel[i] = v;
    npos[i] = make_float4(p.x + v.x * dt, p.y + v.y * dt, p.z + v.z * dt, p.w);
  }
}

int main(void) {
  const int n = 1000;
  const float dt = 0.01f;
  float4 *pos = (float4 *)malloc(n * sizeof(float4)), *vel = (float4 *)malloc(n * sizeof(float4));
  float4 *np = (float4 *)malloc(n * sizeof(float4)), *nv = (float4 *)malloc(n * sizeof(float4));
  unsigned seed = 2718;
  for (int i = 0; i < n; i++) {
    float r[7];
    for (int k = 0; k < 7; k++) r[k] = (float)(test_rand(&seed) % 20001) / 10000.0f - 1.0f;
    pos[i] = make_float4(r[0] * 10, r[1] * 10, r[2] * 10, 1.0f + 0.5f * r[3]);
    vel[i] = make_float4(r[4], r[5], r[6], 0);
  }
  float *want = (float *)malloc(n * 8 * sizeof(float));
  double amax = 0;
  for (int i = 0; i < n; i++) {
    double ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; j++) {
      double dx = (double)pos[j].x - pos[i].x, dy = (double)pos[j].y - pos[i].y,
             dz = (double)pos[j].z - pos[i].z;
      double r2 = dx * dx + dy * dy + dz * dz + (double)SOFT;
      double inv = 1.0 / sqrt(r2);
      double s = pos[j].w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    double vx = vel[i].x + ax * dt, vy = vel[i].y + ay * dt, vz = vel[i].z + az * dt;
    double o[8] = {pos[i].x + vx * dt, pos[i].y + vy * dt, pos[i].z + vz * dt, pos[i].w, vx, vy, vz, 0};
    for (int k = 0; k < 8; k++) {
      want[i * 8 + k] = (float)o[k];
      if (fabs(o[k]) > amax) amax = fabs(o[k]);
    }
  }
  float4 *dp, *dv, *dnp, *dnv;
  CHECK(cudaMalloc(&dp, n * sizeof(float4)));
  CHECK(cudaMalloc(&dv, n * sizeof(float4)));
  CHECK(cudaMalloc(&dnp, n * sizeof(float4)));
  CHECK(cudaMalloc(&dnv, n * sizeof(float4)));
  CHECK(cudaMemcpy(dp, pos, n * sizeof(float4), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dv, vel, n * sizeof(float4), cudaMemcpyHostToDevice));
  step<<<(n + TB - 1) / TB, TB>>>(dp, dv, dnp, dnv, n, dt);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(np, dnp, n * sizeof(float4), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(nv, dnv, n * sizeof(float4), cudaMemcpyDeviceToHost));
  float *got = (float *)malloc(n * 8 * sizeof(float));
  for (int i = 0; i < n; i++) {
    memcpy(&got[i * 8], &np[i], 16);
    memcpy(&got[i * 8 + 4], &nv[i], 16);
  }
  check_f32_tol("position and velocity (body*8 + component)", got, want, n * 8, 0.0, 1e-4 * amax);
  CHECK(cudaFree(dp)); CHECK(cudaFree(dv)); CHECK(cudaFree(dnp)); CHECK(cudaFree(dnv));
  free(pos); free(vel); free(np); free(nv); free(want); free(got);
  return pass("nbody_step");
}
