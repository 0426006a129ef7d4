/* cudnn_ref.c: the C references of the cuDNN facade's computing calls, in
 * double (CUBRIDGE_INSPECT=verify compares every call with them).
 *
 * Written for obviousness, not speed, and independently of the backend's
 * kernels: the convolution walks every output element and every filter
 * tap, computes the input position from the definition (position * stride
 * + tap * dilation - pad), and mirrors the tap's index for
 * CUDNN_CONVOLUTION.
 */
#include "cudnn_conv.h"

/* Multi-index of linear index e over dims (the last fastest). */
static void unravel(int64_t e, int n, const int64_t *dims, int64_t *idx)
{
    for (int d = n - 1; d >= 0; d--) {
        idx[d] = e % dims[d];
        e /= dims[d];
    }
}

static int64_t ravel(int n, const int64_t *dims, const int64_t *idx)
{
    int64_t e = 0;
    for (int d = 0; d < n; d++)
        e = e * dims[d] + idx[d];
    return e;
}

void cudnn_ref_conv(const cb_dnn_conv *c, const double *x, const double *w, double *y)
{
    int nsp = c->nsp;
    const int64_t *in = &c->x.dim[2], *out = &c->y.dim[2], *filt = &c->w.dim[2];
    int64_t N = c->x.dim[0], C = c->x.dim[1], K = c->y.dim[1];
    int64_t Cg = C / c->groups, Kg = K / c->groups;
    int64_t in_count = 1, out_count = 1, filt_count = 1;
    for (int d = 0; d < nsp; d++) {
        in_count *= in[d];
        out_count *= out[d];
        filt_count *= filt[d];
    }
    double *dx = (double *)x, *dw = (double *)w;
    int64_t o_idx[CB_DNN_MAX_SPATIAL], r_idx[CB_DNN_MAX_SPATIAL], i_idx[CB_DNN_MAX_SPATIAL], f_idx[CB_DNN_MAX_SPATIAL];
    for (int64_t n = 0; n < N; n++)
        for (int64_t k = 0; k < K; k++) {
            int64_t g = k / Kg;
            for (int64_t o = 0; o < out_count; o++) {
                unravel(o, nsp, out, o_idx);
                for (int64_t cc = 0; cc < Cg; cc++) {
                    int64_t ch = g * Cg + cc;
                    for (int64_t r = 0; r < filt_count; r++) {
                        unravel(r, nsp, filt, r_idx);
                        int inside = 1;
                        for (int d = 0; d < nsp; d++) {
                            i_idx[d] = o_idx[d] * c->stride[d] + r_idx[d] * c->dilation[d] - c->pad[d];
                            inside &= i_idx[d] >= 0 && i_idx[d] < in[d];
                            f_idx[d] = c->flip ? filt[d] - 1 - r_idx[d] : r_idx[d];
                        }
                        if (!inside)
                            continue;
                        int64_t xi = (n * C + ch) * in_count + ravel(nsp, in, i_idx);
                        int64_t wi = (k * Cg + cc) * filt_count + ravel(nsp, filt, f_idx);
                        int64_t yi = (n * K + k) * out_count + o;
                        switch (c->direction) {
                        case CB_DNN_CONV_FWD: y[yi] += x[xi] * w[wi]; break;
                        case CB_DNN_CONV_BWD_DATA: dx[xi] += y[yi] * w[wi]; break;
                        default: dw[wi] += x[xi] * y[yi]; break;
                        }
                    }
                }
            }
        }
}
