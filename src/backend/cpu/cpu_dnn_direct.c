/* cpu_dnn_direct.c: convolutions by direct loops in double (cpu_dnn.h).
 *
 * The path for f64 and integer convolutions and for what oneDNN refuses
 * (more than three spatial dimensions, shapes it has no kernel for). Every
 * product is accumulated in double, whatever the types: exact for integer
 * data, and at least as accurate as the GPU for floating point.
 *
 * The geometry is reduced once per block of output positions to a table of
 * (input position, output position, filter position) triples -- the pairs
 * of output and filter positions whose input position lies inside the
 * input -- which all three directions walk:
 *   forward      y[n, k, o] += x[n, c, i] * w[k, c, r]
 *   data         x[n, c, i] += y[n, k, o] * w[k, c, r]
 *   filter       w[k, c, r] += x[n, c, i] * y[n, k, o]
 */
#include "backend/cpu/cpu_dnn.h"

#include <stdlib.h>

typedef struct triple {
    int64_t i, o, r;
} triple;

typedef struct geometry {
    int nsp;
    int64_t in[CB_DNN_MAX_SPATIAL], out[CB_DNN_MAX_SPATIAL], filt[CB_DNN_MAX_SPATIAL];
    int64_t in_count, out_count, filt_count;
} geometry;

/* The triples of output positions [o0, o1); returns their count. */
static size_t triples_of(const cb_dnn_conv *c, const geometry *g, int64_t o0, int64_t o1, triple *t)
{
    size_t n = 0;
    int64_t oi[CB_DNN_MAX_SPATIAL], ri[CB_DNN_MAX_SPATIAL];
    for (int64_t o = o0; o < o1; o++) {
        int64_t rem = o;
        for (int d = g->nsp - 1; d >= 0; d--) {
            oi[d] = rem % g->out[d];
            rem /= g->out[d];
        }
        for (int64_t r = 0; r < g->filt_count; r++) {
            int64_t rr = r, in = 0, mul = 1, inside = 1;
            for (int d = g->nsp - 1; d >= 0; d--) {
                ri[d] = rr % g->filt[d];
                rr /= g->filt[d];
            }
            for (int d = g->nsp - 1; d >= 0 && inside; d--) {
                int64_t p = oi[d] * c->stride[d] + ri[d] * c->dilation[d] - c->pad[d];
                inside = p >= 0 && p < g->in[d];
                in += p * mul;
                mul *= g->in[d];
            }
            if (inside)
                t[n++] = (triple){in, o, r};
        }
    }
    return n;
}

CUresult cpu_dnn_direct_conv(const cb_dnn_conv *c, const double *x, const double *w, double *y)
{
    geometry g = {.nsp = c->nsp, .in_count = 1, .out_count = 1, .filt_count = 1};
    for (int d = 0; d < c->nsp; d++) {
        g.in[d] = c->x.dim[d + 2];
        g.out[d] = c->y.dim[d + 2];
        g.filt[d] = c->w.dim[d + 2];
        g.in_count *= g.in[d];
        g.out_count *= g.out[d];
        g.filt_count *= g.filt[d];
    }
    int64_t N = c->x.dim[0], C = c->x.dim[1], K = c->y.dim[1];
    int64_t Cg = C / c->groups, Kg = K / c->groups;
    int64_t block = 4096 / (g.filt_count > 0 ? g.filt_count : 1);
    if (block < 1)
        block = 1;
    triple *t = malloc(sizeof(triple) * (size_t)(block * g.filt_count));
    if (!t)
        return CUDA_ERROR_OUT_OF_MEMORY;
    double *dx = (double *)x, *dw = (double *)w;
    for (int64_t o0 = 0; o0 < g.out_count; o0 += block) {
        int64_t o1 = o0 + block < g.out_count ? o0 + block : g.out_count;
        size_t nt = triples_of(c, &g, o0, o1, t);
        for (int64_t n = 0; n < N; n++)
            for (int64_t k = 0; k < K; k++) {
                int64_t grp = k / Kg;
                for (int64_t cc = 0; cc < Cg; cc++) {
                    int64_t ch = grp * Cg + cc;
                    const double *xs = x + (n * C + ch) * g.in_count;
                    const double *ws = w + (k * Cg + cc) * g.filt_count;
                    const double *ys = y + (n * K + k) * g.out_count;
                    if (c->direction == CB_DNN_CONV_FWD) {
                        double *yd = y + (n * K + k) * g.out_count;
                        for (size_t j = 0; j < nt; j++)
                            yd[t[j].o] += xs[t[j].i] * ws[t[j].r];
                    } else if (c->direction == CB_DNN_CONV_BWD_DATA) {
                        double *xd = dx + (n * C + ch) * g.in_count;
                        for (size_t j = 0; j < nt; j++)
                            xd[t[j].i] += ys[t[j].o] * ws[t[j].r];
                    } else {
                        double *wd = dw + (k * Cg + cc) * g.filt_count;
                        for (size_t j = 0; j < nt; j++)
                            wd[t[j].r] += xs[t[j].i] * ys[t[j].o];
                    }
                }
            }
    }
    free(t);
    return CUDA_SUCCESS;
}
