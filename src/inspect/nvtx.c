/* nvtx.c: NVTX ranges and marks into the inspector's trace.
 *
 * NVTX 3 is header-only: a program's first nvtx* call loads the library
 * named by NVTX_INJECTION64_PATH and calls its InitializeInjectionNvtx2
 * with a function that hands out NVTX's export tables. From the callbacks
 * table, GetModuleFunctionTable(module) gives an array of pointers to the
 * program's own function-pointer slots, indexed by callback id; the tool
 * writes its handlers there. (Facts from the toolkit's nvtx3 headers,
 * nvtxDetail/nvtxInit.h and nvtxTypes.h.) `cubridge run` sets
 * NVTX_INJECTION64_PATH to our libcuda.so.1, which exports the entry point
 * below; with the inspector off each handler is one branch.
 *
 * Handled: the core module (nvtxMarkA/Ex, nvtxRangeStartA/Ex,
 * nvtxRangeEnd, nvtxRangePushA/Ex, nvtxRangePop) and the domain module
 * (nvtxDomainCreateA, nvtxDomainRegisterStringA, nvtxDomainMarkEx,
 * nvtxDomainRangeStartEx/End, nvtxDomainRangePushEx/Pop), which nvtx3.hpp's
 * scoped_range uses. Messages are ASCII or registered strings; wide
 * strings are shown as "(wide string)". Everything else stays NVTX's no-op.
 *
 * Process-wide state: nvtx_next_id (start/end range ids) and the interned
 * domain and registered-string names (nvtx_strings, under nvtx_lock; they
 * live as long as the process, as NVTX handles do). Per thread: the push
 * depth, which nvtxRangePush/Pop return.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

/* ---- NVTX's ABI (nvtx3/nvtxDetail/nvtxTypes.h, nvToolsExt.h) ---------------- */

typedef void (*nvtx_fn)(void);
typedef const void *(*nvtx_get_export_table)(uint32_t id);
typedef struct nvtx_callbacks {
    size_t struct_size;
    int (*get_module_function_table)(int module, nvtx_fn ***table, unsigned *size);
} nvtx_callbacks;

enum { NVTX_ETID_CALLBACKS = 1 };
enum { NVTX_MODULE_CORE = 1, NVTX_MODULE_CORE2 = 5 };
enum {
    NVTX_CORE_MarkEx = 1, NVTX_CORE_MarkA = 2, NVTX_CORE_RangeStartEx = 4, NVTX_CORE_RangeStartA = 5,
    NVTX_CORE_RangeEnd = 7, NVTX_CORE_RangePushEx = 8, NVTX_CORE_RangePushA = 9, NVTX_CORE_RangePop = 11,
};
enum {
    NVTX_CORE2_DomainMarkEx = 1, NVTX_CORE2_DomainRangeStartEx = 2, NVTX_CORE2_DomainRangeEnd = 3,
    NVTX_CORE2_DomainRangePushEx = 4, NVTX_CORE2_DomainRangePop = 5, NVTX_CORE2_DomainRegisterStringA = 10,
    NVTX_CORE2_DomainCreateA = 12,
};
enum { NVTX_MESSAGE_ASCII = 1, NVTX_MESSAGE_UNICODE = 2, NVTX_MESSAGE_REGISTERED = 3 };

/* nvtxEventAttributes_v2: version, size, category, colour type, colour,
 * payload type, reserved, payload (8 bytes), message type, message. */
typedef struct nvtx_attributes {
    uint16_t version, size;
    uint32_t category;
    int32_t color_type;
    uint32_t color;
    int32_t payload_type, reserved0;
    uint64_t payload;
    int32_t message_type;
    const void *message;
} nvtx_attributes;

/* ---- names ------------------------------------------------------------------ */

enum { NVTX_STRINGS = 1024 };
static cb_mutex nvtx_lock = CB_MUTEX_INIT;
static char *nvtx_strings[NVTX_STRINGS];
static size_t nvtx_nstrings;
static _Atomic uint64_t nvtx_next_id = 1u << 20;   /* above the profiler's id 1 */
static _Thread_local int nvtx_depth;

/* A handle for a domain or registered string: its interned copy. */
static const char *nvtx_intern(const char *s)
{
    const char *out = "(too many NVTX strings)";
    if (!s)
        s = "(null)";
    cb_mutex_lock(&nvtx_lock);
    for (size_t i = 0; i < nvtx_nstrings; i++)
        if (strcmp(nvtx_strings[i], s) == 0) {
            out = nvtx_strings[i];
            goto done;
        }
    if (nvtx_nstrings < NVTX_STRINGS) {
        char *copy = strdup(s);
        if (copy)
            out = nvtx_strings[nvtx_nstrings++] = copy;
    }
done:
    cb_mutex_unlock(&nvtx_lock);
    return out;
}

