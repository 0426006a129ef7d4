/* opencl_backend.c: the "opencl" device backend (backend.h): a device of
 * the system's OpenCL ICD loader, running the OpenCL C dialect
 * (src/codegen/opencl/). docs/opencl.md says how to use it and what works.
 *
 * Memory: the device's memory is one heap of CUBRIDGE_OPENCL_HEAP_MB
 * (default 1024, capped by the device's largest allocation), in one of two
 * modes (CUBRIDGE_OPENCL_MEMORY=svm|heap; the default is svm where the
 * device and the loader have shared virtual memory, else heap):
 *   - svm: the heap is one allocation of coarse-grained buffer SVM
 *     (fine-grained where the device has it and its memory is the host's: a
 *     CPU device, or CL_DEVICE_HOST_UNIFIED_MEMORY), so a device address is
 *     a real pointer, the same in the host and in kernels (CB_SVM: CB_GP is a
 *     cast, CB_HEAP_BASE the kernel's own heap argument). With fine-grained
 *     SVM the host reaches it directly: managed memory (CB_ALLOC_UNIFIED).
 *     The library code keeps its cl_mem view: a buffer over the same SVM
 *     (CL_MEM_USE_HOST_PTR) and the heap its sub-buffer from the first
 *     256-byte boundary (CUDA's alignment; clSVMAlloc gives at most 128 on
 *     PoCL), so CLBlast and our own kernels take offsets.
 *   - heap: a cl_mem (an OpenCL 1.2 device or loader; NVIDIA's 3.0 driver
 *     has coarse-grained SVM). Device addresses are CB_HEAP_BASE + offset;
 *     CB_HEAP_BASE is the start of an address-space reservation in this
 *     process (the heap's size, never backed), so no other device and no
 *     host allocation can hand out the same addresses.
 * In both modes an 8 GiB reservation (never backed) holds the generic
 * windows: 4 GiB of shared memory, then 4 GiB of the work-item's stack
 * (.local memory in units that convert .local addresses); in heap mode it
 * directly follows the heap's range. After the launch status (256 bytes) the
 * heap holds the printf FIFO (printf_fifo.c). Kernels receive the heap and
 * reach byte a - CB_HEAP_BASE, so pointers stored in memory and pointer
 * arithmetic work unchanged. Allocation is first fit over the offsets
 * (heap.c).
 *
 * Every entry point is synchronous, as the vtable says: the core's streams
 * order the work; the backend has one in-order queue and waits for each
 * command. Module load builds the translation with clBuildProgram after a
 * text that defines the heap's and the globals' addresses, or takes the
 * program's binary from the compile cache (program_cache.c); a launch passes
 * (heap, the .param buffer by value, __local shared memory, dynamic bytes).
 * The heap's addresses are the same in every run where they can be
 * (heap_reserve), so the same program's text, and its cache key, are too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/opencl/opencl_backend.h"
#include "backend/opencl/opencl_internal.h"
#include "backend/opencl/opencl_lib.h"
#include "platform/thread.h"
#include "platform/vm.h"

#define WINDOW_BYTES (1ull << 32)   /* each generic window: shared memory, then the work-item's stack */

typedef struct ocl_kernel {
    cl_kernel k;
    cb_mutex lock;          /* clSetKernelArg + enqueue are one step per kernel object */
    uint32_t words;         /* the .param struct, in ulongs */
    uint32_t dsm;           /* where dynamic shared memory starts */
    uint32_t scratch;       /* local bytes per work-item of its warp collectives, after the dynamic part */
} ocl_kernel;

typedef struct ocl_module {
    cl_program prog;
    int has_status;         /* its code may write the launch status (trap, assert) */
    int has_printf;         /* its code may write printf records (printf_fifo.c) */
    uint32_t nkernels;
    ocl_kernel *kernels;
} ocl_module;

typedef struct ocl_backend {
    cb_backend base;
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    cl_mem heap;            /* heap mode: the heap; svm mode: svm_mem's sub-buffer from heap_base */
    void *svm;              /* svm mode: the heap's SVM allocation, else NULL */
    cl_mem svm_mem;         /* svm mode: a buffer over all of it; heap is its sub-buffer from heap_base */
    int svm_fine;           /* it is fine-grained: the host may touch it (managed memory) */
    void *reservation;      /* heap mode: the heap's range, then the windows; svm mode: the windows */
    size_t reservation_bytes;
    uint64_t heap_base;
    uint64_t windows;       /* CB_SHARED_WIN; CB_LOCAL_WIN 4 GiB above */
    uint64_t printf_off;    /* the printf FIFO (OCL_PRINTF_FIFO bytes) */
    cb_mutex printf_lock;   /* one launch that may printf at a time: its records, its flush */
    ocl_heap alloc;         /* heap.c */
    cb_device_info info;
    size_t max_wg;
    int sg32;               /* 32-wide sub-groups synchronise warp collectives (CB_SG32; warp.c) */
    int nvidia;             /* NVIDIA's OpenCL: inline PTX (CB_NV_ASM): warp collectives
                             * (codegen/opencl/warp.c) and global float adds (prelude.c) */
    char options[1024];     /* clBuildProgram's options */
    ocl_program_cache cache; /* program binaries (program_cache.c) */
} ocl_backend;

