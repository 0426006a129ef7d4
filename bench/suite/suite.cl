/* suite.cl: the benchmark suite's OpenCL C form (bench/suite/suite_ocl.c
 * builds it with the sizes of suite.h as -D options). Each kernel is the
 * CUDA form's (suite.cu) in OpenCL C: the same geometry, local memory for
 * shared memory, barrier() for __syncthreads. The reduction has no warp
 * shuffles in OpenCL 1.2: a work-group tree in local memory, then one atomic
 * per work-group. */

kernel void vectoradd(global const float *a, global const float *b, global float *c, int n)
{
    int i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

kernel void saxpy(float a, global const float *x, global float *y, int n)
{
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        y[i] = fma(a, x[i], y[i]);
}

kernel void sgemm(global const float *A, global const float *B, global float *C, int n)
{
    local float As[TILE][TILE];
    local float Bs[TILE][TILE];
    int tx = get_local_id(0), ty = get_local_id(1);
    int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; k++)
            sum = fma(As[ty][k], Bs[k][tx], sum);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = sum;
}

/* float atomic add through compare-and-swap on the bits */
void atomic_add_float(volatile global float *p, float v)
{
    union { unsigned u; float f; } old, upd;
    do {
        old.f = *p;
        upd.f = old.f + v;
    } while (atomic_cmpxchg((volatile global unsigned *)p, old.u, upd.u) != old.u);
}

kernel void reduction(global const float *x, global float *out, int n, int slot)
{
    local float part[256];
    float s = 0.0f;
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        s += x[i];
    int l = get_local_id(0);
    part[l] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 128; off > 0; off >>= 1) {
        if (l < off)
            part[l] += part[l + off];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        atomic_add_float(out + slot, part[0]);
}

kernel void stencil(global const float *in, global float *out, int n)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= n || y >= n)
        return;
    int i = y * n + x;
    if (x == 0 || y == 0 || x == n - 1 || y == n - 1)
        out[i] = in[i];
    else
        out[i] = fma(C1, (in[i - n] + in[i + n]) + (in[i - 1] + in[i + 1]), C0 * in[i]);
}

kernel void histogram(global const unsigned *words, global unsigned *hist, int n)
{
    local unsigned h[256];
    int l = get_local_id(0), nl = get_local_size(0);
    for (int b = l; b < 256; b += nl)
        h[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        unsigned w = words[i];
        atomic_inc(&h[w & 255u]);
        atomic_inc(&h[(w >> 8) & 255u]);
        atomic_inc(&h[(w >> 16) & 255u]);
        atomic_inc(&h[w >> 24]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int b = l; b < 256; b += nl)
        atomic_add(&hist[b], h[b]);
}

kernel void transpose(global const float *in, global float *out, int n)
{
    local float tile[TR_TILE][TR_TILE + 1];
    int tx = get_local_id(0), ty = get_local_id(1);
    int x = get_group_id(0) * TR_TILE + tx, y = get_group_id(1) * TR_TILE + ty;
    for (int j = 0; j < TR_TILE; j += TR_ROWS)
        tile[ty + j][tx] = in[(y + j) * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    x = get_group_id(1) * TR_TILE + tx;
    y = get_group_id(0) * TR_TILE + ty;
    for (int j = 0; j < TR_TILE; j += TR_ROWS)
        out[(y + j) * n + x] = tile[tx][ty + j];
}

kernel void nbody(global const float4 *pos, global float4 *acc, int n)
{
    local float4 tile[NB_TILE];
    int i = get_global_id(0), l = get_local_id(0);
    float4 p = pos[i];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
    for (int t = 0; t < n; t += NB_TILE) {
        tile[l] = pos[t + l];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < NB_TILE; j++) {
            float4 q = tile[j];
            float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
            float d2 = dx * dx + dy * dy + dz * dz + EPS2;
            float inv = rsqrt(d2);
            float s = q.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = (float4)(ax, ay, az, 0.0f);
}
