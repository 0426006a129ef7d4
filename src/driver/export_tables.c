/* export_tables.c: cuGetExportTable and the tables cudart needs.
 *
 * NVIDIA's cudart asks the driver for private function tables by UUID.
 * What each slot does was learned by handing out tables whose slots log
 * their index and arguments and running nvcc-built programs (static and
 * shared cudart 13.0) against cubridge: see docs/export-tables.md. Slots
 * that were never seen called log their arguments and answer
 * CUDA_ERROR_NOT_SUPPORTED.
 */
#include "driver/driver.h"

#include <stdio.h>
#include <string.h>

#include "core/context.h"
#include "core/device.h"
#include "core/module.h"
#include "driver/md2.h"

/* A slot nobody has seen called: logs and refuses. */
#define ET_UNKNOWN(table, index)                                                                            \
    static CUresult et_##table##_##index(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d)                \
    {                                                                                                       \
        cb_log(CB_LOG_WARN, "export table %s slot %d called (%#lx, %#lx, %#lx, %#lx): not implemented",    \
               #table, index, (unsigned long)a, (unsigned long)b, (unsigned long)c, (unsigned long)d);      \
        return CUDA_ERROR_NOT_SUPPORTED;                                                                    \
    }

/* A slot that cudart calls and tolerates being refused, whose job is not
 * known (docs/export-tables.md): logged at debug level, refused. */
#define ET_REFUSED(table, index)                                                                            \
    static CUresult et_##table##_##index(uintptr_t a, uintptr_t b, uintptr_t c, uintptr_t d)                \
    {                                                                                                       \
        cb_log(CB_LOG_DEBUG, "export table %s slot %d called (%#lx, %#lx, %#lx, %#lx): refused", #table,    \
               index, (unsigned long)a, (unsigned long)b, (unsigned long)c, (unsigned long)d);              \
        return CUDA_ERROR_NOT_SUPPORTED;                                                                    \
    }

/* ---- 6bd5fb6c-5bf4-e74a-8987-d93912fd9df9: the cudart interface ---------- */

/* Loads a fatbin (wrapper or header) into the current context. */
static CUresult et_load_module(CUmodule *out, const void *image, const char *what)
{
    if (!out || !image)
        return CUDA_ERROR_INVALID_VALUE;
    cb_context *ctx;
    CUresult r = cb_ctx_require_usable(&ctx);
    if (r != CUDA_SUCCESS)
        return r;
    cb_module *m;
    char name[128], msg[1024];
    cb_module_image_name(image, what, name, sizeof name);
    r = cb_module_load_msg(ctx, image, 0, name, &m, msg, sizeof msg);
    if (r == CUDA_ERROR_NO_BINARY_FOR_GPU || r == CUDA_ERROR_INVALID_PTX)   /* its kernels fail when used (see cuLibraryLoadData) */
        r = cb_module_create_unavailable(ctx, name, r, msg, &m);
    if (r == CUDA_SUCCESS)
        *out = (CUmodule)(void *)m;
    cb_log(CB_LOG_DEBUG, "cudart loads module from %s %p -> %d", what, image, (int)r);
    return r;
}

/* [1] module from a fatbin wrapper. */
static CUresult et_rt_module_from_wrapper(CUmodule *out, const void *wrapper)
{
    return et_load_module(out, wrapper, "fatbin wrapper");
}

/* [2] the primary context of a device, retained. */
static CUresult et_rt_primary_context(CUcontext *pctx, CUdevice dev)
{
    CB_REQUIRE_INIT();
    cb_device *d = cb_device_get(dev);
    if (!d)
        return CUDA_ERROR_INVALID_DEVICE;
    if (!pctx)
        return CUDA_ERROR_INVALID_VALUE;
    cb_log(CB_LOG_DEBUG, "cudart interface [2]: primary context of device %d", (int)dev);
    return cb_primary_retain(d, pctx);
}

/* [6] module from a fatbin wrapper, with two unknown pointers and a count. */
static CUresult et_rt_module_from_wrapper_ex(CUmodule *out, const void *wrapper, void *a3, void *a4, size_t a5)
{
    if (a3 || a4)
        cb_log(CB_LOG_DEBUG, "cudart interface [6] extra arguments %p %p %zu ignored", a3, a4, a5);
    return et_load_module(out, wrapper, "fatbin wrapper");
}

/* [7] takes one size_t and does nothing that cudart depends on. */
static void et_rt_noop(size_t a)
{
    (void)a;
}

/* [8] module from a fatbin header. */
static CUresult et_rt_module_from_fatbin(const void *header, CUmodule *out, void *a3, void *a4, unsigned a5)
{
    if (a3 || a4)
        cb_log(CB_LOG_DEBUG, "cudart interface [8] extra arguments %p %p %u ignored", a3, a4, a5);
    return et_load_module(out, header, "fatbin");
}

ET_UNKNOWN(cudart, 3)
ET_UNKNOWN(cudart, 4)
ET_UNKNOWN(cudart, 5)
ET_UNKNOWN(cudart, 9)

static const void *const et_cudart[] = {
    (const void *)(10 * sizeof(void *)),
    (const void *)et_rt_module_from_wrapper,
    (const void *)et_rt_primary_context,
    (const void *)et_cudart_3,
    (const void *)et_cudart_4,
    (const void *)et_cudart_5,
    (const void *)et_rt_module_from_wrapper_ex,
    (const void *)et_rt_noop,
    (const void *)et_rt_module_from_fatbin,
    (const void *)et_cudart_9,
};

/* ---- a094798c-2e74-2e74-93f2-0800200c0a66: tools callback hooks -------------- */

/* Process-wide scratch buffers that cudart's tool hooks write into. */
static size_t et_hooks_buffer2[1024];
static unsigned char et_hooks_buffer6[64];

/* [2] and [6] hand out a buffer and its size (in elements). */
static void et_hooks_buffer_2(void **ptr, size_t *size)
{
    cb_log(CB_LOG_DEBUG, "tools hooks [2]: buffer %p, %p", (void *)ptr, (void *)size);
    *ptr = et_hooks_buffer2;
    *size = sizeof et_hooks_buffer2 / sizeof et_hooks_buffer2[0];
}

static void et_hooks_buffer_6(void **ptr, size_t *size)
{
    cb_log(CB_LOG_DEBUG, "tools hooks [6]: buffer %p, %p", (void *)ptr, (void *)size);
    *ptr = et_hooks_buffer6;
    *size = sizeof et_hooks_buffer6;
}

ET_UNKNOWN(hooks, 1)
ET_UNKNOWN(hooks, 3)
ET_UNKNOWN(hooks, 4)
ET_UNKNOWN(hooks, 5)

static const void *const et_hooks[] = {
    (const void *)(7 * sizeof(void *)), (const void *)et_hooks_1,        (const void *)et_hooks_buffer_2,
    (const void *)et_hooks_3,           (const void *)et_hooks_4,        (const void *)et_hooks_5,
    (const void *)et_hooks_buffer_6,
};

/* ---- 42d85a81-23f6-cb47-8298-f6e78a3aecdc: tools thread-local storage ------- */

ET_UNKNOWN(tls, 1)
ET_UNKNOWN(tls, 2)

static const void *const et_tls[] = {
    (const void *)(3 * sizeof(void *)),
    (const void *)et_tls_1,
    (const void *)et_tls_2,
};

/* ---- c693336e-1121-df11-a8c3-68f355d89593: context-local storage ------------ */

static CUresult et_cls_put(CUcontext ctx, void *key, void *value, cb_ctx_local_dtor dtor)
{
    CB_REQUIRE_INIT();
    cb_log(CB_LOG_DEBUG, "context-local storage [0]: put(%p, %p, %p, %p)", (void *)ctx, key, value,
           (void *)(uintptr_t)dtor);
    return cb_ctx_local_put(ctx, key, value, dtor);
}

static CUresult et_cls_delete(CUcontext ctx, void *key)
{
    CB_REQUIRE_INIT();
    cb_log(CB_LOG_DEBUG, "context-local storage [1]: delete(%p, %p)", (void *)ctx, key);
    return cb_ctx_local_delete(ctx, key);
}

static CUresult et_cls_get(void **value, CUcontext ctx, void *key)
{
    CB_REQUIRE_INIT();
    if (!value)
        return CUDA_ERROR_INVALID_VALUE;
    CUresult r = cb_ctx_local_get(ctx, key, value);
    cb_log(CB_LOG_DEBUG, "context-local storage [2]: get(%p, %p) -> %d", (void *)ctx, key, (int)r);
    return r;
}

/* No size header: the slots start at 0; the last entry is NULL. */
static const void *const et_cls[] = {
    (const void *)et_cls_put,
    (const void *)et_cls_delete,
    (const void *)et_cls_get,
    NULL,
};

/* ---- 263e8860-7cd2-6143-92f6-bbd5006dfa7e: context checks ------------------- */

/* [2] (ctx, unsigned *wrapped, CUcontext *unwrapped): cudart asks whether a
 * context wraps another one (some interop contexts do); ours never do. */
static CUresult et_ctxcheck_unwrap(CUcontext ctx, unsigned *wrapped, CUcontext *unwrapped)
{
    (void)unwrapped;
    CB_REQUIRE_INIT();
    cb_log(CB_LOG_DEBUG, "context checks [2]: unwrap(%p)", (void *)ctx);
    if (ctx && !cb_ctx_valid(ctx))
        return CUDA_ERROR_INVALID_CONTEXT;
    if (wrapped)
        *wrapped = 0;
    return CUDA_SUCCESS;
}

ET_UNKNOWN(ctxcheck, 1)
/* [3] (object, 0x40, 0): called once per process after the primary
 * context is created; refusing it changes nothing observable. */
ET_REFUSED(ctxcheck, 3)

static const void *const et_ctxcheck[] = {
    (const void *)(4 * sizeof(void *)),
    (const void *)et_ctxcheck_1,
    (const void *)et_ctxcheck_unwrap,
    (const void *)et_ctxcheck_3,
};

/* ---- d4082055-bde6-704b-8d34-ba123c66e1f2: the integrity check ------------- */

static CUresult et_integrity_check(unsigned rt_version, unsigned long long timestamp, unsigned char *out);

static const void *const et_integrity[] = {
    (const void *)(3 * sizeof(void *)),
    (const void *)et_integrity_check,
    NULL,
};

/* cudart proves that it talks to NVIDIA's driver: for runtime versions
 * ending in 0 or 1 the answer is a constant; otherwise it is an HMAC-MD2,
 * under a fixed key, of the versions, the process and thread ids, the
 * addresses of the cudart table, this table and this function, the
 * timestamp cudart passes, and each device's UUID and PCI location. */
static const unsigned char et_integrity_key[16] = {0x14, 0x6a, 0xdd, 0xae, 0x53, 0xa9, 0xa7, 0x52,
                                                   0xaa, 0x08, 0x41, 0x36, 0x0b, 0xf5, 0x5a, 0x9f};
static const unsigned char et_integrity_constant[16] = {0x5c, 0x67, 0xcb, 0x03, 0x1c, 0x18, 0x41, 0x33,
                                                        0xe8, 0xd1, 0x4c, 0x1f, 0xaa, 0x83, 0xd3, 0x8e};

static void et_put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void et_put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static CUresult et_integrity_check(unsigned rt_version, unsigned long long timestamp, unsigned char *out)
{
    CB_REQUIRE_INIT();
    if (!out)
        return CUDA_ERROR_INVALID_VALUE;
    cb_log(CB_LOG_DEBUG, "integrity check [1]: runtime %u, time %llu", rt_version, timestamp);
    if (rt_version % 10 < 2) {
        memcpy(out, et_integrity_constant, 16);
        if (rt_version % 10 == 1)
            out[7] = 24;
        return CUDA_SUCCESS;
    }
    unsigned char msg[48 + 28 * 8];
    size_t len = 48;
    et_put32(msg + 0, CB_DRIVER_VERSION);
    et_put32(msg + 4, rt_version);
    et_put32(msg + 8, cb_process_id());
    et_put32(msg + 12, (uint32_t)cb_thread_self_id());
    et_put64(msg + 16, (uint64_t)(uintptr_t)et_cudart);
    et_put64(msg + 24, (uint64_t)(uintptr_t)et_integrity);
    et_put64(msg + 32, (uint64_t)(uintptr_t)et_integrity_check);
    et_put64(msg + 40, timestamp);
    for (int dev = 0; dev < cb_device_count() && dev < 8; dev++) {
        cb_device *d = cb_device_get(dev);
        int domain = 0, bus = 0, device = 0;
        cb_device_uuid(d, msg + len);
        cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, &domain);
        cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, &bus);
        cb_device_attribute(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, &device);
        et_put32(msg + len + 16, (uint32_t)domain);
        et_put32(msg + len + 20, (uint32_t)bus);
        et_put32(msg + len + 24, (uint32_t)device);
        len += 28;
    }
    cb_hmac_md2(et_integrity_key, msg, len, out);
    return CUDA_SUCCESS;
}