static ocl_backend *self_of(cb_backend *b) { return (ocl_backend *)b; }

/* ---- facts and memory ---------------------------------------------------------------- */

static void ocl_device_info(cb_backend *b, cb_device_info *out) { *out = self_of(b)->info; }

static CUresult ocl_mem_alloc(cb_backend *b, size_t bytes, unsigned flags, cb_device_mem *out)
{
    ocl_backend *s = self_of(b);
    if ((flags & CB_ALLOC_UNIFIED) && !s->svm_fine)   /* the host sees only fine-grained SVM */
        return CUDA_ERROR_NOT_SUPPORTED;
    uint64_t off;
    if (ocl_heap_alloc(&s->alloc, bytes, &off) < 0)
        return CUDA_ERROR_OUT_OF_MEMORY;
    memset(out, 0, sizeof *out);
    out->addr = s->heap_base + off;
    out->bytes = bytes;
    out->host = s->svm_fine ? (void *)(uintptr_t)out->addr : NULL;
    out->token[0] = off;
    return CUDA_SUCCESS;
}

static void ocl_mem_free(cb_backend *b, const cb_device_mem *mem)
{
    ocl_heap_free(&self_of(b)->alloc, mem->token[0]);
}

static void ocl_mem_usage(cb_backend *b, cb_mem_stats *out)
{
    ocl_backend *s = self_of(b);
    ocl_heap_usage(&s->alloc, &out->used, &out->peak);
    out->total = s->alloc.size;
}

static int ocl_mem_owns(cb_backend *b, uint64_t addr)
{
    ocl_backend *s = self_of(b);
    return addr - s->heap_base < s->alloc.size;
}

/* The heap offset of [addr, addr + bytes), or -1 when it is not inside the heap. */
static int64_t heap_offset(ocl_backend *s, uint64_t addr, size_t bytes)
{
    uint64_t off = addr - s->heap_base;
    if (off >= s->alloc.size || bytes > s->alloc.size - off)
        return -1;
    return (int64_t)off;
}

static CUresult cl_result(cl_int e)
{
    switch (e) {
    case CL_SUCCESS: return CUDA_SUCCESS;
    case CL_OUT_OF_RESOURCES: return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE:
    case CL_OUT_OF_HOST_MEMORY: return CUDA_ERROR_OUT_OF_MEMORY;
    case CL_INVALID_WORK_GROUP_SIZE:
    case CL_INVALID_WORK_ITEM_SIZE:
    case CL_INVALID_GLOBAL_WORK_SIZE: return CUDA_ERROR_INVALID_VALUE;
    default: return CUDA_ERROR_LAUNCH_FAILED;
    }
}

/* Waits for ev and releases it; the command's status as a CUresult. */
static CUresult wait_event(cl_event ev)
{
    cl_int st = clWaitForEvents(1, &ev);
    cl_int exec = CL_COMPLETE;
    if (st == CL_SUCCESS)
        clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof exec, &exec, NULL);
    clReleaseEvent(ev);
    if (st != CL_SUCCESS)
        return cl_result(st);
    return exec < 0 ? CUDA_ERROR_LAUNCH_FAILED : CUDA_SUCCESS;
}

static CUresult ocl_copy_htod(cb_backend *b, uint64_t dst, const void *src, size_t bytes)
{
    ocl_backend *s = self_of(b);
    int64_t off = heap_offset(s, dst, bytes);
    if (off < 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!bytes)
        return CUDA_SUCCESS;
    return cl_result(clEnqueueWriteBuffer(s->q, s->heap, CL_TRUE, (size_t)off, bytes, src, 0, NULL, NULL));
}

static CUresult ocl_copy_dtoh(cb_backend *b, void *dst, uint64_t src, size_t bytes)
{
    ocl_backend *s = self_of(b);
    int64_t off = heap_offset(s, src, bytes);
    if (off < 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!bytes)
        return CUDA_SUCCESS;
    return cl_result(clEnqueueReadBuffer(s->q, s->heap, CL_TRUE, (size_t)off, bytes, dst, 0, NULL, NULL));
}

