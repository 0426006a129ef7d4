/* audit.h: the built-in workloads of `cubridge audit` (docs/audit.md).
 *
 * cubridge-workloads is a program that ships with cubridge (no nvcc on the
 * user's side): `cubridge audit` runs it under the dispatch inspector in
 * verify mode, exactly as `cubridge inspect --verify` runs a user's
 * program. Each preset (gemm, conv2d-fwd, ...) drives cubridge's library
 * facades (cuBLAS, cuDNN, cuFFT) through the normal libcuda.so.1 path, or
 * launches kernels from PTX embedded at build time (softmax, layernorm,
 * reduce). Every case computes its own reference in double on the rounded
 * inputs and hands result and reference to the inspector
 * (cubridge_lib_services()->check), which files it as a library row
 * "audit <case>" with a status: PASS with the measured drift, DRIFT,
 * UNSUPPORTED (the facade answered NOT_SUPPORTED), FAIL (an error). The
 * facades' own checks and the kernels' launches are verified by the
 * inspector beside them.
 */
#ifndef CB_AUDIT_H
#define CB_AUDIT_H

#include <stddef.h>
#include <stdint.h>

#include <cuda.h>

#include "lib/common/lib_services.h"

typedef enum audit_precision { AUDIT_FP32, AUDIT_FP16, AUDIT_BF16 } audit_precision;

typedef struct audit_run {
    audit_precision prec;
    int prec_given;                /* --precision was given (sdpa: else all three) */
    int batch, seq;                /* --batch, --seq: 0 when not given (the preset's default) */
    const cb_lib_services *svc;    /* NULL under a libcuda.so.1 that is not cubridge's */
    int pass, drift, unsupported, failed;
} audit_run;

/* ---- numbers (audit_common.c) ------------------------------------------ */

const char *audit_precision_name(audit_precision p);
size_t audit_elem_bytes(audit_precision p);
cb_inspect_elem audit_elem(audit_precision p);
/* Element i of a buffer of p: rounded to nearest even on store. */
void audit_store(audit_precision p, void *buf, size_t i, double v);
double audit_load(audit_precision p, const void *buf, size_t i);
/* n values in [-1, 1) from seed, rounded to p and stored into buf (of p);
 * vals (may be NULL) gets what was stored, as doubles. */
void audit_fill(audit_precision p, void *buf, double *vals, size_t n, uint32_t seed);

/* ---- device memory (the driver API of cubridge's libcuda.so.1) ---------- */

/* A device copy of bytes of host (NULL: zeros); 0 on failure (logged). */
CUdeviceptr audit_upload(const void *host, size_t bytes);
/* 0, or -1 (logged). */
int audit_download(void *host, CUdeviceptr d, size_t bytes);
void audit_free(CUdeviceptr d);

/* ---- verdicts ----------------------------------------------------------- */

/* The inspector's clock (0 without it). */
uint64_t audit_now(const audit_run *r);
/* Case `name` ran (started at t0): compares result with the reference ref
 * (both count elements of p), tolerance x tol_scale (>= 1: sums of many
 * terms), files the row and prints a line. Returns 1 on drift. */
int audit_check(audit_run *r, const char *name, const void *result, const void *ref, size_t count, audit_precision p,
                double tol_scale, const char *note, uint64_t t0);
/* Case `name` was refused with NOT_SUPPORTED (why: by what, and why). */
void audit_unsupported(audit_run *r, const char *name, const char *why, uint64_t t0);
/* Case `name` failed (why: the call and its status). */
void audit_fail(audit_run *r, const char *name, const char *why, uint64_t t0);

/* ---- the presets (one file each) ---------------------------------------- */

int audit_gemm(audit_run *r);          /* audit_blas.c */
int audit_conv2d_fwd(audit_run *r);    /* audit_conv.c */
int audit_conv2d_bwd(audit_run *r);    /* audit_conv.c */
int audit_sdpa(audit_run *r);          /* audit_sdpa.c */
int audit_fft(audit_run *r);           /* audit_fft.c */
int audit_softmax(audit_run *r);       /* audit_kernels.c */
int audit_layernorm(audit_run *r);     /* audit_kernels.c */
int audit_reduce(audit_run *r);        /* audit_kernels.c */

#endif
