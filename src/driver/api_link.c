/* api_link.c: the JIT linker (cuLink*) and the JIT options and logs that it
 * shares with cuModuleLoadDataEx.
 *
 * cubridge runs kernels from PTX, so "linking" keeps PTX: every input is
 * reduced to its PTX texts (PTX as given; the PTX entries of a fatbin or
 * of a container an earlier link produced), and cuLinkComplete merges them
 * (cb_ptx_merge) and hands out cubridge's own container
 * (cb_fatbin_make_container) carrying the result,
 * which cuModuleLoadData and cuLibraryLoadData accept like any image.
 * Inputs without PTX (SASS-only cubins, LTO-IR, host objects and
 * libraries) are refused with a reason in the error log.
 *
 * Link states are entered in the core's handle table (core/handles.h), so
 * that a handle is checked, never trusted.
 */
#include "driver/jit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/context.h"
#include "core/device.h"
#include "ptxlink/ptx_link.h"
#include "core/handles.h"
#include "fatbin/fatbin.h"
#include "platform/fs.h"
#include "platform/sysinfo.h"

/* ---- JIT options and logs ------------------------------------------------- */

CUresult cb_jit_log_init(cb_jit_log *log, unsigned n, const CUjit_option *options, void **values)
{
    memset(log, 0, sizeof *log);
    if (n == 0)
        return CUDA_SUCCESS;
    if (!options || !values)
        return CUDA_ERROR_INVALID_VALUE;
    for (unsigned i = 0; i < n; i++) {
        switch (options[i]) {
        case CU_JIT_INFO_LOG_BUFFER:
            log->info = values[i];
            break;
        case CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES:
            log->info_cap = (size_t)(uintptr_t)values[i] & 0xffffffffu;
            log->info_size_slot = &values[i];
            break;
        case CU_JIT_ERROR_LOG_BUFFER:
            log->error = values[i];
            break;
        case CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES:
            log->error_cap = (size_t)(uintptr_t)values[i] & 0xffffffffu;
            log->error_size_slot = &values[i];
            break;
        case CU_JIT_WALL_TIME:
            log->wall_time_slot = &values[i];
            break;
        case CU_JIT_TARGET:
            /* CUjit_target: the sm number, plus 0x10000 for the "a" and
             * 0x20000 for the "f" variants. */
            log->target_sm = (int)((uintptr_t)values[i] & 0xffffu);
            break;
        default:
            if ((unsigned)options[i] >= (unsigned)CU_JIT_NUM_OPTIONS)
                return CUDA_ERROR_INVALID_VALUE;
            break; /* steers ptxas; nothing to steer here */
        }
    }
    /* Nothing written yet: the size slots say 0 until a message comes. */
    if (log->info && log->info_cap)
        log->info[0] = '\0';
    if (log->error && log->error_cap)
        log->error[0] = '\0';
    if (log->info_size_slot)
        *log->info_size_slot = (void *)(uintptr_t)0;
    if (log->error_size_slot)
        *log->error_size_slot = (void *)(uintptr_t)0;
    return CUDA_SUCCESS;
}

/* Appends "cubridge: ", the message and a newline to buf (cap bytes), keeping it NUL-terminated. */
static void jit_append(char *buf, size_t cap, size_t *len, void **size_slot, const char *message)
{
    if (!buf || cap == 0)
        return;
    char text[1100];
    snprintf(text, sizeof text, "cubridge: %s", message);
    size_t room = cap - 1 > *len ? cap - 1 - *len : 0;
    size_t n = strlen(text);
    if (*len > 0 && room > 0) {
        buf[(*len)++] = '\n';
        room--;
    }
    if (n > room)
        n = room;
    memcpy(buf + *len, text, n);
    *len += n;
    buf[*len] = '\0';
    if (size_slot)
        *size_slot = (void *)(uintptr_t)(*len + 1);
}

void cb_jit_info(cb_jit_log *log, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cb_log(CB_LOG_INFO, "%s", text);
    jit_append(log->info, log->info_cap, &log->info_len, log->info_size_slot, text);
}

void cb_jit_error(cb_jit_log *log, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    cb_log(CB_LOG_ERROR, "%s", text);
    jit_append(log->error, log->error_cap, &log->error_len, log->error_size_slot, text);
}

