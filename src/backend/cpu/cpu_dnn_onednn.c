/* cpu_dnn_onednn.c: convolutions on oneDNN (cpu_dnn.h).
 *
 * oneDNN (Debian's libdnnl2, Apache-2.0; its header from libdnnl-dev) is
 * loaded with dlopen on the first convolution, not linked, so that programs
 * which never call cuDNN do not load it or start its OpenMP pool. The
 * primitives are oneDNN's direct convolutions (dnnl_convolution_direct,
 * never Winograd) in f32 on plain strided memory descriptors, so any
 * layout the facade hands over (NCHW, NHWC, padded strides) is read where
 * it lies; groups become oneDNN's grouped weights (g, K/g, C/g, spatial).
 * oneDNN's own primitive cache keeps the compiled kernels of repeated
 * shapes. Numerics: f32 products and f32 accumulation, in oneDNN's order
 * (docs/cudnn.md, "Numerics").
 *
 * Process-wide state: the oneDNN entry points and the CPU engine, loaded
 * once (onednn_once).
 */
#include "backend/cpu/cpu_dnn.h"

#include "backend/cpu/cpu_internal.h"
#include "platform/dl.h"
#include "platform/log.h"
#include "platform/thread.h"

#if defined(__has_include)
#if __has_include(<oneapi/dnnl/dnnl.h>)
#include <oneapi/dnnl/dnnl.h>
#define CPU_HAVE_ONEDNN 1
#endif
#endif

#ifdef CPU_HAVE_ONEDNN

#define ONEDNN_FUNCS(X)                                                                                                \
    X(dnnl_engine_create) X(dnnl_stream_create) X(dnnl_stream_wait) X(dnnl_stream_destroy)                             \
    X(dnnl_memory_desc_init_by_strides) X(dnnl_memory_create) X(dnnl_memory_destroy)                                   \
    X(dnnl_dilated_convolution_forward_desc_init) X(dnnl_dilated_convolution_backward_data_desc_init)                  \
    X(dnnl_dilated_convolution_backward_weights_desc_init) X(dnnl_primitive_desc_create)                               \
    X(dnnl_primitive_desc_destroy) X(dnnl_primitive_create) X(dnnl_primitive_destroy) X(dnnl_primitive_execute)

static struct {
#define X(f) __typeof__(f) *f;
    ONEDNN_FUNCS(X)
#undef X
    dnnl_engine_t engine;
} dn;
static cb_once onednn_once = CB_ONCE_INIT;
static int onednn_ok;

static const char *const onednn_names[] = {"libdnnl.so.2", "libdnnl.so.3", "libdnnl.so"};

