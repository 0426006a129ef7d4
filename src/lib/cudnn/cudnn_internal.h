/* cudnn_internal.h: what the files of the cuDNN facade share (docs/cudnn.md:
 * also cudnn_activation.c, cudnn_pointwise.c, cudnn_bn.c, cudnn_pool.c and
 * cudnn_softmax.c, the descriptors and calls their names say).
 *
 *   cudnn_handle.c     handles, streams, versions (8 or 9, by the soname
 *                      loaded), status codes and texts, callbacks, checks
 *   cudnn_tensor.c     tensor and filter descriptors (4-D, N-D, formats,
 *                      strides), their sizes
 *   cudnn_conv.c       convolution descriptors, output dims, the Get/Find
 *                      algorithm queries and workspace sizes
 *   cudnn_conv_exec.c  the four convolutions and the fused bias/activation
 *   cudnn_op.c         the stream operation every computing call becomes,
 *                      the checked run, host staging of strided tensors
 *   cudnn_ref.c        the C references (double) of the computing calls
 *   cudnn_backend*.c   the backend (graph) API (cudnn_backend.h)
 *
 * Every file includes cudnn_impl.h (generated: NVIDIA's prototypes under
 * the cb_impl_ names), so `cudnnStatus_t cudnnCreate(...)` defines the
 * export's implementation. Statuses are cuDNN 9's everywhere inside; the
 * exports pass them through cudnn_status_out, which gives cuDNN 8's codes
 * when the facade was loaded as libcudnn.so.8.
 */
#ifndef CBL_CUDNN_INTERNAL_H
#define CBL_CUDNN_INTERNAL_H

#include "cudnn_impl.h"

#include <stdio.h>

#include "backend/backend_lib.h"
#include "backend/blas_elem.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"

#define CUDNN_LIB (&cbl_cudnn_library)

enum {
    CUDNN_MAGIC_HANDLE = 0x63624e48u,   /* "cbNH" */
    CUDNN_MAGIC_TENSOR = 0x63624e54u,
    CUDNN_MAGIC_FILTER = 0x63624e46u,
    CUDNN_MAGIC_CONV = 0x63624e43u,
    CUDNN_MAGIC_ACTIVATION = 0x63624e41u,
    CUDNN_MAGIC_POOLING = 0x63624e50u,
    CUDNN_MAGIC_LRN = 0x63624e4cu,
    CUDNN_MAGIC_OPTENSOR = 0x63624e4fu,
    CUDNN_MAGIC_REDUCE = 0x63624e52u,
    CUDNN_MAGIC_DROPOUT = 0x63624e44u,
    CUDNN_MAGIC_TRANSFORM = 0x63624e58u,
};

/* A cuDNN handle (cudnnHandle_t points here). */
struct cudnnContext {
    uint32_t magic;
    cb_context *ctx;           /* the context current at cudnnCreate */
    cudaStream_t stream;       /* NULL: the legacy default stream */
};

/* The contents of a tensor or filter descriptor. nd == 0: not set yet. */
typedef struct cudnn_tensor {
    cudnnDataType_t dtype;
    int nd;
    int64_t dim[CUDNN_DIM_MAX];
    int64_t stride[CUDNN_DIM_MAX];   /* elements */
    cudnnTensorFormat_t format;      /* as set (filters: their layout) */
} cudnn_tensor;

struct cudnnTensorStruct {
    uint32_t magic;
    cudnn_tensor t;
};

struct cudnnFilterStruct {
    uint32_t magic;
    cudnn_tensor t;                  /* K, C / groups, spatial...; strides from the format */
};

struct cudnnConvolutionStruct {
    uint32_t magic;
    int nsp;                         /* 0: not set */
    int pad[CB_DNN_MAX_SPATIAL], stride[CB_DNN_MAX_SPATIAL], dilation[CB_DNN_MAX_SPATIAL];
    cudnnConvolutionMode_t mode;
    cudnnDataType_t compute;
    cudnnMathType_t math;
    int groups;
    cudnnReorderType_t reorder;
};

struct cudnnActivationStruct {
    uint32_t magic;
    cudnnActivationMode_t mode;
    cudnnNanPropagation_t nan;
    double coef;                     /* clipped RELU's ceiling, ELU's alpha */
    double swish_beta;
};

/* ---- statuses, handles, checks (cudnn_handle.c) ------------------------ */

/* The status an export returns: cuDNN 8's code of st as libcudnn.so.8,
 * else st (the export machine's --status-filter). */
int cudnn_status_out(int status);
/* 1 when this copy of the facade is libcudnn.so.8 (set when it loads). */
extern int cudnn_v8;
/* The library's version: 8907 as libcudnn.so.8, else CUDNN_VERSION. */
size_t cudnn_version(void);
/* Records st as the thread's last error (cudnnGetLastErrorString) when it
 * is not success, with a message; returns st. */
