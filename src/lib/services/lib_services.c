/* lib_services.c: the table of core calls that libcuda.so.1 hands the
 * library facades (lib/common/lib_services.h). Compiled into libcuda.so.1;
 * each entry is a thin wrapper over the core's or the inspector's public
 * calls, so that the facades never see the core's internals.
 */
#include "lib/common/lib_services.h"

#include "core/context.h"
#include "core/memory.h"

static int services_log_level(void) { return cb_log_level(); }

static void services_log(int level, const char *message) { cb_log(level, "%s", message); }

static CUresult services_context(cb_context **out)
{
    CUresult r = cb_init(0);
    if (r != CUDA_SUCCESS)
        return r;
    if (cb_ctx_require(out) == CUDA_SUCCESS)
        return CUDA_SUCCESS;
    /* No context yet (the facade was called before cudart made one): the
     * primary context of device 0, as cudart would retain it. */
    cb_device *d = cb_device_get(0);
    if (!d)
        return CUDA_ERROR_NO_DEVICE;
    cb_context *ctx;
    if ((r = cb_primary_retain(d, &ctx)) != CUDA_SUCCESS)
        return r;
    cb_ctx_set_current(ctx);
    *out = ctx;
    return CUDA_SUCCESS;
}

static CUresult services_stream(cb_context *ctx, CUstream handle, cb_stream **out)
{
    return cb_stream_resolve_ex(handle, ctx, 0, out);
}

static CUresult services_submit(cb_stream *s, cb_lib_op *lop, int wait, int *captured)
{
    if (captured)
        *captured = 0;
    cb_op *op = cb_op_new(CB_OP_LIBRARY);
    if (!op) {
        cb_lib_op_unref(lop);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    lop->ctx = s->ctx;
    op->u.lib = lop;
    int was_capturing = s->capture != NULL;   /* read unlocked: only a hint for *captured */
    cb_fence *f = NULL;
    CUresult r = cb_stream_submit_inline(s, op, wait ? &f : NULL);
    if (r != CUDA_SUCCESS) {
        cb_op_free(op);   /* drops the reference */
        return r;
    }
    if (f) {
        cb_fence_wait(f);
        cb_fence_unref(f);
    } else if (captured && was_capturing) {
        *captured = 1;
    }
    return CUDA_SUCCESS;
}

static int services_capturing(cb_stream *s)
{
    cb_runtime *rt = cb_runtime_of(s->ctx);
    cb_mutex_lock(&rt->lock);
    int c = s->capture != NULL;
    cb_mutex_unlock(&rt->lock);
    return c;
}

static cb_backend *services_backend(cb_context *ctx) { return ctx->device->backend; }

/* Whether [addr, addr + bytes) is memory a kernel may reach: one allocation,
 * or several that follow each other without a gap (a virtual memory range
 * mapped piece by piece with cuMemMap, as llama.cpp's pool grows, is one
 * operand across several mappings; a GPU reads across them). */
static int services_mem_valid(uint64_t addr, size_t bytes)
{
    for (;;) {
        cb_mem_info m = cb_mem_lookup(addr);
        switch (m.kind) {
        case CB_MEM_DEVICE:
        case CB_MEM_MANAGED:
        case CB_MEM_VMM:
        case CB_MEM_HOST:
        case CB_MEM_REGISTERED: break;
        default: return 0;
        }
        if (addr < m.base || addr - m.base >= m.size)
            return 0;
        uint64_t room = m.size - (addr - m.base);
        if (bytes <= room)
            return 1;
        addr += room;
        bytes -= (size_t)room;
    }
}

static const char *services_mem_tag(uint64_t addr)
{
    if (addr == 0)
        return "null";
    switch (cb_mem_lookup(addr).kind) {
    case CB_MEM_DEVICE: return "device";
    case CB_MEM_MANAGED: return "managed";
    case CB_MEM_VMM: return "vmm";
    case CB_MEM_HOST: return "pinned host";
    case CB_MEM_REGISTERED: return "registered host";
    case CB_MEM_FREED: return "freed device";
    default: return "host";
    }
}

static int services_inspect_flags(void) { return cb_inspect_flags; }

static uint64_t services_now(void) { return cb_inspect_now(); }

static void services_trace(const cb_lib_trace *t)
{
    cb_inspect_library_trace(t->library, t->function, t->args, t->status, t->failed, t->unsupported, t->t0, t->t1);
}

static int services_check(const cb_lib_check *c)
{
    return cb_inspect_library_check(c->library, c->function, c->outs, c->nouts, c->note);
}

static void services_unsupported(const char *library, const char *function, const char *why)
{
    cb_inspect_library_unsupported(library, function, why);
}

static const cb_lib_services services = {
    .size = sizeof(cb_lib_services),
    .version = CB_LIB_SERVICES_VERSION,
    .log_level = services_log_level,
    .log = services_log,
    .context = services_context,
    .stream = services_stream,
    .submit = services_submit,
    .capturing = services_capturing,
    .backend = services_backend,
    .mem_valid = services_mem_valid,
    .mem_tag = services_mem_tag,
    .inspect_flags = services_inspect_flags,
    .now = services_now,
    .trace = services_trace,
    .check = services_check,
    .unsupported = services_unsupported,
};

CB_EXPORT const cb_lib_services *cubridge_lib_services(unsigned version);
CB_EXPORT const cb_lib_services *cubridge_lib_services(unsigned version)
{
    return version <= CB_LIB_SERVICES_VERSION ? &services : NULL;
}