void cb_jit_error_text(cb_jit_log *log, const char *text)
{
    jit_append(log->error, log->error_cap, &log->error_len, log->error_size_slot, text);
}

void cb_jit_wall_time(cb_jit_log *log, float ms)
{
    if (!log->wall_time_slot)
        return;
    void *slot = NULL;
    memcpy(&slot, &ms, sizeof ms);
    *log->wall_time_slot = slot;
}

/* ---- link states ------------------------------------------------------------ */

#define LINK_MAGIC 0x4c494e4bu /* "LINK" */

typedef struct link_state {
    uint32_t magic;
    cb_ptx_link link;       /* .sm: CU_JIT_TARGET or the device's */
    cb_jit_log log;         /* the buffers given to cuLinkCreate */
    uint64_t started_ns;
} link_state;

static link_state *link_find(CUlinkState h)
{
    return cb_handle_live(h, LINK_MAGIC) ? (link_state *)(void *)h : NULL;
}

/* Adds PTX text; it must not target a newer architecture than the link. */
static CUresult link_add_ptx(link_state *l, const char *text, size_t len, const char *name)
{
    int target = 0;
    switch (cb_ptx_link_add(&l->link, text, len ? len : strlen(text), 1, &target)) {
    case CB_PTX_LINK_OK:
        return CUDA_SUCCESS;
    case CB_PTX_LINK_NEWER_TARGET:
        cb_jit_error(&l->log, "%s: PTX .target sm_%d is newer than the link target sm_%d", name, target,
                     l->link.sm);
        return CUDA_ERROR_INVALID_PTX;
    default:
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
}

/* Adds every PTX text of a fatbin, or of a container an earlier link made. */
static CUresult link_add_container(link_state *l, const void *data, size_t size, const char *name)
{
    char err[256] = "";
    cb_fatbin_status st = cb_ptx_link_add_container(&l->link, data, size, err, sizeof err);
    if (st == CB_FATBIN_ERR_NOMEM)
        return CUDA_ERROR_OUT_OF_MEMORY;
    if (st == CB_FATBIN_ERR_NO_PTX) {
        cb_jit_error(&l->log, "%s: %s; cubridge links and runs PTX only, not SASS", name,
                     err[0] ? err : "no PTX");
        return CUDA_ERROR_NO_BINARY_FOR_GPU;
    }
    if (st != CB_FATBIN_OK) {
        cb_jit_error(&l->log, "%s: not an image cubridge can link: %s", name,
                     err[0] ? err : "unrecognised container");
        return CUDA_ERROR_INVALID_IMAGE;
    }
    return CUDA_SUCCESS;
}

static CUresult link_add(link_state *l, CUjitInputType type, const void *data, size_t size, const char *name)
{
    if (l->link.image) {
        cb_jit_error(&l->log, "%s: the link is already complete", name);
        return CUDA_ERROR_INVALID_VALUE;
    }
    switch (type) {
    case CU_JIT_INPUT_PTX:
        return link_add_ptx(l, data, size, name);
    case CU_JIT_INPUT_CUBIN:
    case CU_JIT_INPUT_FATBINARY:
        return link_add_container(l, data, size, name);
    case CU_JIT_INPUT_NVVM:
        cb_jit_error(&l->log,
                     "%s: LTO-IR (NVVM) input cannot be linked: cubridge translates PTX; "
                     "compile to PTX instead of LTO-IR",
                     name);
        return CUDA_ERROR_NOT_SUPPORTED;
    case CU_JIT_INPUT_OBJECT:
    case CU_JIT_INPUT_LIBRARY:
        cb_jit_error(&l->log,
                     "%s: host objects and libraries (such as libcudadevrt.a) cannot be linked; "
                     "device-side launches are not supported",
                     name);
        return CUDA_ERROR_NOT_SUPPORTED;
    default:
        cb_jit_error(&l->log, "%s: unknown input type %d", name, (int)type);
        return CUDA_ERROR_INVALID_VALUE;
    }
}

/* ---- entry points ------------------------------------------------------------ */

CB_EXPORT CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                   CUlinkState *stateOut)
{
    CB_REQUIRE_INIT();
    if (!stateOut)
        return CUDA_ERROR_INVALID_VALUE;
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    link_state *l = calloc(1, sizeof *l);
    if (!l)
        return CUDA_ERROR_OUT_OF_MEMORY;
    r = cb_jit_log_init(&l->log, numOptions, options, optionValues);
    if (r != CUDA_SUCCESS) {
        free(l);
        return r;
    }
    l->link.sm = l->log.target_sm ? l->log.target_sm : cb_device_sm(ctx->device);
    l->started_ns = cb_sys_monotonic_ns();
    l->magic = LINK_MAGIC;
    cb_handle_add(l);
    *stateOut = (CUlinkState)(void *)l;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuLinkCreate(unsigned int numOptions, CUjit_option *options, void **optionValues,
                                CUlinkState *stateOut)
{
    return cuLinkCreate_v2(numOptions, options, optionValues, stateOut);
}

/* Per-input options tune ptxas for that input; cubridge has none to tune,
 * but the arrays must be well formed. */
static CUresult link_check_input_options(unsigned n, CUjit_option *options, void **values)
{
    cb_jit_log ignored;
    return cb_jit_log_init(&ignored, n, options, values);
}

CB_EXPORT CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data, size_t size,
                                    const char *name, unsigned int numOptions, CUjit_option *options,
                                    void **optionValues)
{
    CB_REQUIRE_INIT();
    link_state *l = link_find(state);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = link_check_input_options(numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    return link_add(l, type, data, size, name ? name : "<link input>");
}

CB_EXPORT CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data, size_t size, const char *name,
                                 unsigned int numOptions, CUjit_option *options, void **optionValues)
{
    return cuLinkAddData_v2(state, type, data, size, name, numOptions, options, optionValues);
}