/* The text of an event: the message, prefixed by the domain's name. */
static const char *nvtx_text(const void *domain, const nvtx_attributes *a, char *buf, size_t len)
{
    const char *msg = "(no message)";
    if (a && a->size >= 48 && a->message) {
        if (a->message_type == NVTX_MESSAGE_ASCII || a->message_type == NVTX_MESSAGE_REGISTERED)
            msg = (const char *)a->message;
        else if (a->message_type == NVTX_MESSAGE_UNICODE)
            msg = "(wide string)";
    }
    if (!domain)
        return msg;
    snprintf(buf, len, "%s: %s", (const char *)domain, msg);
    return buf;
}

/* ---- handlers --------------------------------------------------------------- */

static void nvtx_mark_a(const char *message) { cb_inspect_mark(CB_RANGE_NVTX, message); }

static void nvtx_domain_mark_ex(const void *domain, const nvtx_attributes *a)
{
    char buf[160];
    cb_inspect_mark(CB_RANGE_NVTX, nvtx_text(domain, a, buf, sizeof buf));
}

static void nvtx_mark_ex(const nvtx_attributes *a) { nvtx_domain_mark_ex(NULL, a); }

static uint64_t nvtx_start(const char *text)
{
    uint64_t id = atomic_fetch_add(&nvtx_next_id, 1);
    cb_inspect_range_begin(CB_RANGE_NVTX, text, id);
    return id;
}

static uint64_t nvtx_range_start_a(const char *message) { return nvtx_start(message); }

static uint64_t nvtx_domain_range_start_ex(const void *domain, const nvtx_attributes *a)
{
    char buf[160];
    return nvtx_start(nvtx_text(domain, a, buf, sizeof buf));
}

static uint64_t nvtx_range_start_ex(const nvtx_attributes *a) { return nvtx_domain_range_start_ex(NULL, a); }

static void nvtx_range_end(uint64_t id) { cb_inspect_range_end(CB_RANGE_NVTX, id); }

static void nvtx_domain_range_end(const void *domain, uint64_t id)
{
    (void)domain;
    nvtx_range_end(id);
}

/* Push returns the depth of the new range (0 for the outermost). */
static int nvtx_push(const char *text)
{
    cb_inspect_range_begin(CB_RANGE_NVTX, text, 0);
    return nvtx_depth++;
}

static int nvtx_range_push_a(const char *message) { return nvtx_push(message); }

static int nvtx_domain_range_push_ex(const void *domain, const nvtx_attributes *a)
{
    char buf[160];
    return nvtx_push(nvtx_text(domain, a, buf, sizeof buf));
}

static int nvtx_range_push_ex(const nvtx_attributes *a) { return nvtx_domain_range_push_ex(NULL, a); }

/* Pop returns the depth of the range it ended, or a negative number when
 * none was open. */
static int nvtx_range_pop(void)
{
    if (nvtx_depth == 0)
        return -1;
    cb_inspect_range_end(CB_RANGE_NVTX, 0);
    return --nvtx_depth;
}

static int nvtx_domain_range_pop(const void *domain)
{
    (void)domain;
    return nvtx_range_pop();
}

static const void *nvtx_domain_create_a(const char *name) { return nvtx_intern(name); }

static const void *nvtx_domain_register_string_a(const void *domain, const char *s)
{
    (void)domain;
    return nvtx_intern(s);
}

/* ---- the injection entry point ----------------------------------------------- */

/* Writes fn into slot id of module's table (if the table has it). */
static void nvtx_install(const nvtx_callbacks *cb, int module, unsigned id, nvtx_fn fn)
{
    nvtx_fn **table = NULL;
    unsigned size = 0;
    if (cb->get_module_function_table(module, &table, &size) && table && id < size && table[id])
        *table[id] = fn;
}

#define NVTX_SET(module, id, fn) nvtx_install(cb, module, id, (nvtx_fn)(void (*)(void))(fn))

/* NVTX's loader calls this once, from the program's first nvtx* call.
 * Returns 1: our handlers are in place. */
CB_EXPORT int InitializeInjectionNvtx2(nvtx_get_export_table get_export_table)
{
    const nvtx_callbacks *cb = get_export_table ? get_export_table(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || cb->struct_size < sizeof *cb || !cb->get_module_function_table)
        return 0;
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_MarkEx, nvtx_mark_ex);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_MarkA, nvtx_mark_a);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangeStartEx, nvtx_range_start_ex);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangeStartA, nvtx_range_start_a);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangeEnd, nvtx_range_end);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangePushEx, nvtx_range_push_ex);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangePushA, nvtx_range_push_a);
    NVTX_SET(NVTX_MODULE_CORE, NVTX_CORE_RangePop, nvtx_range_pop);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainMarkEx, nvtx_domain_mark_ex);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainRangeStartEx, nvtx_domain_range_start_ex);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainRangeEnd, nvtx_domain_range_end);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainRangePushEx, nvtx_domain_range_push_ex);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainRangePop, nvtx_domain_range_pop);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainRegisterStringA, nvtx_domain_register_string_a);
    NVTX_SET(NVTX_MODULE_CORE2, NVTX_CORE2_DomainCreateA, nvtx_domain_create_a);
    cb_log(CB_LOG_DEBUG, "NVTX: ranges and marks go to the inspector's trace");
    return 1;
}