cudnnStatus_t cudnn_fail(cudnnStatus_t st, const char *function, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* NOT_SUPPORTED for a mode cubridge lacks: logged, counted, traced. */
cudnnStatus_t cudnn_unsupported(const char *function, const char *why);

cudnnStatus_t cudnn_handle_check(cudnnHandle_t h);
/* 1 when h's device has a DNN library interface; else logs and 0. */
int cudnn_backend_ok(cudnnHandle_t h, const char *function);
cudnnStatus_t cudnn_status_of(CUresult r);

/* A tensor descriptor that is set (BAD_PARAM otherwise: NULL, not a
 * descriptor, never set). */
const cudnn_tensor *cudnn_tensor_of(cudnnTensorDescriptor_t d);
const cudnn_tensor *cudnn_filter_of(cudnnFilterDescriptor_t d);

/* ---- tensors (cudnn_tensor.c) ------------------------------------------ */

/* The element type's cb_blas_type, or -1 for types cubridge does not
 * compute with (the vectorised INT8x4, FP8, ...). */
int cudnn_blas_type(cudnnDataType_t t);
/* Bytes of one element (0 for an unknown type). */
size_t cudnn_type_size(cudnnDataType_t t);
/* Number of elements; bytes of the extent the strides reach (0 if unset). */
size_t cudnn_tensor_count(const cudnn_tensor *t);
size_t cudnn_tensor_extent(const cudnn_tensor *t);
/* Fills t (the validated contents) from dims and strides. */
cudnnStatus_t cudnn_tensor_set(cudnn_tensor *t, cudnnDataType_t type, int nd, const int64_t *dim,
                               const int64_t *stride, cudnnTensorFormat_t format);
/* Packed strides of nd dims in format NCHW or NHWC (channels last). */
void cudnn_packed_strides(int nd, const int64_t *dim, cudnnTensorFormat_t format, int64_t *stride);
/* The backend's view of t at device address addr. */
void cudnn_dnn_tensor(cb_dnn_tensor *out, const cudnn_tensor *t, const void *addr);
/* 1 when a and b have the same dims. */
int cudnn_same_dims(const cudnn_tensor *a, const cudnn_tensor *b);

/* ---- host staging of strided tensors (cudnn_op.c) ------------------------ */

typedef struct cudnn_op cudnn_op;

/* Reads every element of t (laid out from host base, as on the device) into
 * packed row-major doubles. */
void cudnn_gather(const cudnn_tensor *t, const void *base, double *out);
/* out = alpha * vals + beta * out for every element of t at host base,
 * rounded once to t's type; out not read when beta == 0. */
void cudnn_blend(const cudnn_tensor *t, void *base, const double *vals, double alpha, double beta);
/* Element e (logical, row-major) of t laid out from host base, found
 * through its strides (the references' way in). */
double cudnn_ref_load(const cudnn_tensor *t, const void *base, size_t e);
/* The packed index into src of element e of dst, where each of src's dims
 * equals dst's or is 1 (broadcast); src and dst of the same rank. */
size_t cudnn_broadcast_index(const cudnn_tensor *src, const cudnn_tensor *dst, size_t e);
/* How verify compares elements of type t (CB_ELEM_INT: *elem_bytes wide). */
cb_inspect_elem cudnn_cmp_of(cudnnDataType_t t, unsigned *elem_bytes);
/* 1 when every dim of src equals dst's or is 1 (and the ranks agree). */
int cudnn_broadcastable(const cudnn_tensor *src, const cudnn_tensor *dst);
/* Packed doubles of tensor i of o read from the device (worker); NULL on
 * failure. *host (may be NULL) receives the raw host copy, else freed. */
double *cudnn_op_values(cudnn_op *o, int i, void **host);
/* out (tensor i) = alpha * vals + beta * out on the device (worker). */
CUresult cudnn_op_store(cudnn_op *o, int i, const double *vals, double alpha, double beta);
/* The scaling factor at p: a float for every data type but double, whose
 * factors are double (cuDNN's rule). */
double cudnn_scalar(const void *p, cudnnDataType_t data_type);

/* ---- one computing call (cudnn_op.c) ------------------------------------- */

enum { CUDNN_MAX_OPERANDS = 32, CUDNN_MAX_TENSORS = 14 };

typedef struct cudnn_routine {
    /* Computes on the stream's worker (after the operands were checked). */
    CUresult (*run)(cudnn_op *o);
    /* Fills ops with the operands (device buffers read and written);
     * returns their count (at most CUDNN_MAX_OPERANDS). */
    int (*operands)(cudnn_op *o, cbl_operand *ops);
    /* The C reference on host copies (ops[i].before -> ops[i].ref). */
    void (*reference)(void *o, cbl_operand *ops);
} cudnn_routine;

struct cudnn_op {
    cbl_op base;
    const cudnn_routine *r;
    const char *function;             /* the export's name (static) */
    char note[160];
    cb_dnn_conv conv;                 /* convolutions */
    cudnn_tensor t[CUDNN_MAX_TENSORS];
    uint64_t addr[CUDNN_MAX_TENSORS]; /* device addresses of t[i]'s data */
    double alpha, beta, alpha2;
    double param[8];                  /* per routine: epsilon, factors, coefficients */
    int mode[8];                      /* per routine: modes, algorithms */
    int in_graph;                     /* submitted into a capture: strict drift fails the replay */
    void *extra;                      /* per routine, freed at release */
    void (*extra_release)(void *);
};

cudnn_op *cudnn_op_new(const cudnn_routine *r, const char *function);
/* Submits o on h's stream (taking it over) and returns the call's status:
 * at once for an asynchronous call, after the run in verify mode. */
cudnnStatus_t cudnn_op_submit(cudnnHandle_t h, cudnn_op *o);
/* The same, always waiting for the run (queries that time a call). */
cudnnStatus_t cudnn_op_submit_wait(cudnnHandle_t h, cudnn_op *o);
/* Host copy of operand i's device extent (worker): malloc'd, NULL when the
 * copy failed. */
void *cudnn_op_read(cudnn_op *o, int i);
/* Writes host copy back to operand i's device extent (worker). */
CUresult cudnn_op_write(cudnn_op *o, int i, const void *host);
/* An operand for tensor i of o (cmp type from its data type). */
cbl_operand cudnn_operand(cudnn_op *o, int i, const char *name, int out);

/* sqrt(terms), the tolerance scale of sums of many terms. */
double cudnn_sum_scale(double terms);

#endif