static CUresult ocl_copy_dtod(cb_backend *b, uint64_t dst, uint64_t src, size_t bytes)
{
    ocl_backend *s = self_of(b);
    int64_t d = heap_offset(s, dst, bytes), o = heap_offset(s, src, bytes);
    if (d < 0 || o < 0)
        return CUDA_ERROR_INVALID_VALUE;
    if (!bytes || d == o)
        return CUDA_SUCCESS;
    if ((uint64_t)(d > o ? d - o : o - d) < bytes) {   /* overlapping: OpenCL refuses, stage on the host */
        void *tmp = malloc(bytes);
        if (!tmp)
            return CUDA_ERROR_OUT_OF_MEMORY;
        CUresult r = ocl_copy_dtoh(b, tmp, src, bytes);
        if (r == CUDA_SUCCESS)
            r = ocl_copy_htod(b, dst, tmp, bytes);
        free(tmp);
        return r;
    }
    cl_event ev;
    cl_int e = clEnqueueCopyBuffer(s->q, s->heap, s->heap, (size_t)o, (size_t)d, bytes, 0, NULL, &ev);
    return e != CL_SUCCESS ? cl_result(e) : wait_event(ev);
}

static CUresult ocl_memset(cb_backend *b, uint64_t dst, uint32_t value, size_t elem_size, size_t count)
{
    ocl_backend *s = self_of(b);
    if (elem_size != 1 && elem_size != 2 && elem_size != 4)
        return CUDA_ERROR_INVALID_VALUE;
    int64_t off = heap_offset(s, dst, elem_size * count);
    if (off < 0 || (uint64_t)off % elem_size)
        return CUDA_ERROR_INVALID_VALUE;
    if (!count)
        return CUDA_SUCCESS;
    unsigned char pat[4];
    for (size_t i = 0; i < elem_size; i++)
        pat[i] = (unsigned char)(value >> (8 * i));
    cl_event ev;
    cl_int e = clEnqueueFillBuffer(s->q, s->heap, pat, elem_size, (size_t)off, elem_size * count, 0, NULL, &ev);
    return e != CL_SUCCESS ? cl_result(e) : wait_event(ev);
}

/* ---- modules ------------------------------------------------------------------------ */

static void module_free(ocl_module *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (m->kernels[i].k) {
            clReleaseKernel(m->kernels[i].k);
            cb_mutex_destroy(&m->kernels[i].lock);
        }
    free(m->kernels);
    if (m->prog)
        clReleaseProgram(m->prog);
    free(m);
}

static void ocl_module_unload(cb_backend *b, void *module)
{
    (void)b;
    module_free(module);
}

/* Writes the address initialisers (cb_reloc_info) into the globals' device memory. */
static CUresult apply_relocs(cb_backend *b, const cb_translation *tr, const uint64_t *ga, char *err, size_t errlen)
{
    for (uint32_t i = 0; i < tr->nrelocs; i++) {
        const cb_reloc_info *r = &tr->relocs[i];
        if (r->kind != CB_RELOC_GLOBAL) {
            snprintf(err, errlen, "the OpenCL backend has no function addresses (a .global initialised with one)");
            return CUDA_ERROR_NOT_SUPPORTED;
        }
        uint64_t v = ga[r->target] + (uint64_t)r->addend;
        unsigned char le[8];
        for (int k = 0; k < 8; k++)
            le[k] = (unsigned char)(v >> (8 * k));
        CUresult res = ocl_copy_htod(b, ga[r->global] + r->offset, le, 8);
        if (res != CUDA_SUCCESS)
            return res;
    }
    return CUDA_SUCCESS;
}

/* The text before the unit: the addresses the generated code names (unit.c). */
static char *module_header(ocl_backend *s, const cb_translation *tr, const uint64_t *ga)
{
    size_t cap = 512 + 48 * (size_t)tr->nglobals;
    char *h = malloc(cap);
    if (!h)
        return NULL;
    /* svm mode: the heap's address is this run's, so the text names it as the kernel's heap argument and
     * the globals by their offsets: the same text, and cache key, in every run */
    size_t n = s->svm ? (size_t)snprintf(h, cap, "#define CB_SVM 1\n#define CB_HEAP_BASE ((ulong)cb_heap)\n")
                      : (size_t)snprintf(h, cap, "#define CB_HEAP_BASE 0x%llxul\n", (unsigned long long)s->heap_base);
    n += (size_t)snprintf(h + n, cap - n, "#define CB_HEAP_SIZE 0x%llxul\n"
                                          "#define CB_SHARED_WIN 0x%llxul\n#define CB_LOCAL_WIN 0x%llxul\n"
                                          "#define CB_PRINTF_CTR %uu\n#define CB_PRINTF_OFF 0x%llxu\n#define CB_PRINTF_CAP %uu\n",
                          (unsigned long long)s->alloc.size, (unsigned long long)s->windows,
                          (unsigned long long)(s->windows + WINDOW_BYTES), OCL_PRINTF_CTR,
                          (unsigned long long)s->printf_off, OCL_PRINTF_FIFO);
    for (uint32_t i = 0; i < tr->nglobals; i++)
        n += s->svm ? (size_t)snprintf(h + n, cap - n, "#define CB_G%u (CB_HEAP_BASE + 0x%llxul)\n", i,
                                       (unsigned long long)(ga[i] - s->heap_base))
                    : (size_t)snprintf(h + n, cap - n, "#define CB_G%u 0x%llxul\n", i, (unsigned long long)ga[i]);
    if (s->nvidia)
        n += (size_t)snprintf(h + n, cap - n, "#define CB_NV_ASM 1\n");
    else if (s->sg32)
        n += (size_t)snprintf(h + n, cap - n, "#define CB_SG32 1\n");
    return h;
}

