/* audit_kernels.c: the softmax, layernorm and reduce presets: kernels from
 * the PTX of audit_kernels.cu, embedded at build time, loaded with
 * cuModuleLoadData and launched with cuLaunchKernel (the inspector verifies
 * each launch against the CPU reference too):
 *   softmax.rows.P      rows x cols, one 32-lane warp per row (shfl.sync.bfly)
 *   softmax.rows4.P     the same, 4 rows (warps of tid / 32) per 128-thread block,
 *                       shfl.sync.down then a broadcast from lane 0: drifts on
 *                       64-lane warps (--warp-size 64, docs/audit.md)
 *   layernorm.rows.P    the same, with gamma and beta, eps 1e-5
 *   reduce.rows.P       row sums, 256 threads per row: shared memory, then a warp
 * rows = 8 x --batch (2), cols = --seq (512). Reference: double over the
 * rounded inputs, rounded once; tolerance x sqrt(cols) (x 4 for softmax and
 * layernorm, whose kernels use the fast __expf / rsqrtf). */
#include "audit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef CB_AUDIT_HAVE_PTX
static const char audit_ptx[] = {
#include "audit_kernels.ptx.inc"
};
#endif

enum { K_SOFTMAX, K_LAYERNORM, K_REDUCE, K_SOFTMAX4 };

static const char *const kernel_names[] = {"softmax", "layernorm", "reduce", "softmax4"};
static const char *const case_names[] = {"softmax.rows", "layernorm.rows", "reduce.rows", "softmax.rows4"};

