/* curand_api.c: the libcurand facade (docs/curand.md).
 *
 * A curandGenerator_t is a rand_gen (rand_gen.c: settings, statuses, NVIDIA's
 * layouts and formulas) with the generator's stream and a lock. A generate
 * call computes its outputs on the calling thread, in call order, into a host
 * buffer; a device generator then writes them to device memory as a stream
 * operation on the generator's stream (curandSetStream), in order with the
 * stream's kernels and copies, or captured into a graph. Host generators
 * (curandCreateGeneratorHost) write host memory directly, as cuRAND's do.
 */
#include <curand.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "curand_impl.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"
#include "lib/curand/rand_gen.h"

extern cbl_library cbl_curand_library;

struct curandGenerator_st {
    pthread_mutex_t lock;
    rand_gen *g;
    int host;                  /* curandCreateGeneratorHost */
    CUstream stream;
};

static curandStatus_t create(curandGenerator_t *generator, curandRngType_t rng_type, int host)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    rand_gen *g;
    int st = rand_gen_create(&g, (int)rng_type);
    if (st == RAND_STATUS_UNSUPPORTED)
        return (curandStatus_t)cbl_unsupported_mode(&cbl_curand_library, host ? "curandCreateGeneratorHost" : "curandCreateGenerator",
                                                    "this generator type is not implemented yet");
    if (st != CURAND_STATUS_SUCCESS)
        return (curandStatus_t)st;
    curandGenerator_t G = calloc(1, sizeof *G);
    if (!G) {
        rand_gen_destroy(g);
        return CURAND_STATUS_ALLOCATION_FAILED;
    }
    pthread_mutex_init(&G->lock, NULL);
    G->g = g;
    G->host = host;
    *generator = G;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandCreateGenerator(curandGenerator_t *generator, curandRngType_t rng_type)
{
    if (!cbl_services())
        return CURAND_STATUS_INITIALIZATION_FAILED;
    return create(generator, rng_type, 0);
}

curandStatus_t curandCreateGeneratorHost(curandGenerator_t *generator, curandRngType_t rng_type)
{
    return create(generator, rng_type, 1);
}

curandStatus_t curandDestroyGenerator(curandGenerator_t generator)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    rand_gen_destroy(generator->g);
    pthread_mutex_destroy(&generator->lock);
    free(generator);
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetVersion(int *version)
{
    if (!version)
        return CURAND_STATUS_OUT_OF_RANGE;
    *version = CURAND_VERSION;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGetProperty(libraryPropertyType type, int *value)
{
    if (!value)
        return CURAND_STATUS_OUT_OF_RANGE;
    switch (type) {
    case MAJOR_VERSION: *value = CURAND_VER_MAJOR; return CURAND_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CURAND_VER_MINOR; return CURAND_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CURAND_VER_PATCH; return CURAND_STATUS_SUCCESS;
    }
    return CURAND_STATUS_OUT_OF_RANGE;   /* measured on the H200 */
}

curandStatus_t curandSetStream(curandGenerator_t generator, cudaStream_t stream)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&generator->lock);
    generator->stream = (CUstream)stream;
    pthread_mutex_unlock(&generator->lock);
    return CURAND_STATUS_SUCCESS;
}

#define SETTER(call)                                       \
    if (!generator)                                        \
        return CURAND_STATUS_NOT_INITIALIZED;              \
    pthread_mutex_lock(&generator->lock);                  \
    int st = (call);                                       \
    pthread_mutex_unlock(&generator->lock);                \
    return (curandStatus_t)st

curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t generator, unsigned long long seed)
{
    SETTER(rand_gen_set_seed(generator->g, seed));
}

curandStatus_t curandSetGeneratorOffset(curandGenerator_t generator, unsigned long long offset)
{
    SETTER(rand_gen_set_offset(generator->g, offset));
}