static CUresult build_failed(ocl_backend *s, cl_program prog, cl_int e, char *err, size_t errlen)
{
    size_t len = 0;
    clGetProgramBuildInfo(prog, s->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
    char *log = malloc(len + 1);
    if (log && clGetProgramBuildInfo(prog, s->dev, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS)
        log[len] = 0;
    else if (log)
        log[0] = 0;
    snprintf(err, errlen, "clBuildProgram failed (%d): %s", (int)e, log ? log : "");
    if (getenv("CUBRIDGE_OPENCL_LOG"))
        fprintf(stderr, "cubridge: opencl: build log:\n%s\n", log ? log : "");
    free(log);
    return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult ocl_module_load(cb_backend *b, const cb_translation *tr, const uint64_t *global_addrs,
                                void **module_out, char *err, size_t errlen)
{
    ocl_backend *s = self_of(b);
    *module_out = NULL;
    if (tr->dialect != CB_DIALECT_OPENCL) {
        snprintf(err, errlen, "the OpenCL backend takes the OpenCL dialect");
        return CUDA_ERROR_INVALID_IMAGE;
    }
    CUresult r = apply_relocs(b, tr, global_addrs, err, errlen);
    if (r != CUDA_SUCCESS)
        return r;
    char *hdr = module_header(s, tr, global_addrs);
    ocl_module *m = calloc(1, sizeof *m);
    if (!hdr || !m) {
        free(hdr);
        free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    const char *texts[2] = {hdr, tr->source};
    size_t lens[2] = {strlen(hdr), tr->source_len ? tr->source_len : strlen(tr->source)};
    if (getenv("CUBRIDGE_OPENCL_DUMP"))
        fprintf(stderr, "cubridge: opencl: source:\n%s\n", tr->source);
    cl_int e = ocl_program_build(&s->cache, s->ctx, s->dev, 2, texts, lens, &m->prog);
    free(hdr);
    if (e != CL_SUCCESS && !m->prog) {
        module_free(m);
        snprintf(err, errlen, "clCreateProgramWithSource failed (%d)", (int)e);
        return cl_result(e);
    }
    if (e != CL_SUCCESS) {
        r = build_failed(s, m->prog, e, err, errlen);
        module_free(m);
        return r;
    }
    m->has_status = strstr(tr->source, "cb_trap(cb_heap") || strstr(tr->source, "cb_assert(cb_heap") ||
                    strstr(tr->source, ")cb_atom_local(cb_heap)");
    m->has_printf = strstr(tr->source, "cb_vprintf(cb_heap, cb_smem, cb_stk, *(") != NULL;   /* a call site */
    for (uint32_t i = 0; i < tr->nkernels; i++)
        m->has_status |= tr->kernels[i].warp_scratch != 0;   /* warp collectives check their masks (status 3) */
    m->kernels = calloc(tr->nkernels ? tr->nkernels : 1, sizeof *m->kernels);
    if (!m->kernels) {
        module_free(m);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    for (uint32_t i = 0; i < tr->nkernels; i++) {
        ocl_kernel *k = &m->kernels[i];
        m->nkernels = i + 1;
        if (tr->kernels[i].refused)   /* not in the program: the core answers NOT_SUPPORTED for it */
            continue;
        k->k = clCreateKernel(m->prog, tr->kernels[i].symbol, &e);
        if (e != CL_SUCCESS) {
            k->k = NULL;
            module_free(m);
            snprintf(err, errlen, "clCreateKernel(%s) failed (%d)", tr->kernels[i].name, (int)e);
            return cl_result(e);
        }
        cb_mutex_init(&k->lock);
        k->words = (tr->kernels[i].param_bytes + 7) / 8;
        if (!k->words)
            k->words = 1;
        k->dsm = (tr->kernels[i].static_smem + 15u) & ~15u;
        k->scratch = tr->kernels[i].warp_scratch;
    }
    *module_out = m;
    return CUDA_SUCCESS;
}

/* A NUL-terminated string at device address a, at most n - 1 bytes. */
static void device_string(ocl_backend *s, uint64_t a, char *out, size_t n)
{
    out[0] = 0;
    uint64_t off = a - s->heap_base;
    if (off >= s->alloc.size)
        return;
    size_t len = s->alloc.size - off < n - 1 ? (size_t)(s->alloc.size - off) : n - 1;
    if (ocl_copy_dtoh(&s->base, out, a, len) != CUDA_SUCCESS)
        len = 0;
    out[len] = 0;
}

/* The launch status (prelude.c: trap, assert) after a launch: the error it
 * says, and clears it for the next launch. */
static CUresult launch_status(ocl_backend *s, cb_launch_error *err)
{
    uint32_t st[16];
    if (ocl_copy_dtoh(&s->base, st, s->heap_base, sizeof st) != CUDA_SUCCESS)
        return CUDA_ERROR_LAUNCH_FAILED;
    if (st[0] == 0)
        return CUDA_SUCCESS;
    uint32_t zero[16] = {0};
    ocl_copy_htod(&s->base, s->heap_base, zero, sizeof zero);
    if (st[0] == 1) {
        err->result = CUDA_ERROR_LAUNCH_FAILED;
        snprintf(err->message, sizeof err->message, "trap instruction executed (block [%u,%u,%u], thread [%u,%u,%u])",
                 st[1], st[2], st[3], st[4], st[5], st[6]);
        return err->result;
    }
    if (st[0] == 3) {   /* codegen/opencl/warp.c: cb_wfail */
        static const char *const kinds[] = {"?", "shfl.sync", "vote.sync", "match.sync", "redux.sync", "elect.sync",
                                            "bar.warp.sync"};
        if (st[8] == 7) {   /* CB_SG32: the device's sub-groups are not the block's warps */
            err->result = CUDA_ERROR_LAUNCH_FAILED;
            snprintf(err->message, sizeof err->message,
                     "a warp collective (block [%u,%u,%u], thread [%u,%u,%u]): the device's 32-wide sub-groups are not "
                     "the block's warps of 32 consecutive threads; CUBRIDGE_OPENCL_SUBGROUPS=0 avoids them",
                     st[1], st[2], st[3], st[4], st[5], st[6]);
            return err->result;
        }
        err->result = CUDA_ERROR_LAUNCH_FAILED;
        snprintf(err->message, sizeof err->message,
                 "%s with mask 0x%08x (block [%u,%u,%u], thread [%u,%u,%u]): the calling lane is not in its mask, "
                 "or lanes it names passed another mask and never join it (the CPU backend reports the same "
                 "collective as waiting for them)",
                 kinds[st[8] < 7 ? st[8] : 0], st[7], st[1], st[2], st[3], st[4], st[5], st[6]);
        return err->result;
    }
    if (st[0] == 4) {   /* codegen/opencl/memory.c: a generic atomic reached the work-item's stack */
        err->result = CUDA_ERROR_LAUNCH_FAILED;
        snprintf(err->message, sizeof err->message,
                 "an atomic on a generic address of local memory (block [%u,%u,%u], thread [%u,%u,%u]): the OpenCL "
                 "backend keeps local memory in private memory, which has no atomics",
                 st[1], st[2], st[3], st[4], st[5], st[6]);
        return err->result;
    }
    uint64_t w[3];
    memcpy(w, &st[8], sizeof w);
    char msg[256], file[256], fn[256];
    device_string(s, w[0], msg, sizeof msg);
    device_string(s, w[1], file, sizeof file);
    device_string(s, w[2], fn, sizeof fn);
    fprintf(stderr, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file, st[7], fn,
            st[1], st[2], st[3], st[4], st[5], st[6], msg);
    err->result = CUDA_ERROR_ASSERT;
    snprintf(err->message, sizeof err->message, "device-side assertion `%.200s` failed at %.200s:%u", msg, file, st[7]);
    return err->result;
}

static CUresult launch_one(cb_backend *b, void *module, uint32_t kernel, const cb_launch_config *cfg,
                           cb_launch_error *err)
{
    ocl_backend *s = self_of(b);
    ocl_module *m = module;
    if (kernel >= m->nkernels) {
        err->result = CUDA_ERROR_INVALID_HANDLE;
        return err->result;
    }
    /* cooperative launches run as any other: the dialect refuses grid-wide sync, the one thing
     * that needs every block resident */
    ocl_kernel *k = &m->kernels[kernel];
    if (!k->k) {   /* refused by the dialect (cb_kernel_info.refused) */
        err->result = CUDA_ERROR_NOT_SUPPORTED;
        snprintf(err->message, sizeof err->message, "this kernel is not supported on this device");
        return err->result;
    }
    /* thread block clusters (distributed shared memory, cluster barriers) have no OpenCL form; the
     * dialect gives the cluster registers the values of a launch without one (ocl_special) */
    uint32_t cl[3];
    for (int d = 0; d < 3; d++)
        cl[d] = cfg->cluster[d] ? cfg->cluster[d] : 1;
    if ((uint64_t)cl[0] * cl[1] * cl[2] > 1) {
        err->result = CUDA_ERROR_NOT_SUPPORTED;
        snprintf(err->message, sizeof err->message, "thread block clusters (%ux%ux%u) are not supported on this device",
                 cl[0], cl[1], cl[2]);
        return err->result;
    }
    size_t pbytes = (size_t)k->words * 8;
    unsigned char stackbuf[512];
    unsigned char *pb = pbytes <= sizeof stackbuf ? stackbuf : calloc(1, pbytes);
    if (!pb) {
        err->result = CUDA_ERROR_OUT_OF_MEMORY;
        return err->result;
    }
    memset(pb, 0, pbytes);
    if (cfg->param_bytes)
        memcpy(pb, cfg->params, cfg->param_bytes < pbytes ? cfg->param_bytes : pbytes);
    size_t local[3], global[3];
    for (int d = 0; d < 3; d++) {
        local[d] = cfg->block[d];
        global[d] = (size_t)cfg->grid[d] * cfg->block[d];
    }
    size_t smem = (size_t)k->dsm + cfg->dynamic_smem;
    if (k->scratch)   /* the warp collectives' scratch (codegen/opencl/warp.c), 8-byte aligned */
        smem = ((smem + 7) & ~(size_t)7) + (size_t)k->scratch * cfg->block[0] * cfg->block[1] * cfg->block[2] + 16;
    cl_uint dyn = cfg->dynamic_smem;
    cl_event ev = NULL;
    cb_mutex_lock(&k->lock);
    cl_int e = s->svm ? ocl_set_arg_svm(k->k, 0, (void *)(uintptr_t)s->heap_base)   /* inside the SVM */
                      : clSetKernelArg(k->k, 0, sizeof(cl_mem), &s->heap);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k->k, 1, pbytes, pb);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k->k, 2, smem ? smem : 16, NULL);
    if (e == CL_SUCCESS)
        e = clSetKernelArg(k->k, 3, sizeof dyn, &dyn);
    if (e == CL_SUCCESS)
        e = clEnqueueNDRangeKernel(s->q, k->k, 3, NULL, global, local, 0, NULL, &ev);
    cb_mutex_unlock(&k->lock);
    if (pb != stackbuf)
        free(pb);
    CUresult r = e != CL_SUCCESS ? cl_result(e) : wait_event(ev);
    if (r != CUDA_SUCCESS) {
        err->result = r;
        snprintf(err->message, sizeof err->message, "the OpenCL launch failed (%d)", (int)e);
        return r;
    }
    if (m->has_printf)   /* the launch's printf output, before its status: CUDA prints it at the sync */
        ocl_printf_flush(s->q, s->heap, s->printf_off, OCL_PRINTF_FIFO);
    return m->has_status ? launch_status(s, err) : CUDA_SUCCESS;
}

/* A launch of a module with printf holds printf_lock from its enqueue to its flush, so that no
 * other launch claims records between the flush's read of the count and its reset. */
static CUresult ocl_launch(cb_backend *b, void *module, uint32_t kernel, const cb_launch_config *cfg,
                           cb_launch_error *err)
{
    ocl_backend *s = self_of(b);
    const ocl_module *m = module;
    if (!m->has_printf)
        return launch_one(b, module, kernel, cfg, err);
    cb_mutex_lock(&s->printf_lock);
    CUresult r = launch_one(b, module, kernel, cfg, err);
    cb_mutex_unlock(&s->printf_lock);
    return r;
}

/* ---- what the library interface needs (opencl_lib.h) ---------------------------------- */

void ocl_view(cb_backend *b, ocl_device_view *v)
{
    ocl_backend *s = self_of(b);
    *v = (ocl_device_view){s->ctx, s->dev, s->q, s->heap, s->heap_base, s->alloc.size};
}

CUresult ocl_wait(cl_event ev) { return wait_event(ev); }

CUresult ocl_result(cl_int e) { return cl_result(e); }

static void ocl_shutdown(cb_backend *b)
{
    ocl_backend *s = self_of(b);
    if (s->q)
        clFinish(s->q);
    if (s->heap)
        clReleaseMemObject(s->heap);
    if (s->svm_mem)
        clReleaseMemObject(s->svm_mem);
    if (s->svm)
        ocl_svm_free(s->ctx, s->svm);
    if (s->q)
        clReleaseCommandQueue(s->q);
    if (s->ctx)
        clReleaseContext(s->ctx);
    if (s->reservation)
        cb_vm_release(s->reservation, s->reservation_bytes);
    ocl_heap_destroy(&s->alloc);
    ocl_program_cache_close(&s->cache);
    cb_mutex_destroy(&s->printf_lock);
    free(s);
}

/* ---- creation ------------------------------------------------------------------------ */

/* The device's address range: at the first of a few fixed places that is
 * free, so that a program's device addresses, the text that names them
 * (module_header) and so its compile cache key are the same from run to run;
 * elsewhere (all taken, or moved by a sanitizer) wherever the system puts
 * it, which only costs cache hits. The places: 32 and 48 TiB (free in
 * plain and ASan processes), 320 GiB (in ThreadSanitizer's application
 * range). */
static void *heap_reserve(size_t bytes)
{
    static const uint64_t places[] = {0x200000000000ull, 0x300000000000ull, 0x5000000000ull};
    if (sizeof(void *) == 8)
        for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
            void *p = cb_vm_reserve_at((void *)(uintptr_t)places[i], bytes);
            if (p)
                return p;
        }
    return cb_vm_reserve(bytes);
}

/* The options of every clBuildProgram: PTX's division and square root are
 * correctly rounded; CUBRIDGE_OPENCL_BUILD_OPTIONS adds to them (for
 * experiments: an option that changes floating-point results makes the
 * kernels differ from CUDA's). */
static void build_options(ocl_backend *s)
{
    const char *extra = getenv("CUBRIDGE_OPENCL_BUILD_OPTIONS");
    snprintf(s->options, sizeof s->options, "-cl-std=CL1.2 -cl-fp32-correctly-rounded-divide-sqrt%s%s",
             extra && *extra ? " " : "", extra && *extra ? extra : "");
}

static void ocl_module_cache_stats(cb_backend *b, unsigned *hits, unsigned *misses)
{
    (void)b;
    ocl_program_cache_stats(hits, misses);
}

static void fill_info(ocl_backend *s)
{
    cb_device_info *i = &s->info;
    char name[200] = "", ver[256] = "";   /* PoCL's version string is longer than 64 bytes */
    cl_uint cu = 1, mhz = 0;
    cl_ulong lmem = 0, l2 = 0;
    size_t wg = 256;
    clGetDeviceInfo(s->dev, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_VERSION, sizeof ver - 1, ver, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof l2, &l2, NULL);
    clGetDeviceInfo(s->dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    char vendor[200] = "";
    clGetDeviceInfo(s->dev, CL_DEVICE_VENDOR, sizeof vendor - 1, vendor, NULL);
    /* inline PTX on NVIDIA's platform only (codegen/opencl/warp.c: shfl.sync and vote.sync with the
     * mask checks made by match.any.sync); CUBRIDGE_OPENCL_ASM=0 keeps the local-memory emulation */
    s->nvidia = ocl_uses_nv_asm(vendor);
    s->sg32 = !s->nvidia && ocl_uses_subgroups32(s->dev);
    /* the version's first three words ("OpenCL 3.0 CUDA", "OpenCL 3.0 PoCL"; PoCL's goes on for 60 bytes) */
    for (int words = 0, k = 0; ver[k]; k++)
        if (ver[k] == ' ' && ++words == 3) {
            ver[k] = 0;
            break;
        }
    snprintf(i->name, sizeof i->name, "%.180s (OpenCL, %.60s)", name, ver);
    i->total_mem = (size_t)s->alloc.size;
    i->multiprocessors = (int)cu;
    s->max_wg = wg;
    i->max_threads_per_block = (int)(wg < 1024 ? wg : 1024);
    int shared = (int)(lmem < 49152 ? lmem : 49152);
    i->max_shared_per_block = shared;
    i->max_shared_per_block_optin = (int)(lmem < (1u << 30) ? lmem : (1u << 30));
    i->max_shared_per_multiprocessor = i->max_shared_per_block_optin;
    i->clock_khz = (int)mhz * 1000;
    i->l2_cache_bytes = (int)(l2 < (1u << 30) ? l2 : 0);
    i->warp_size = 32;
    i->managed_memory = s->svm_fine;   /* the host reaches fine-grained SVM at the device's addresses */
}

static cb_backend *ocl_create(const cb_backend_type *type, cb_backend *inner, char *err, size_t errlen)
{
    (void)type, (void)inner;
    cl_platform_id plat;
    cl_device_id dev;
    int lanes = cb_backend_env_warp_size(err, errlen);
    if (lanes != 32) {   /* never 32 in place of what was asked */
        if (lanes == 64)
            snprintf(err, errlen, "CUBRIDGE_WARP_SIZE=64 is not supported by the opencl backend (only the cpu "
                                  "backend runs 64-lane warps); unset it or use CUBRIDGE_BACKEND=cpu");
        return NULL;
    }
    if (ocl_load(err, errlen) < 0)
        return NULL;
    if (ocl_pick_device(getenv("CUBRIDGE_OPENCL_DEVICE"), &plat, &dev, err, errlen) < 0)
        return NULL;
    ocl_backend *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->dev = dev;
    cb_mutex_init(&s->printf_lock);
    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
    s->ctx = clCreateContext(props, 1, &dev, NULL, NULL, &e);
    if (e == CL_SUCCESS)
        s->q = clCreateCommandQueue(s->ctx, dev, 0, &e);
    cl_ulong maxalloc = 0, gmem = 0;
    clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxalloc, &maxalloc, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    const char *mb = getenv("CUBRIDGE_OPENCL_HEAP_MB");
    uint64_t heap = (mb && atoll(mb) > 0 ? (uint64_t)atoll(mb) : 1024) << 20;
    if (maxalloc && heap > maxalloc)
        heap = maxalloc & ~(uint64_t)0xfffff;
    int svm = e == CL_SUCCESS ? ocl_memory_mode(dev, getenv("CUBRIDGE_OPENCL_MEMORY"), err, errlen) : 0;
    if (svm < 0) {
        ocl_shutdown(&s->base);
        return NULL;
    }
    size_t pad = 0;
    if (svm) {
        /* CUDA's 256-byte alignment from the heap's base up, where clSVMAlloc aligns to at most the
         * largest data type (128 bytes on PoCL): the heap starts at the first 256-byte boundary, and
         * its cl_mem is the sub-buffer from there (an origin of a multiple of 128 bytes) */
        s->svm_fine = svm == 2;
        s->svm = ocl_svm_alloc(s->ctx, CL_MEM_READ_WRITE | (s->svm_fine ? OCL_MEM_SVM_FINE_GRAIN_BUFFER : 0),
                               (size_t)heap + 256, 0);
        if (s->svm)
            s->svm_mem = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, (size_t)heap + 256,
                                        s->svm, &e);
        else
            e = CL_MEM_OBJECT_ALLOCATION_FAILURE;
        pad = (size_t)(-(uintptr_t)s->svm & 255u);
        cl_buffer_region region = {pad, (size_t)heap};
        if (e == CL_SUCCESS)
            s->heap = clCreateSubBuffer(s->svm_mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
    } else if (e == CL_SUCCESS) {
        s->heap = clCreateBuffer(s->ctx, CL_MEM_READ_WRITE, (size_t)heap, NULL, &e);
    }
    if (e == CL_SUCCESS) {
        s->reservation_bytes = (size_t)((svm ? 0 : heap) + 2 * WINDOW_BYTES);
        s->reservation = heap_reserve(s->reservation_bytes);
    }
    if (e != CL_SUCCESS || !s->reservation || ocl_heap_init(&s->alloc, heap) < 0) {
        snprintf(err, errlen, "the OpenCL device did not start (OpenCL error %d, %s %llu MiB)", (int)e,
                 svm ? "SVM heap" : "heap", (unsigned long long)(heap >> 20));
        ocl_shutdown(&s->base);
        return NULL;
    }
    s->heap_base = svm ? (uint64_t)(uintptr_t)s->svm + pad : (uint64_t)(uintptr_t)s->reservation;
    s->windows = (uint64_t)(uintptr_t)s->reservation + (svm ? 0 : heap);
    /* the first 256 bytes: the launch status (trap, assert; prelude.c), zero between launches */
    uint64_t status_off = 1;
    uint32_t zero[64] = {0};
    if (ocl_heap_alloc(&s->alloc, sizeof zero, &status_off) < 0 || status_off != 0 ||
        ocl_copy_htod(&s->base, s->heap_base, zero, sizeof zero) != CUDA_SUCCESS ||
        ocl_heap_alloc(&s->alloc, OCL_PRINTF_FIFO, &s->printf_off) < 0) {
        snprintf(err, errlen, "the OpenCL device did not start (its heap)");
        ocl_shutdown(&s->base);
        return NULL;
    }
    fill_info(s);
    build_options(s);
    ocl_program_cache_open(&s->cache, plat, dev, s->options);
    s->base = (cb_backend){
        .name = "opencl",
        .device_info = ocl_device_info,
        .mem_alloc = ocl_mem_alloc,
        .mem_free = ocl_mem_free,
        .mem_usage = ocl_mem_usage,
        .mem_owns = ocl_mem_owns,
        .copy_htod = ocl_copy_htod,
        .copy_dtoh = ocl_copy_dtoh,
        .copy_dtod = ocl_copy_dtod,
        .memset = ocl_memset,
        .texture_create = ocl_texture_create,
        .texture_destroy = ocl_texture_destroy,
        .dialect = CB_DIALECT_OPENCL,
        .module_load = ocl_module_load,
        .module_unload = ocl_module_unload,
        .launch = ocl_launch,
        .shutdown = ocl_shutdown,
        .lib = ocl_lib(),
        .module_cache_stats = ocl_module_cache_stats,
    };
    return &s->base;
}

static const cb_backend_type opencl_type = {
    .name = "opencl",
    .description = "an OpenCL device (CUBRIDGE_OPENCL_DEVICE picks it): PTX -> OpenCL C -> clBuildProgram",
    .create = ocl_create,
};

void cb_opencl_register(void)
{
    cb_backend_register(&opencl_type);   /* a second registration of the same type is harmless */
}

__attribute__((constructor)) static void ocl_register(void)
{
    cb_opencl_register();
}