static void kernel_case(audit_run *r, int which)
{
    const audit_precision p = r->prec;
    const int rows = 8 * (r->batch ? r->batch : 2), cols = r->seq ? r->seq : 512;
    const char *suffix = p == AUDIT_FP16 ? "f16" : p == AUDIT_BF16 ? "bf16" : "f32";
    char name[64], note[160], entry[32];
    const unsigned block = which == K_REDUCE ? 256 : which == K_SOFTMAX4 ? 128 : 32;
    const unsigned grid = which == K_SOFTMAX4 ? (unsigned)rows / 4 : (unsigned)rows;   /* rows: a multiple of 8 */
    snprintf(name, sizeof name, "%s.%s", case_names[which], audit_precision_name(p));
    snprintf(entry, sizeof entry, "%s_%s", kernel_names[which], suffix);
    snprintf(note, sizeof note, "kernel %s, %d rows x %d, block %u", entry, rows, cols, block);
    uint64_t t0 = audit_now(r);
#ifndef CB_AUDIT_HAVE_PTX
    audit_unsupported(r, name, "this cubridge was built without nvcc: no embedded PTX", t0);
    (void)rows, (void)cols, (void)grid;
#else
    const size_t w = audit_elem_bytes(p), n = (size_t)rows * cols, nout = which == K_REDUCE ? (size_t)rows : n;
    void *hx = malloc(n * w), *hg = malloc((size_t)cols * w), *hb = malloc((size_t)cols * w), *got = malloc(nout * w),
         *ref = malloc(nout * w);
    double *vx = malloc(n * sizeof(double)), *vg = malloc((size_t)cols * sizeof(double)),
           *vb = malloc((size_t)cols * sizeof(double));
    CUdeviceptr dx = 0, dg = 0, db = 0, dy = 0;
    CUmodule mod = NULL;
    CUfunction fn;
    if (!hx || !hg || !hb || !got || !ref || !vx || !vg || !vb) {
        audit_fail(r, name, "out of host memory", t0);
        goto out;
    }
    audit_fill(p, hx, vx, n, 51 + (uint32_t)which);
    if (which == K_SOFTMAX || which == K_SOFTMAX4)   /* logits of a few units' spread */
        for (size_t e = 0; e < n; e++)
            audit_store(p, hx, e, 4.0 * vx[e]), vx[e] = audit_load(p, hx, e);
    audit_fill(p, hg, vg, (size_t)cols, 61);
    audit_fill(p, hb, vb, (size_t)cols, 62);
    dx = audit_upload(hx, n * w);
    dg = audit_upload(hg, (size_t)cols * w);
    db = audit_upload(hb, (size_t)cols * w);
    dy = audit_upload(NULL, nout * w);
    if (!dx || !dg || !db || !dy) {
        audit_fail(r, name, "device memory (cuMemAlloc/cuMemcpyHtoD)", t0);
        goto out;
    }
    CUresult rc = cuModuleLoadData(&mod, audit_ptx);
    if (rc == CUDA_SUCCESS)
        rc = cuModuleGetFunction(&fn, mod, entry);
    if (rc != CUDA_SUCCESS) {
        const char *s = NULL;
        cuGetErrorName(rc, &s);
        char why[120];
        snprintf(why, sizeof why, "cuModuleLoadData/cuModuleGetFunction(%s): %s", entry, s ? s : "?");
        if (rc == CUDA_ERROR_NOT_SUPPORTED)
            audit_unsupported(r, name, why, t0);
        else
            audit_fail(r, name, why, t0);
        goto out;
    }
    float eps = 1e-5f;
    void *args_sm[] = {&dx, &dy, (void *)&cols};
    void *args_ln[] = {&dx, &dg, &db, &dy, (void *)&cols, &eps};
    rc = cuLaunchKernel(fn, grid, 1, 1, block, 1, 1, 0, NULL,
                        which == K_LAYERNORM ? args_ln : args_sm, NULL);
    if (rc == CUDA_SUCCESS)
        rc = cuCtxSynchronize();
    if (rc != CUDA_SUCCESS) {
        const char *s = NULL;
        cuGetErrorName(rc, &s);
        char why[120];
        snprintf(why, sizeof why, "cuLaunchKernel(%s): %s", entry, s ? s : "?");
        audit_fail(r, name, why, t0);
        goto out;
    }
    if (audit_download(got, dy, nout * w) != 0) {
        audit_fail(r, name, "cuMemcpyDtoH after the launch", t0);
        goto out;
    }
    for (int i = 0; i < rows; i++) {
        const double *xr = vx + (size_t)i * cols;
        double a = 0, b = 0;
        if (which == K_REDUCE) {
            for (int c = 0; c < cols; c++)
                a += xr[c];
            audit_store(p, ref, (size_t)i, a);
        } else if (which == K_SOFTMAX || which == K_SOFTMAX4) {
            double m = -INFINITY;
            for (int c = 0; c < cols; c++)
                m = xr[c] > m ? xr[c] : m;
            for (int c = 0; c < cols; c++)
                a += exp(xr[c] - m);
            for (int c = 0; c < cols; c++)
                audit_store(p, ref, (size_t)i * cols + c, exp(xr[c] - m) / a);
        } else {
            for (int c = 0; c < cols; c++)
                a += xr[c];
            a /= cols;
            for (int c = 0; c < cols; c++)
                b += (xr[c] - a) * (xr[c] - a);
            double rstd = 1.0 / sqrt(b / cols + 1e-5);
            for (int c = 0; c < cols; c++)
                audit_store(p, ref, (size_t)i * cols + c, (xr[c] - a) * rstd * vg[c] + vb[c]);
        }
    }
    audit_check(r, name, got, ref, nout, p, sqrt((double)cols) * (which == K_REDUCE ? 1 : 4), note, t0);
out:
    if (mod)
        cuModuleUnload(mod);
    audit_free(dx), audit_free(dg), audit_free(db), audit_free(dy);
    free(hx), free(hg), free(hb), free(got), free(ref), free(vx), free(vg), free(vb);
#endif
}

int audit_softmax(audit_run *r)
{
    kernel_case(r, K_SOFTMAX);
    kernel_case(r, K_SOFTMAX4);
    return 0;
}

int audit_layernorm(audit_run *r)
{
    kernel_case(r, K_LAYERNORM);
    return 0;
}

int audit_reduce(audit_run *r)
{
    kernel_case(r, K_REDUCE);
    return 0;
}
