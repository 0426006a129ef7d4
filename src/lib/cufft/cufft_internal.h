/* cufft_internal.h: what the files of the libcufft facade share (docs/cufft.md).
 *
 * A cufftHandle is an index into one process-wide table of plan objects
 * (cufft_plan.c; the table and its lock are the facade's only global state).
 * A plan object is reference-counted: an execution queued on a stream keeps
 * its plan alive after cufftDestroy.
 */
#ifndef CB_CUFFT_INTERNAL_H
#define CB_CUFFT_INTERNAL_H

#include <cufft.h>
#include <cufftXt.h>
#include <pthread.h>

#include "cufft_impl.h"
#include "lib/common/check.h"
#include "lib/common/facade.h"
#include "lib/cufft/fft_layout.h"

extern cbl_library cbl_cufft_library;
#define CUFFT_LIB (&cbl_cufft_library)

typedef struct cufft_planobj {
    _Atomic int refs;
    int made;                  /* a plan was made (cufftMakePlan*, cufftPlan*) */
    fftl_desc desc;
    fftl_plan *fp;
    int xt;                    /* made by cufftXtMakePlanMany: executed by cufftXtExec only */
    CUstream stream;
    void *work_area;
    int auto_allocation;
    long long property[3];     /* cufftSetPlanPropertyInt64, by cufftProperty */
    /* host buffers of the last execution, reused by the next one (cufft_exec.c);
     * an execution that finds them busy allocates its own */
    pthread_mutex_t buffer_lock;
    void *buffer;
    size_t buffer_bytes;
} cufft_planobj;

/* The plan of handle h with a reference, or NULL (CUFFT_INVALID_PLAN). */
cufft_planobj *cufft_plan_get(cufftHandle h);
void cufft_plan_put(cufft_planobj *p);

/* Runs plan p on the plan's stream (cufft_exec.c). */
cufftResult cufft_execute(cufft_planobj *p, const char *function, void *in, void *out, int sign);

#endif