curandStatus_t curandSetGeneratorOrdering(curandGenerator_t generator, curandOrdering_t order)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&generator->lock);
    int st = rand_gen_set_ordering(generator->g, (int)order);
    pthread_mutex_unlock(&generator->lock);
    if (st == RAND_STATUS_UNSUPPORTED)
        cbl_unsupported_mode(&cbl_curand_library, "curandSetGeneratorOrdering", "this ordering is not implemented yet");
    return (curandStatus_t)st;
}

curandStatus_t curandSetQuasiRandomGeneratorDimensions(curandGenerator_t generator, unsigned int num_dimensions)
{
    SETTER(rand_gen_set_dimensions(generator->g, num_dimensions));
}

curandStatus_t curandGenerateSeeds(curandGenerator_t generator)
{
    if (!generator)
        return CURAND_STATUS_NOT_INITIALIZED;
    return CURAND_STATUS_SUCCESS;   /* the engines are set up on first use */
}

/* ---- generation ------------------------------------------------------------ */

typedef struct curand_op {
    cbl_op base;
    const char *function;
    uint64_t dst;
    void *data;
    size_t bytes;
    cb_inspect_elem cmp;
} curand_op;

static void op_release(cb_lib_op *lop)
{
    curand_op *o = (curand_op *)lop;
    free(o->data);
    free(o);
}

/* verify: the values were computed on the host already; the reference is the
 * same computation, so the check confirms that they reached device memory whole */
static void reference(void *ctx, cbl_operand *ops)
{
    curand_op *o = ctx;
    memcpy(ops[0].ref, o->data, o->bytes);
}

static CUresult op_run(cb_lib_op *lop)
{
    curand_op *o = (curand_op *)lop;
    o->base.ran = 1;
    o->base.status = CURAND_STATUS_SUCCESS;
    cbl_operand op = {.name = "outputPtr", .addr = o->dst, .bytes = o->bytes, .out = 1, .cmp = o->cmp,
                      .elem_bytes = o->cmp == CB_ELEM_INT ? 4 : 0};
    cbl_checked c = {.op = &o->base, .library = "curand", .function = o->function, .ops = &op, .nops = 1};
    snprintf(c.note, sizeof c.note, "%zu bytes", o->bytes);
    CUresult r = cbl_check_begin(&c);
    if (r != CUDA_SUCCESS) {
        o->base.status = CURAND_STATUS_LAUNCH_FAILURE;
        return r;
    }
    r = cbl_write(&o->base, o->dst, o->data, o->bytes);
    if (r != CUDA_SUCCESS) {
        cbl_check_abandon(&c);
        o->base.status = CURAND_STATUS_LAUNCH_FAILURE;
        return r;
    }
    cbl_check_end(&c, reference, o);
    return CUDA_SUCCESS;
}

