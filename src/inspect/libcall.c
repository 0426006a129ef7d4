/* libcall.c: library calls, traced and checked against plain C references.
 *
 * The library facades (src/lib: cuBLAS ...) report here through the library
 * services of libcuda.so.1 (lib/common/lib_services.h): every traced call
 * (cb_inspect_library_trace), every answer of NOT_SUPPORTED
 * (cb_inspect_library_unsupported) and, in verify mode, every result with
 * the reference a plain C implementation accumulating in double computed
 * (cb_inspect_library_check). Each library function has one row in the
 * record (cbi_library_call), which the reports show beside kernels and
 * driver entry points. docs/libraries.md.
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

uint64_t cb_inspect_now(void) { return cbi_now(); }

/* The row of library/function, made on first use; NULL when out of memory.
 * Lock held. */
static cbi_library_call *row_of(const char *library, const char *function)
{
    cbi_record *r = cbi_rec();
    for (size_t i = 0; i < r->nlibcalls; i++)
        if (strcmp(r->libcalls[i].function, function) == 0 && strcmp(r->libcalls[i].library, library) == 0)
            return &r->libcalls[i];
    if (r->nlibcalls == r->caplibcalls) {
        size_t cap = r->caplibcalls ? r->caplibcalls * 2 : 64;
        cbi_library_call *grown = realloc(r->libcalls, cap * sizeof *grown);
        if (!grown)
            return NULL;
        r->libcalls = grown;
        r->caplibcalls = cap;
    }
    cbi_library_call *c = &r->libcalls[r->nlibcalls++];
    memset(c, 0, sizeof *c);
    snprintf(c->library, sizeof c->library, "%s", library);
    snprintf(c->function, sizeof c->function, "%s", function);
    return c;
}

/* "name":"value",... -> name=value ... (the call table's readable form). */
static void readable_args(char *out, size_t cap, const char *args)
{
    size_t o = 0, len = strlen(args);
    for (size_t i = 0; i < len && o + 2 < cap; i++) {
        char ch = args[i];
        if (ch == '"' || ch == '\\')
            continue;
        if (ch == ':' && i > 0 && args[i - 1] == '"' && i + 1 < len && args[i + 1] == '"')
            ch = '=';
        if (ch == ',' && i + 1 < len && args[i + 1] == '"' && i > 0 && args[i - 1] == '"')
            ch = ' ';
        out[o++] = ch;
    }
    out[o] = 0;
}

void cb_inspect_library_trace(const char *library, const char *function, const char *args, const char *status,
                              int failed, int unsupported, uint64_t t0, uint64_t t1)
{
    if (!cb_inspect_flags)
        return;
    uint32_t track = cbi_thread_index();
    cbi_lock();
    cbi_library_call *c = row_of(library, function);
    long id = -1;
    if (c) {
        id = (long)(c - cbi_rec()->libcalls);
        if (c->calls == 0)
            readable_args(c->first_args, sizeof c->first_args, args ? args : "");
        c->calls++;
        c->total_ns += t1 - t0;
        c->errors += (uint64_t)(failed != 0);
        c->unsupported += (uint64_t)(unsupported != 0);
        if (failed && status)
            snprintf(c->last_error, sizeof c->last_error, "%s", status);
        cbi_event ev = {.t0 = t0, .dur = t1 - t0, .track = track, .kind = CBI_EV_LIBCALL,
                        .result = (int16_t)(failed != 0), .id = (int32_t)id};
        cbi_add_event(&ev);
    }
    cbi_unlock();
    char line[2048];
    int n = snprintf(line, sizeof line,
                     "{\"type\":\"libcall\",\"t_ns\":%llu,\"dur_ns\":%llu,\"thread\":%u,\"library\":\"%s\",\"name\":\"%s\","
                     "\"args\":{%s},\"result\":\"%s\"}\n",
                     (unsigned long long)t0, (unsigned long long)(t1 - t0), track, library, function, args ? args : "",
                     status ? status : "-");
    if (n > 0 && (size_t)n < sizeof line)
        cbi_jsonl(line, (size_t)n);
}

void cb_inspect_library_unsupported(const char *library, const char *function, const char *why)
{
    if (cb_inspect_flags & CB_INSPECT_STRICT)
        cb_log(CB_LOG_ERROR, "strict: %s %s is UNSUPPORTED (%s)", library, function, why ? why : "not implemented");
    if (!cb_inspect_flags)
        return;
    cbi_lock();
    cbi_library_call *c = row_of(library, function);
    if (c && !c->note[0])
        snprintf(c->note, sizeof c->note, "NOT_SUPPORTED: %s", why ? why : "not implemented by cubridge");
    cbi_unlock();
}

