// Float and double math, 64-bit integers, integer edge cases.
extern "C" __global__ void fmath(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = x[i];
    y[i * 8 + 0] = sqrtf(v);
    y[i * 8 + 1] = expf(v);
    y[i * 8 + 2] = sinf(v);
    y[i * 8 + 3] = __fdividef(v, 3.0f);
    y[i * 8 + 4] = rsqrtf(v);
    y[i * 8 + 5] = fmaf(v, v, 1.0f);
    y[i * 8 + 6] = v / 7.0f;
    y[i * 8 + 7] = logf(v) + cosf(v) + powf(v, 1.5f) + tanhf(v);
}
extern "C" __global__ void dmath(const double *x, double *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double v = x[i];
    y[i * 4 + 0] = sqrt(v);
    y[i * 4 + 1] = exp(v);
    y[i * 4 + 2] = v / 3.0;
    y[i * 4 + 3] = fma(v, v, 1.0) + sin(v);
}
extern "C" __global__ void imath(const int *a, const int *b, int *o, long long *lo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int x = a[i], y = b[i];
    o[i * 8 + 0] = y ? x / y : -1;
    o[i * 8 + 1] = y ? x % y : -1;
    o[i * 8 + 2] = x << (y & 31);
    o[i * 8 + 3] = x >> (y & 31);
    o[i * 8 + 4] = (unsigned)x >> (y & 31);
    o[i * 8 + 5] = __mulhi(x, y);
    o[i * 8 + 6] = __popc(x) + __clz(y) + __ffs(x) + __brev(y);
    o[i * 8 + 7] = min(x, y) + max(x, y) + abs(x);
    long long X = (long long)x * y, Y = (long long)a[i] << 33;
    lo[i * 4 + 0] = X;
    lo[i * 4 + 1] = y ? Y / y : 0;
    lo[i * 4 + 2] = (unsigned long long)Y >> (y & 63);
    lo[i * 4 + 3] = __mul64hi(X, Y) + __umul64hi(X, Y);
}
extern "C" __global__ void conv(const float *f, const double *d, int *o, unsigned *u, long long *l, float *fo, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    o[i] = (int)f[i];
    u[i] = (unsigned)f[i];
    l[i] = (long long)d[i];
    fo[i * 4 + 0] = (float)d[i];
    fo[i * 4 + 1] = __int2float_rz(o[i] * 3 + 1);
    fo[i * 4 + 2] = __fadd_rz(f[i], 1e-8f);
    fo[i * 4 + 3] = __saturatef(f[i]) + fminf(f[i], 0.5f) + fmaxf(f[i], -0.5f) + rintf(f[i]) + floorf(f[i]) + ceilf(f[i]) + truncf(f[i]);
}