static curandStatus_t generate(curandGenerator_t G, const char *function, rand_fn fn, void *out, size_t n, double a,
                               double b)
{
    if (!G)
        return CURAND_STATUS_NOT_INITIALIZED;
    pthread_mutex_lock(&G->lock);
    int st = rand_gen_check(G->g, fn, n, a, b);
    if (st != CURAND_STATUS_SUCCESS || n == 0) {
        pthread_mutex_unlock(&G->lock);
        return (curandStatus_t)st;
    }
    size_t bytes = n * rand_fn_size(fn);
    if (G->host) {
        st = rand_gen_generate(G->g, fn, out, n, a, b);
        pthread_mutex_unlock(&G->lock);
        if (st == RAND_STATUS_UNSUPPORTED)
            cbl_unsupported_mode(&cbl_curand_library, function, "this distribution of this generator is not implemented yet");
        return (curandStatus_t)st;
    }
    void *data = malloc(bytes);
    if (!data) {
        pthread_mutex_unlock(&G->lock);
        return CURAND_STATUS_ALLOCATION_FAILED;
    }
    st = rand_gen_generate(G->g, fn, data, n, a, b);
    CUstream stream = G->stream;
    pthread_mutex_unlock(&G->lock);
    if (st != CURAND_STATUS_SUCCESS) {
        free(data);
        if (st == RAND_STATUS_UNSUPPORTED)
            cbl_unsupported_mode(&cbl_curand_library, function, "this distribution of this generator is not implemented yet");
        return (curandStatus_t)st;
    }
    const cb_lib_services *sv = cbl_services();
    cb_context *ctx;
    if (!sv || sv->context(&ctx) != CUDA_SUCCESS) {
        free(data);
        return CURAND_STATUS_INITIALIZATION_FAILED;
    }
    curand_op *o = calloc(1, sizeof *o);
    if (!o) {
        free(data);
        return CURAND_STATUS_ALLOCATION_FAILED;
    }
    o->function = function;
    o->dst = (uint64_t)(uintptr_t)out;
    o->data = data;
    o->bytes = bytes;
    o->cmp = fn == RAND_RAW32 || fn == RAND_RAW64 || fn == RAND_POISSON ? CB_ELEM_INT
             : rand_fn_size(fn) == 8                                    ? CB_ELEM_F64
                                                                        : CB_ELEM_F32;
    o->base.base.run = op_run;
    o->base.base.release = op_release;
    o->base.base.name = function;
    int wait = (cbl_trace_flags & CB_INSPECT_VERIFY) != 0, captured = 0, status = 0;
    CUresult r = cbl_submit(ctx, stream, &o->base, wait, &captured, &status);
    if (r != CUDA_SUCCESS)
        return CURAND_STATUS_LAUNCH_FAILURE;
    if (wait && !captured && status > 0)
        return (curandStatus_t)status;
    return CURAND_STATUS_SUCCESS;
}

curandStatus_t curandGenerate(curandGenerator_t generator, unsigned int *outputPtr, size_t num)
{
    return generate(generator, "curandGenerate", RAND_RAW32, outputPtr, num, 0, 0);
}

curandStatus_t curandGenerateLongLong(curandGenerator_t generator, unsigned long long *outputPtr, size_t num)
{
    return generate(generator, "curandGenerateLongLong", RAND_RAW64, outputPtr, num, 0, 0);
}

curandStatus_t curandGenerateUniform(curandGenerator_t generator, float *outputPtr, size_t num)
{
    return generate(generator, "curandGenerateUniform", RAND_UNIFORM, outputPtr, num, 0, 0);
}

curandStatus_t curandGenerateUniformDouble(curandGenerator_t generator, double *outputPtr, size_t num)
{
    return generate(generator, "curandGenerateUniformDouble", RAND_UNIFORM_D, outputPtr, num, 0, 0);
}

curandStatus_t curandGenerateNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean, float stddev)
{
    return generate(generator, "curandGenerateNormal", RAND_NORMAL, outputPtr, n, mean, stddev);
}

curandStatus_t curandGenerateNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                          double stddev)
{
    return generate(generator, "curandGenerateNormalDouble", RAND_NORMAL_D, outputPtr, n, mean, stddev);
}

curandStatus_t curandGenerateLogNormal(curandGenerator_t generator, float *outputPtr, size_t n, float mean,
                                       float stddev)
{
    return generate(generator, "curandGenerateLogNormal", RAND_LOGNORMAL, outputPtr, n, mean, stddev);
}

curandStatus_t curandGenerateLogNormalDouble(curandGenerator_t generator, double *outputPtr, size_t n, double mean,
                                             double stddev)
{
    return generate(generator, "curandGenerateLogNormalDouble", RAND_LOGNORMAL_D, outputPtr, n, mean, stddev);
}

curandStatus_t curandGeneratePoisson(curandGenerator_t generator, unsigned int *outputPtr, size_t n, double lambda)
{
    return generate(generator, "curandGeneratePoisson", RAND_POISSON, outputPtr, n, lambda, 0);
}