static void onednn_load(void)
{
    const char *lib = NULL;
    for (size_t i = 0; i < sizeof onednn_names / sizeof onednn_names[0] && !lib; i++)
        if (cb_dl_library_symbol(onednn_names[i], "dnnl_dilated_convolution_forward_desc_init"))
            lib = onednn_names[i];
    if (!lib) {
        cb_log(CB_LOG_INFO, "oneDNN (libdnnl.so.2; Debian: apt-get install libdnnl2) not found: convolutions "
                                 "run on cubridge's direct loops");
        return;
    }
    int missing = 0;
#define X(f)                                                                                                           \
    if (!(dn.f = (__typeof__(f) *)cb_dl_library_symbol(lib, #f))) {                                                    \
        cb_log(CB_LOG_WARN, "oneDNN (%s) lacks %s: convolutions run on cubridge's direct loops", lib, #f);      \
        missing = 1;                                                                                                   \
    }
    ONEDNN_FUNCS(X)
#undef X
    if (missing)
        return;
    if (dn.dnnl_engine_create(&dn.engine, dnnl_cpu, 0) != dnnl_success) {
        cb_log(CB_LOG_WARN, "oneDNN: no CPU engine: convolutions run on cubridge's direct loops");
        return;
    }
    onednn_ok = 1;
}

int cpu_dnn_onednn_available(void)
{
    cb_run_once(&onednn_once, onednn_load);
    return onednn_ok;
}

/* A memory descriptor of p; weights (w 1) of a grouped convolution get
 * oneDNN's leading group dimension. */
static int md_of(dnnl_memory_desc_t *md, const cpu_dnn_plain *p, int weights, int64_t groups)
{
    dnnl_dims_t dims, strides;
    int nd = p->nd;
    if (weights && groups > 1) {
        dims[0] = groups;
        strides[0] = p->stride[0] * (p->dim[0] / groups);
        dims[1] = p->dim[0] / groups;
        strides[1] = p->stride[0];
        for (int d = 1; d < nd; d++) {
            dims[d + 1] = p->dim[d];
            strides[d + 1] = p->stride[d];
        }
        nd++;
    } else {
        for (int d = 0; d < nd; d++) {
            dims[d] = p->dim[d];
            strides[d] = p->stride[d];
        }
    }
    return dn.dnnl_memory_desc_init_by_strides(md, nd, dims, dnnl_f32, strides) == dnnl_success;
}

CUresult cpu_dnn_onednn_conv(const cb_dnn_conv *c, const cpu_dnn_plain *x, const cpu_dnn_plain *w,
                             const cpu_dnn_plain *y)
{
    if (!cpu_dnn_onednn_available() || c->nsp < 1 || c->nsp > 3)
        return CUDA_ERROR_NOT_SUPPORTED;
    dnnl_memory_desc_t xmd, wmd, ymd;
    if (!md_of(&xmd, x, 0, 1) || !md_of(&wmd, w, 1, c->groups) || !md_of(&ymd, y, 0, 1))
        return CUDA_ERROR_NOT_SUPPORTED;
    dnnl_dims_t st, dl, pl, pr;
    for (int d = 0; d < c->nsp; d++) {
        int64_t i = x->dim[d + 2], o = y->dim[d + 2], k = w->dim[d + 2];
        st[d] = c->stride[d];
        dl[d] = c->dilation[d] - 1;
        pl[d] = c->pad[d];
        pr[d] = (o - 1) * c->stride[d] + (k - 1) * c->dilation[d] + 1 - i - c->pad[d];
    }
    /* every direction needs the forward description (the others' hint) */
    dnnl_convolution_desc_t fwd, bwd;
    dnnl_prop_kind_t kind = c->direction == CB_DNN_CONV_FWD ? dnnl_forward_inference : dnnl_forward_training;
    if (dn.dnnl_dilated_convolution_forward_desc_init(&fwd, kind, dnnl_convolution_direct, &xmd, &wmd, NULL, &ymd, st,
                                                      dl, pl, pr) != dnnl_success)
        return CUDA_ERROR_NOT_SUPPORTED;
    dnnl_primitive_desc_t fpd = NULL, pd = NULL;
    if (dn.dnnl_primitive_desc_create(&fpd, &fwd, NULL, dn.engine, NULL) != dnnl_success)
        return CUDA_ERROR_NOT_SUPPORTED;
    int ok = 1;
    if (c->direction == CB_DNN_CONV_FWD) {
        pd = fpd;
        fpd = NULL;
    } else if (c->direction == CB_DNN_CONV_BWD_DATA) {
        ok = dn.dnnl_dilated_convolution_backward_data_desc_init(&bwd, dnnl_convolution_direct, &xmd, &wmd, &ymd, st,
                                                                 dl, pl, pr) == dnnl_success &&
             dn.dnnl_primitive_desc_create(&pd, &bwd, NULL, dn.engine, fpd) == dnnl_success;
    } else {
        ok = dn.dnnl_dilated_convolution_backward_weights_desc_init(&bwd, dnnl_convolution_direct, &xmd, &wmd, NULL,
                                                                    &ymd, st, dl, pl, pr) == dnnl_success &&
             dn.dnnl_primitive_desc_create(&pd, &bwd, NULL, dn.engine, fpd) == dnnl_success;
    }
    if (fpd)
        dn.dnnl_primitive_desc_destroy(fpd);
    if (!ok) {
        if (pd)
            dn.dnnl_primitive_desc_destroy(pd);
        return CUDA_ERROR_NOT_SUPPORTED;
    }
    dnnl_primitive_t prim = NULL;
    dnnl_memory_t mx = NULL, mw = NULL, my = NULL;
    dnnl_stream_t stream = NULL;
    CUresult r = CUDA_ERROR_NOT_SUPPORTED;
    if (dn.dnnl_primitive_create(&prim, pd) == dnnl_success &&
        dn.dnnl_memory_create(&mx, &xmd, dn.engine, x->data) == dnnl_success &&
        dn.dnnl_memory_create(&mw, &wmd, dn.engine, w->data) == dnnl_success &&
        dn.dnnl_memory_create(&my, &ymd, dn.engine, y->data) == dnnl_success &&
        dn.dnnl_stream_create(&stream, dn.engine, dnnl_stream_default_flags) == dnnl_success) {
        dnnl_exec_arg_t args[3];
        if (c->direction == CB_DNN_CONV_FWD) {
            args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, mx};
            args[1] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, mw};
            args[2] = (dnnl_exec_arg_t){DNNL_ARG_DST, my};
        } else if (c->direction == CB_DNN_CONV_BWD_DATA) {
            args[0] = (dnnl_exec_arg_t){DNNL_ARG_DIFF_SRC, mx};
            args[1] = (dnnl_exec_arg_t){DNNL_ARG_WEIGHTS, mw};
            args[2] = (dnnl_exec_arg_t){DNNL_ARG_DIFF_DST, my};
        } else {
            args[0] = (dnnl_exec_arg_t){DNNL_ARG_SRC, mx};
            args[1] = (dnnl_exec_arg_t){DNNL_ARG_DIFF_WEIGHTS, mw};
            args[2] = (dnnl_exec_arg_t){DNNL_ARG_DIFF_DST, my};
        }
        if (dn.dnnl_primitive_execute(prim, stream, 3, args) == dnnl_success &&
            dn.dnnl_stream_wait(stream) == dnnl_success)
            r = CUDA_SUCCESS;
        else
            r = CUDA_ERROR_OUT_OF_MEMORY;   /* oneDNN fails an execution only for resources */
    }
    if (stream)
        dn.dnnl_stream_destroy(stream);
    if (mx)
        dn.dnnl_memory_destroy(mx);
    if (mw)
        dn.dnnl_memory_destroy(mw);
    if (my)
        dn.dnnl_memory_destroy(my);
    if (prim)
        dn.dnnl_primitive_destroy(prim);
    dn.dnnl_primitive_desc_destroy(pd);
    return r;
}

#else /* no oneDNN header at build time */

int cpu_dnn_onednn_available(void) { return 0; }

CUresult cpu_dnn_onednn_conv(const cb_dnn_conv *c, const cpu_dnn_plain *x, const cpu_dnn_plain *w,
                             const cpu_dnn_plain *y)
{
    (void)c, (void)x, (void)w, (void)y;
    return CUDA_ERROR_NOT_SUPPORTED;
}

#endif