int cb_inspect_library_check(const char *library, const char *function, const cb_inspect_output *outs,
                             size_t nouts, const char *note)
{
    if (!cb_inspect_flags)
        return 0;
    if (!outs) {   /* the check could not be made: note says why */
        cbi_lock();
        cbi_library_call *c = row_of(library, function);
        if (c) {
            c->failed_checks++;
            snprintf(c->note, sizeof c->note, "FAIL: %s", note ? note : "not checked");
        }
        cbi_unlock();
        return 0;
    }
    int drift = 0, untouched = 0, all_zero = 0;
    double max_abs = 0, max_rel = 0;
    uint64_t nan_inf = 0;
    char first[200] = "";
    for (size_t i = 0; i < nouts; i++) {
        const cb_inspect_output *o = &outs[i];
        size_t w = cbi_elem_size(o->type);
        if (o->type == CB_ELEM_INT || o->type == CB_ELEM_BYTES)
            w = o->elem_bytes ? o->elem_bytes : (o->type == CB_ELEM_INT ? 4 : 1);
        cbi_tolerance tol = cbi_tolerance_of(o->type);
        if (o->tolerance_scale > 0) {
            tol.rtol *= o->tolerance_scale;
            tol.atol *= o->tolerance_scale;
        }
        cbi_diff d;
        cbi_compare(o->result, o->reference, o->before, o->count * w, o->type, w, 0, tol, &d);
        if (cbi_diff_failed(&d)) {
            drift = 1;
            if (!first[0]) {
                if (d.first_bad >= 0) {
                    char got[48], want[48];
                    cbi_format_first(got, sizeof got, &d, 0);
                    cbi_format_first(want, sizeof want, &d, 1);
                    snprintf(first, sizeof first, "output %s element [%lld]: got %s, reference %s",
                             o->name ? o->name : "?", (long long)d.first_bad, got, want);
                } else
                    snprintf(first, sizeof first, "output %s: %s", o->name ? o->name : "?",
                             d.untouched ? "left untouched" : d.all_zero ? "all zero" : "NaN/Inf introduced");
            }
        }
        untouched |= d.untouched;
        all_zero |= d.all_zero;
        nan_inf += d.nan_inf;
        if (d.max_abs > max_abs)
            max_abs = d.max_abs;
        if (d.rel_l1 > max_rel)
            max_rel = d.rel_l1;
    }
    if (drift)
        cb_log(CB_LOG_ERROR, "inspector: DRIFT in %s %s: %s", library, function, first);
    cbi_lock();
    cbi_library_call *c = row_of(library, function);
    if (c) {
        c->checked++;
        c->drifts += (uint64_t)drift;
        c->nan_inf += nan_inf;
        c->untouched |= untouched;
        c->all_zero |= all_zero;
        if (max_abs > c->max_abs)
            c->max_abs = max_abs;
        if (max_rel > c->max_rel_l1)
            c->max_rel_l1 = max_rel;
        if (drift && c->drifts == 1)
            snprintf(c->note, sizeof c->note, "DRIFT: %s", first);
        else if (!c->drifts && note)
            snprintf(c->note, sizeof c->note, "%s", note);
    }
    cbi_unlock();
    char line[1024];
    int n = snprintf(line, sizeof line,
                     "{\"type\":\"libcheck\",\"t_ns\":%llu,\"library\":\"%s\",\"name\":\"%s\",\"verdict\":\"%s\","
                     "\"max_abs\":%.6g,\"rel_l1\":%.6g,\"nan_inf\":%llu,\"untouched\":%s,\"all_zero\":%s}\n",
                     (unsigned long long)cbi_now(), library, function, drift ? "DRIFT" : "PASS",
                     max_abs == max_abs ? max_abs : 0.0, max_rel == max_rel ? max_rel : 0.0, (unsigned long long)nan_inf,
                     untouched ? "true" : "false", all_zero ? "true" : "false");
    if (n > 0 && (size_t)n < sizeof line)
        cbi_jsonl(line, (size_t)n);
    return drift;
}

int cb_inspect_library_call(const char *library, const char *function, const cb_inspect_output *outs,
                            size_t nouts)
{
    return cb_inspect_library_check(library, function, outs, nouts, NULL);
}

const char *const cbi_lib_status_names[CBI_LIB__COUNT] = {"PASS", "DRIFT", "FAIL", "ERROR", "UNSUPPORTED", "OK"};

const char *cbi_library_status(const cbi_library_call *c)
{
    if (c->unsupported)
        return "UNSUPPORTED";
    if (c->drifts)
        return "DRIFT";
    if (c->failed_checks)
        return "FAIL";
    if (c->errors)
        return "ERROR";
    if (c->checked)
        return "PASS";
    return "OK";
}
