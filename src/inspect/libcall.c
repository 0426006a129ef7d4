/* libcall.c: library calls checked against plain C references.
 *
 * The hook for the library facades (cuBLAS, cuDNN ... in src/libs, a later
 * step): a facade computes its result on the backend and with a C reference
 * that accumulates in double, and hands both to cb_inspect_library_call.
 */
#include <string.h>

#include "inspect/inspect_internal.h"

int cb_inspect_library_call(const char *library, const char *function, const cb_inspect_output *outs,
                            size_t nouts)
{
    if (!cb_inspect_flags)
        return 0;
    int drift = 0;
    double max_abs = 0, max_rel = 0;
    for (size_t i = 0; i < nouts; i++) {
        const cb_inspect_output *o = &outs[i];
        size_t w = cbi_elem_size(o->type);
        if (w == 0)
            w = 4;   /* CB_ELEM_INT: 32-bit integers */
        cbi_diff d;
        cbi_compare(o->result, o->reference, NULL, o->count * w, o->type, w, 0, cbi_tolerance_of(o->type), &d);
        if (cbi_diff_failed(&d)) {
            drift = 1;
            char got[48], want[48];
            cbi_format_first(got, sizeof got, &d, 0);
            cbi_format_first(want, sizeof want, &d, 1);
            cb_log(CB_LOG_ERROR, "inspector: DRIFT in %s %s: output %s element [%lld]: got %s, reference %s",
                   library, function, o->name ? o->name : "?", (long long)d.first_bad, got, want);
        }
        if (d.max_abs > max_abs)
            max_abs = d.max_abs;
        if (d.rel_l1 > max_rel)
            max_rel = d.rel_l1;
    }
    cbi_lock();
    cbi_record *r = cbi_rec();
    cbi_library_call *c = NULL;
    for (size_t i = 0; i < r->nlibcalls && !c; i++)
        if (strcmp(r->libcalls[i].library, library) == 0 && strcmp(r->libcalls[i].function, function) == 0)
            c = &r->libcalls[i];
    if (!c && r->nlibcalls < sizeof r->libcalls / sizeof r->libcalls[0]) {
        c = &r->libcalls[r->nlibcalls++];
        memset(c, 0, sizeof *c);
        snprintf(c->library, sizeof c->library, "%s", library);
        snprintf(c->function, sizeof c->function, "%s", function);
    }
    if (c) {
        c->calls++;
        c->drifts += (uint64_t)drift;
        if (max_abs > c->max_abs)
            c->max_abs = max_abs;
        if (max_rel > c->max_rel_l1)
            c->max_rel_l1 = max_rel;
    }
    cbi_unlock();
    return drift;
}