/* ---- cuGetExportTable -------------------------------------------------------- */

typedef struct export_table {
    unsigned char uuid[16];
    const char *name;
    const void *const *table;
} export_table;

static const export_table export_tables[] = {
    {{0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9},
     "cudart interface", et_cudart},
    {{0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66},
     "tools callback hooks", et_hooks},
    {{0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc},
     "tools TLS", et_tls},
    {{0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93},
     "context-local storage", et_cls},
    {{0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e},
     "context checks", et_ctxcheck},
    {{0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2},
     "integrity check", et_integrity},
};

/* Tables a caller asks for and survives being refused (docs/export-tables.md):
 * the refusal is the answer it expects (a PROBE in the inspector). Any other
 * table we do not provide is a private interface of NVIDIA's (cuFFT asks
 * for 21318c60-9714-3248-8ca6-41ff7324c8f2 before it loads a kernel, and
 * gives up without it): refused as an unsupported call, counted by name. */
static const unsigned char probe_tables[][16] = {
    {0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9},
};

enum { REFUSED_TABLE_NAMES = 16 };
/* Process-wide: "cuGetExportTable(<uuid>)" for each refused private table
 * (the unsupported-call list keeps the pointers), under refused_lock. */
static char refused_names[REFUSED_TABLE_NAMES][64];
static size_t refused_count;
static cb_mutex refused_lock = CB_MUTEX_INIT;

