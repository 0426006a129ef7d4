/* fft_layout.h: multi-dimensional, batched, strided FFTs (cuFFT's data layouts)
 * over cubridge's 1-D FFT (fft_core.h). Host memory in, host memory out; the
 * facade (cufft_*.c) brings the data there and back (docs/cufft.md).
 *
 * Layouts are cuFFT's "advanced data layout": element x = (x0, ..., x_{r-1}) of
 * batch b lives at b * dist + stride * ((x0 * embed[1] + x1) * embed[2] + x2 ...).
 * With the basic layout (embed NULL in cuFFT) the data are dense; a real side of
 * an in-place transform is padded to 2 (n_last / 2 + 1) reals per row.
 */
#ifndef CB_FFT_LAYOUT_H
#define CB_FFT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#define FFTL_MAX_RANK 3

typedef enum fftl_type { FFTL_C2C, FFTL_R2C, FFTL_C2R } fftl_type;

/* The scalar of the data on both sides (complex data: pairs of it). */
typedef enum fftl_elem { FFTL_F32, FFTL_F64, FFTL_F16, FFTL_BF16 } fftl_elem;

typedef struct fftl_side {
    int basic;                        /* 1: dense (cuFFT's basic layout) */
    long long embed[FFTL_MAX_RANK];   /* embed[0] is not used, as in cuFFT */
    long long stride, dist;
} fftl_side;

typedef struct fftl_desc {
    fftl_type type;
    fftl_elem elem;
    int rank;                         /* 1 .. FFTL_MAX_RANK */
    long long n[FFTL_MAX_RANK];
    long long batch;
    fftl_side in, out;
} fftl_desc;

/* Why a description is refused (0: it is valid). */
enum {
    FFTL_OK = 0,
    FFTL_BAD_RANK,        /* rank outside 1..3 */
    FFTL_BAD_SIZE,        /* a length < 1, batch < 1, or a product too large */
    FFTL_BAD_LAYOUT,      /* stride or dist < 1, embed[i] < the length it holds */
    FFTL_BAD_TYPE,        /* half/bf16 with a length that is not a power of two ... */
};

/* Checks d; on refusal writes a reason into why (may be NULL). */
int fftl_validate(const fftl_desc *d, char *why, size_t why_len);

typedef struct fftl_plan fftl_plan;

/* A plan for a valid description, or NULL (out of memory). */
fftl_plan *fftl_plan_create(const fftl_desc *d);
void fftl_plan_destroy(fftl_plan *p);
const fftl_desc *fftl_plan_desc(const fftl_plan *p);

/* Bytes of host work memory one execution needs. */
size_t fftl_work_bytes(const fftl_plan *p);

/* Bytes from the start of the input and of the output that an execution
 * reads or writes (0 when nothing), for in-place (in == out) or not. */
void fftl_extents(const fftl_plan *p, int inplace, uint64_t *in_bytes, uint64_t *out_bytes);

/* Runs the transform: in and out are host copies laid out as described (they
 * may be the same buffer: in place). sign: -1 forward, +1 inverse; R2C is always
 * forward and C2R inverse. work: fftl_work_bytes(p) bytes. */
void fftl_execute(const fftl_plan *p, const void *in, void *out, int inplace, int sign, void *work);

/* The same transform computed in double precision (the verify reference):
 * reads in and writes ref_out (a separate buffer of the output's extent) in
 * d's element type and layout, as an execution with this in-place flag would.
 * Returns 0, or -1 when out of memory. */
int fftl_reference(const fftl_desc *d, const void *in, void *ref_out, int inplace, int sign);

#endif