CB_EXPORT CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                                    CUjit_option *options, void **optionValues)
{
    CB_REQUIRE_INIT();
    link_state *l = link_find(state);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = link_check_input_options(numOptions, options, optionValues);
    if (r != CUDA_SUCCESS)
        return r;
    unsigned char *data = NULL;
    size_t len = 0;
    if (cb_fs_read_file(path, &data, &len) != 0) {
        cb_jit_error(&l->log, "cannot read %s", path);
        return CUDA_ERROR_FILE_NOT_FOUND;
    }
    r = link_add(l, type, data, len, path);
    free(data);
    return r;
}

CB_EXPORT CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type, const char *path, unsigned int numOptions,
                                 CUjit_option *options, void **optionValues)
{
    return cuLinkAddFile_v2(state, type, path, numOptions, options, optionValues);
}

CB_EXPORT CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut)
{
    CB_REQUIRE_INIT();
    link_state *l = link_find(state);
    if (!l)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cubinOut || !sizeOut)
        return CUDA_ERROR_INVALID_VALUE;
    if (!l->link.image) {
        char err[256] = "";
        switch (cb_ptx_link_complete(&l->link, err, sizeof err)) {
        case CB_PTX_LINK_OK:
            break;
        case CB_PTX_LINK_EMPTY:
            cb_jit_error(&l->log, "nothing to link: no input was added");
            return CUDA_ERROR_INVALID_VALUE;
        case CB_PTX_LINK_MERGE:
            cb_jit_error(&l->log, "%s", err);
            return CUDA_ERROR_INVALID_PTX;
        case CB_PTX_LINK_NOMEM:
            cb_jit_error(&l->log, "%s", err);
            return CUDA_ERROR_OUT_OF_MEMORY;
        default:
            cb_jit_error(&l->log, "%s", err);
            return CUDA_ERROR_UNKNOWN;
        }
        cb_jit_info(&l->log, "linked %zu PTX module%s for sm_%d (%zu bytes); kernels are translated at load",
                    l->link.n, l->link.n == 1 ? "" : "s", l->link.sm, l->link.image_size);
        cb_jit_wall_time(&l->log, (float)(cb_sys_monotonic_ns() - l->started_ns) / 1e6f);
    }
    *cubinOut = l->link.image;
    *sizeOut = l->link.image_size;
    return CUDA_SUCCESS;
}

CB_EXPORT CUresult cuLinkDestroy(CUlinkState state)
{
    CB_REQUIRE_INIT();
    if (!cb_handle_take(state, LINK_MAGIC))
        return CUDA_ERROR_INVALID_HANDLE;
    link_state *found = (link_state *)(void *)state;
    cb_ptx_link_clear(&found->link);
    found->magic = 0;
    free(found);
    return CUDA_SUCCESS;
}