/* A name with static lifetime for the unsupported-call count of table u;
 * logs a warning the first time a table is refused. */
static const char *refused_table_name(const unsigned char *u)
{
    char name[64];
    snprintf(name, sizeof name,
             "cuGetExportTable(%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x)", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    const char *out = NULL;
    int first = 0;
    cb_mutex_lock(&refused_lock);
    for (size_t i = 0; i < refused_count && !out; i++)
        if (strcmp(refused_names[i], name) == 0)
            out = refused_names[i];
    if (!out && refused_count < REFUSED_TABLE_NAMES) {
        memcpy(refused_names[refused_count], name, sizeof name);
        out = refused_names[refused_count++];
        first = 1;
    }
    cb_mutex_unlock(&refused_lock);
    if (first)
        cb_log(CB_LOG_WARN, "%s: a private table of NVIDIA's driver that cubridge does not provide; the library "
                            "that asked for it will fail", name);
    return out ? out : "cuGetExportTable(a private table)";
}

CB_EXPORT CUresult cuGetExportTable(const void **ppExportTable, const CUuuid *pExportTableId)
{
    if (!ppExportTable || !pExportTableId)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof export_tables / sizeof export_tables[0]; i++) {
        if (memcmp(export_tables[i].uuid, pExportTableId->bytes, 16) == 0) {
            cb_log(CB_LOG_DEBUG, "cuGetExportTable: %s", export_tables[i].name);
            *ppExportTable = export_tables[i].table;
            return CUDA_SUCCESS;
        }
    }
    const unsigned char *u = (const unsigned char *)pExportTableId->bytes;
    *ppExportTable = NULL;
    for (size_t i = 0; i < sizeof probe_tables / sizeof probe_tables[0]; i++) {
        if (memcmp(probe_tables[i], u, 16) == 0) {
            cb_log(CB_LOG_DEBUG, "cuGetExportTable: optional table %02x%02x%02x%02x-... refused", u[0], u[1], u[2],
                   u[3]);
            return CUDA_ERROR_INVALID_VALUE;
        }
    }
    return cb_driver_not_supported(refused_table_name(u),
                                   "a private export table of NVIDIA's driver that cubridge does not provide");
}
