/* report_json.c: report.json (schema: docs/report-schema.md), and what
 * every report shares: the counts per status, the exit status a gated run
 * ends with, the launches grouped by kernel, the call-table rows. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/module.h"
#include "core/stats.h"
#include "driver/dispatch.h"
#include "inspect/inspect_internal.h"
#include "platform/process.h"

#define CBI_JSON_MAX_LAUNCHES 20000
#define CBI_JSON_MAX_TIMELINE 4000
#define CBI_TIMELINE_BINS 240
#define CBI_TIMELINE_TRACKS 64
#define CBI_MAX_KERNEL_ROWS 1024

static double finite_or_zero(double v) { return isfinite(v) ? v : 0; }

/* Driver coverage as this process sees it: exports of NVIDIA's libcuda
 * (cbi_cov_entries, library "driver"), implemented here, and tested. */
static void driver_coverage(size_t *mapped, size_t *implemented, size_t *total)
{
    *mapped = *implemented = *total = 0;
    for (size_t i = 0; i < cbi_cov_count; i++) {
        const cbi_cov_entry *e = &cbi_cov_entries[i];
        if (strcmp(e->library, "driver") != 0)
            continue;
        (*total)++;
        int impl = cb_export_implemented(cb_export_find(e->symbol));
        *implemented += (size_t)impl;
        *mapped += (size_t)(impl && e->tested_by);
    }
}

const char *cbi_export_status(const cbi_export_stats *s)
{
    return s->unsupported ? "UNSUPPORTED" : s->errors ? "ERROR" : s->probes ? "PROBE" : "OK";
}

/* ---- counts and the gated exit status ------------------------------------ */

void cbi_count(cbi_counts *c)
{
    cbi_record *r = cbi_rec();
    memset(c, 0, sizeof *c);
    for (size_t i = 0; i < r->nlaunches; i++)
        if ((unsigned)r->launches[i].verdict < 5)
            c->launch[r->launches[i].verdict]++;
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        const cbi_export_stats *s = &r->exports[i];
        c->calls += s->calls;
        c->call_errors += s->errors;
        c->unsupported += s->unsupported;
        c->probes += s->probes;
        if (!s->calls)
            continue;
        const char *st = cbi_export_status(s);
        if (st[0] == 'U')
            c->entries_unsupported++;
        else if (st[0] == 'E')
            c->entries_error++;
        else if (st[0] == 'P')
            c->entries_probe++;
        else
            c->entries_ok++;
    }
    for (size_t i = 0; i < r->nlibcalls; i++) {
        c->lib_functions++;
        c->lib_drift_functions += r->libcalls[i].drifts > 0;
        c->lib_calls += r->libcalls[i].calls;
        c->lib_drifts += r->libcalls[i].drifts;
        c->lib_checked += r->libcalls[i].checked;
        c->lib_unsupported += r->libcalls[i].unsupported;
        c->lib_failed_checks += r->libcalls[i].failed_checks;
        const char *st = cbi_library_status(&r->libcalls[i]);
        for (int k = 0; k < CBI_LIB__COUNT; k++)
            if (!strcmp(st, cbi_lib_status_names[k]))
                c->lib_status[k]++;
    }
}

uint64_t cbi_failures(const cbi_counts *c)
{
    return c->launch[CBI_DRIFT] + c->launch[CBI_FAILED] + c->unsupported + c->lib_drifts + c->lib_unsupported +
           c->lib_failed_checks;
}

void cbi_failures_text(const cbi_counts *c, char *buf, size_t len)
{
    snprintf(buf, len,
             "%zu launches DRIFT, %zu FAILED, %llu UNSUPPORTED calls, %llu library calls DRIFT, %llu UNSUPPORTED, "
             "%llu not checked",
             c->launch[CBI_DRIFT], c->launch[CBI_FAILED], (unsigned long long)c->unsupported,
             (unsigned long long)c->lib_drifts, (unsigned long long)c->lib_unsupported,
             (unsigned long long)c->lib_failed_checks);
}

int cbi_error_exitcode(void)
{
    const char *e = getenv("CUBRIDGE_ERROR_EXITCODE");
    if (e && *e) {
        char *end;
        long v = strtol(e, &end, 10);
        if (!*end && v >= 0 && v <= 255)
            return (int)v;
    }
    return (cb_inspect_flags & CB_INSPECT_STRICT) ? 3 : 0;
}

int cbi_final_exit_status(int program_status)
{
    int code = cbi_error_exitcode();
    if (!code)
        return program_status;
    cbi_counts c;
    cbi_count(&c);
    return cbi_failures(&c) ? code : program_status;
}

const char *cbi_overall_status(void)
{
    cbi_counts c;
    cbi_count(&c);
    if (c.launch[CBI_DRIFT] || c.lib_drifts)
        return "DRIFT";
    if ((c.unsupported || c.lib_unsupported) && (cb_inspect_flags & CB_INSPECT_STRICT))
        return "UNSUPPORTED";
    if (c.launch[CBI_FAILED] || c.lib_failed_checks)
        return "FAULT";
    if (c.launch[CBI_PASS] || c.lib_checked)
        return "PASS";
    return (cb_inspect_flags & CB_INSPECT_VERIFY) ? "PASS" : "TRACED";
}

/* ---- kernels ---------------------------------------------------------------- */

int cbi_verdict_rank(cbi_verdict v)
{
    static const int rank[] = {0, 1, 4, 2, 3};   /* TRACED < PASS < SKIPPED < FAILED < DRIFT */
    return (unsigned)v < 5 ? rank[v] : 0;
}

size_t cbi_kernel_rows(cbi_kernel_row *rows, size_t max)
{
    cbi_record *r = cbi_rec();
    size_t n = 0, last = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        const cbi_launch *l = &r->launches[i];
        size_t k = last < n && strcmp(rows[last].name, l->kernel) == 0 ? last : 0;   /* runs of one kernel */
        while (k < n && strcmp(rows[k].name, l->kernel) != 0)
            k++;
        if (k == n) {
            if (n == max)
                continue;
            memset(&rows[n], 0, sizeof rows[n]);
            rows[n].name = l->kernel;
            rows[n].verdict = l->verdict;
            rows[n].first = i;
            rows[n].note = "";
            rows[n].warning = "";
            cb_demangle(l->kernel, rows[n].demangled, sizeof rows[n].demangled);
            n++;
        }
        last = k;
        cbi_kernel_row *row = &rows[k];
        row->launches++;
        if ((unsigned)l->verdict < 5)
            row->by_verdict[l->verdict]++;
        row->total_ns += l->dur;
        if (cbi_verdict_rank(l->verdict) > cbi_verdict_rank(row->verdict))
            row->verdict = l->verdict;
        if (l->max_rel_l1 > row->rel_l1)
            row->rel_l1 = l->max_rel_l1;
        if (l->max_abs > row->max_abs)
            row->max_abs = l->max_abs;
        if (l->note[0] && (!row->note[0] || cbi_verdict_rank(l->verdict) > row->note_rank)) {
            row->note = l->note;
            row->note_rank = cbi_verdict_rank(l->verdict);
        }
        if (l->warnings && !row->warned++)
            row->warning = l->warning;
    }
    return n;
}

/* ---- JSON ---------------------------------------------------------------------- */

static void json_str(FILE *f, const char *key, const char *v)
{
    fprintf(f, "\"%s\":\"", key);
    cbi_json_escape(f, v);
    fputc('"', f);
}

void cbi_json_argv(FILE *f)
{
    static char buf[8192];
    const char *argv[64];
    size_t n = cb_proc_cmdline(buf, sizeof buf, argv, 64);
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fputs(i ? ",\"" : "\"", f);
        cbi_json_escape(f, argv[i]);
        fputc('"', f);
    }
    fputc(']', f);
}

static void json_verdict_counts(FILE *f, const size_t *v)
{
    fprintf(f, "{\"PASS\":%zu,\"DRIFT\":%zu,\"FAILED\":%zu,\"SKIPPED\":%zu,\"TRACED\":%zu}", v[CBI_PASS],
            v[CBI_DRIFT], v[CBI_FAILED], v[CBI_SKIPPED], v[CBI_TRACED]);
}

static void json_program(FILE *f)
{
    cbi_record *r = cbi_rec();
    fputs("\"program\":{\"argv\":", f);
    cbi_json_argv(f);
    if (r->exited)
        fprintf(f, ",\"exit_status\":%d,\"exit_status_final\":%d}", r->exit_status,
                cbi_final_exit_status(r->exit_status));
    else
        fputs(",\"exit_status\":null,\"exit_status_final\":null}", f);
}

static void json_summary(FILE *f)
{
    cbi_record *r = cbi_rec();
    cbi_counts c;
    cbi_count(&c);
    uint64_t nan_inf = 0;
    size_t warned = 0;
    double worst_rel = 0, worst_abs = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        const cbi_launch *l = &r->launches[i];
        nan_inf += l->nan_inf;
        warned += (size_t)(l->warnings != 0);
        if (l->max_rel_l1 > worst_rel)
            worst_rel = l->max_rel_l1;
        if (l->max_abs > worst_abs)
            worst_abs = l->max_abs;
    }
    double lib_worst_rel = 0;   /* the library functions' checked calls */
    for (size_t i = 0; i < r->nlibcalls; i++)
        if (r->libcalls[i].checked && r->libcalls[i].max_rel_l1 > lib_worst_rel)
            lib_worst_rel = r->libcalls[i].max_rel_l1;
    size_t mapped, implemented, total;
    driver_coverage(&mapped, &implemented, &total);
    fprintf(f, "\"summary\":{");
    json_str(f, "status", cbi_overall_status());
    fputc(',', f);
    json_str(f, "backend", r->backend);
    fputc(',', f);
    json_str(f, "device", r->device);
    fprintf(f, ",\"coverage\":{\"library\":\"driver\",\"mapped\":%zu,\"implemented\":%zu,\"total\":%zu}", mapped,
            implemented, total);
    fprintf(f, ",\"worst_rel_l1\":%.17g,\"worst_abs\":%.17g,\"nan_inf\":%llu,\"peak_device_bytes\":%zu",
            finite_or_zero(worst_rel), finite_or_zero(worst_abs), (unsigned long long)nan_inf, r->peak_mem);
    fprintf(f, ",\"calls\":%llu,\"call_errors\":%llu,\"probe_refusals\":%llu,\"unsupported_calls\":%llu",
            (unsigned long long)c.calls, (unsigned long long)c.call_errors, (unsigned long long)c.probes,
            (unsigned long long)c.unsupported);
    fprintf(f, ",\"launches\":%zu,\"verified\":%zu,\"drift\":%zu,\"skipped\":%zu,\"failed\":%zu,\"launches_dropped\":%llu",
            r->nlaunches, c.launch[CBI_PASS] + c.launch[CBI_DRIFT], c.launch[CBI_DRIFT], c.launch[CBI_SKIPPED],
            c.launch[CBI_FAILED], (unsigned long long)r->launches_dropped);
    fprintf(f, ",\"warnings\":%zu", warned);
    fprintf(f, ",\"modules\":{\"loading\":\"%s\",\"registered\":%llu,\"kernels\":%llu,\"translated\":%llu,"
               "\"compiled\":%llu}",
            cb_module_lazy_loading() ? "lazy" : "eager", (unsigned long long)cb_stats_get(CB_STAT_MODULES_LOADED),
            (unsigned long long)cb_stats_get(CB_STAT_KERNELS_REGISTERED),
            (unsigned long long)cb_stats_get(CB_STAT_KERNELS_TRANSLATED),
            (unsigned long long)cb_stats_get(CB_STAT_KERNELS_COMPILED));
    fputs(",\"status_counts\":{\"launches\":", f);
    json_verdict_counts(f, c.launch);
    fprintf(f, ",\"entry_points\":{\"OK\":%zu,\"ERROR\":%zu,\"UNSUPPORTED\":%zu,\"PROBE\":%zu}", c.entries_ok,
            c.entries_error, c.entries_unsupported, c.entries_probe);
    fputs(",\"library_functions\":{", f);
    for (int i = 0; i < CBI_LIB__COUNT; i++)
        fprintf(f, "%s\"%s\":%zu", i ? "," : "", cbi_lib_status_names[i], c.lib_status[i]);
    fputs("}}", f);
    fprintf(f, ",\"failures\":%llu,\"error_exitcode\":%d", (unsigned long long)cbi_failures(&c),
            cbi_error_exitcode());
    fprintf(f, ",\"library_calls\":%llu,\"library_checked\":%llu,\"library_drift\":%llu,\"library_unsupported\":%llu",
            (unsigned long long)c.lib_calls, (unsigned long long)c.lib_checked, (unsigned long long)c.lib_drifts,
            (unsigned long long)c.lib_unsupported);
    fprintf(f, ",\"library_worst_rel_l1\":%.17g", finite_or_zero(lib_worst_rel));
    fprintf(f, ",\"duration_ns\":%llu}", (unsigned long long)r->end_ns);
}

static void json_kernels(FILE *f, const cbi_kernel_row *rows, size_t nk)
{
    fputs("\"kernels\":[", f);
    for (size_t i = 0; i < nk; i++) {
        const cbi_kernel_row *k = &rows[i];
        fprintf(f, "%s\n{", i ? "," : "");
        json_str(f, "name", k->name);
        fputc(',', f);
        json_str(f, "demangled", k->demangled);
        fprintf(f, ",\"launches\":%zu,\"verdict\":\"%s\",\"verdicts\":", k->launches, cbi_verdict_name(k->verdict));
        json_verdict_counts(f, k->by_verdict);
        fprintf(f, ",\"worst_rel_l1\":%.17g,\"max_abs\":%.17g,\"total_ns\":%llu,\"first_launch\":%zu,",
                finite_or_zero(k->rel_l1), finite_or_zero(k->max_abs), (unsigned long long)k->total_ns, k->first);
        json_str(f, "note", k->note);
        fprintf(f, ",\"warnings\":%zu,", k->warned);
        json_str(f, "warning", k->warning);
        fputc('}', f);
    }
    fputs("]", f);
}

static void json_rows(FILE *f, const cbi_kernel_row *rows, size_t nk)
{
    cbi_record *r = cbi_rec();
    int first = 1;
    fputs("\"calls\":[", f);
    for (size_t i = 0; i < nk; i++) {
        const cbi_kernel_row *k = &rows[i];
        fprintf(f, "%s\n{\"kind\":\"kernel\",", first ? "" : ",");
        first = 0;
        char entry[220];
        snprintf(entry, sizeof entry, "kernel %s", k->name);
        json_str(f, "entry", entry);
        fputc(',', f);
        json_str(f, "demangled", k->demangled);
        fputc(',', f);
        char target[96];
        snprintf(target, sizeof target, "PTX -> C -> %s backend", r->backend[0] ? r->backend : "cpu");
        json_str(f, "target", target);
        fprintf(f, ",\"subsystem\":\"kernels\",\"status\":\"%s\",\"drift\":", cbi_verdict_name(k->verdict));
        if (k->verdict == CBI_PASS || k->verdict == CBI_DRIFT)
            fprintf(f, "%.17g,\"max_abs\":%.17g", finite_or_zero(k->rel_l1), finite_or_zero(k->max_abs));
        else
            fputs("null,\"max_abs\":null", f);
        fprintf(f, ",\"count\":%zu,\"total_ns\":%llu,\"warnings\":%zu,", k->launches, (unsigned long long)k->total_ns,
                k->warned);
        char notes[600];
        if (k->warned)
            snprintf(notes, sizeof notes, "%s%sWARNING (%zu launches): %s", k->note, k->note[0] ? "; " : "", k->warned,
                     k->warning);
        json_str(f, "notes", k->warned ? notes : k->note);
        fputc('}', f);
    }
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        const cbi_export_stats *s = &r->exports[i];
        if (!s->calls)
            continue;
        const char *name = cb_exports[i].name;
        const char *status = cbi_export_status(s);
        char notes[600], probe_note[160] = "";
        if (s->probes)
            snprintf(probe_note, sizeof probe_note, "%llu expected refusals (%s: probing); ",
                     (unsigned long long)s->probes, cbi_result_name(s->last_probe));
        if (!cbi_export_answered(i))
            snprintf(notes, sizeof notes, "%s: CUDA_ERROR_NOT_SUPPORTED", cb_dispatch_stub_reason());
        else if (s->errors)
            snprintf(notes, sizeof notes, "%llu of %llu calls failed, last with %s; %sfirst call: %s",
                     (unsigned long long)s->errors, (unsigned long long)s->calls, cbi_result_name(s->last_error),
                     probe_note, s->first_args);
        else
            snprintf(notes, sizeof notes, "%sfirst call: %s", probe_note, s->first_args);
        fprintf(f, "%s\n{\"kind\":\"api\",", first ? "" : ",");
        first = 0;
        json_str(f, "entry", name);
        fputc(',', f);
        json_str(f, "target", cbi_export_answered(i) ? cbi_target_of(name) : "-");
        fputc(',', f);
        json_str(f, "subsystem", cbi_subsystem_of(name));
        fprintf(f, ",\"status\":\"%s\",\"drift\":null,\"max_abs\":null,\"count\":%llu,\"total_ns\":%llu,\"errors\":%llu,",
                status, (unsigned long long)s->calls, (unsigned long long)s->total_ns, (unsigned long long)s->errors);
        json_str(f, "notes", notes);
        fputc('}', f);
    }
    for (size_t i = 0; i < r->nlibcalls; i++) {
        const cbi_library_call *c = &r->libcalls[i];
        const char *status = cbi_library_status(c);
        fprintf(f, "%s\n{\"kind\":\"library\",", first ? "" : ",");
        first = 0;
        json_str(f, "entry", c->function);
        fputc(',', f);
        json_str(f, "target", c->unsupported ? "-" : "library facade -> backend BLAS, checked against a C reference (double)");
        fputc(',', f);
        json_str(f, "subsystem", c->library);
        fprintf(f, ",\"status\":\"%s\",\"drift\":", status);
        if (c->checked)
            fprintf(f, "%.17g,\"max_abs\":%.17g", finite_or_zero(c->max_rel_l1), finite_or_zero(c->max_abs));
        else
            fputs("null,\"max_abs\":null", f);
        fprintf(f, ",\"count\":%llu,\"total_ns\":%llu,\"errors\":%llu,\"checked\":%llu,\"drifts\":%llu,"
                   "\"nan_inf\":%llu,\"untouched\":%s,\"all_zero\":%s,",
                (unsigned long long)c->calls, (unsigned long long)c->total_ns, (unsigned long long)c->errors,
                (unsigned long long)c->checked, (unsigned long long)c->drifts, (unsigned long long)c->nan_inf,
                c->untouched ? "true" : "false", c->all_zero ? "true" : "false");
        char notes[600];
        if (c->errors && !c->unsupported)
            snprintf(notes, sizeof notes, "%llu of %llu calls failed, last with %s; %s%sfirst call: %s",
                     (unsigned long long)c->errors, (unsigned long long)c->calls, c->last_error, c->note,
                     c->note[0] ? "; " : "", c->first_args);
        else
            snprintf(notes, sizeof notes, "%s%sfirst call: %s", c->note, c->note[0] ? "; " : "", c->first_args);
        json_str(f, "notes", notes);
        fputc('}', f);
    }
    fputs("]", f);
}

/* The index of kernel name among rows (launches mostly come in runs). */
static long kernel_index(const cbi_kernel_row *rows, size_t nk, const char *name, long *hint)
{
    if (*hint >= 0 && (size_t)*hint < nk && strcmp(rows[*hint].name, name) == 0)
        return *hint;
    for (size_t k = 0; k < nk; k++)
        if (strcmp(rows[k].name, name) == 0)
            return *hint = (long)k;
    return -1;
}

static void json_launches(FILE *f, const cbi_kernel_row *rows, size_t nk)
{
    cbi_record *r = cbi_rec();
    long hint = -1;
    fputs("\"launches\":[", f);
    for (size_t i = 0; i < r->nlaunches && i < CBI_JSON_MAX_LAUNCHES; i++) {
        const cbi_launch *l = &r->launches[i];
        fprintf(f, "%s\n{\"index\":%zu,", i ? "," : "", i);
        json_str(f, "kernel", l->kernel);
        fprintf(f, ",\"k\":%ld,\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"smem\":%u,\"regs\":%u,\"stream\":%llu,"
                   "\"t_ns\":%llu,\"dur_ns\":%llu,\"result\":\"%s\",\"verdict\":\"%s\",\"max_abs\":%.17g,"
                   "\"max_rel_l1\":%.17g,\"nan_inf\":%llu,",
                kernel_index(rows, nk, l->kernel, &hint), l->grid[0], l->grid[1], l->grid[2], l->block[0],
                l->block[1], l->block[2], l->smem, l->regs, l->stream, (unsigned long long)l->t0,
                (unsigned long long)l->dur, cbi_result_name(l->result), cbi_verdict_name(l->verdict),
                finite_or_zero(l->max_abs), finite_or_zero(l->max_rel_l1), (unsigned long long)l->nan_inf);
        json_str(f, "note", l->note);
        fprintf(f, ",\"warnings\":%u,", l->warnings);
        json_str(f, "warning", l->warning);
        fputs(",\"regions\":[", f);
        for (uint32_t k = 0; k < l->nregions; k++) {
            const cbi_region_result *g = &l->regions[k];
            fprintf(f, "%s{", k ? "," : "");
            json_str(f, "name", g->name);
            fprintf(f, ",\"type\":\"%s\",\"bytes\":%zu,\"compared\":%llu,\"mismatched\":%llu,\"max_abs\":%.17g,"
                       "\"rel_l1\":%.17g,\"nan_inf\":%llu,\"untouched\":%s,\"all_zero\":%s,\"first_bad\":%lld,\"failed\":%s",
                    cbi_elem_name(g->type), g->bytes, (unsigned long long)g->diff.compared,
                    (unsigned long long)g->diff.mismatched, finite_or_zero(g->diff.max_abs),
                    finite_or_zero(g->diff.rel_l1), (unsigned long long)g->diff.nan_inf,
                    g->diff.untouched ? "true" : "false", g->diff.all_zero ? "true" : "false",
                    (long long)g->diff.first_bad, g->failed ? "true" : "false");
            if (g->diff.first_bad >= 0) {
                char got[48], want[48];
                cbi_format_first(got, sizeof got, &g->diff, 0);
                cbi_format_first(want, sizeof want, &g->diff, 1);
                fprintf(f, ",\"first_got\":\"%s\",\"first_want\":\"%s\"", got, want);
            }
            fputc('}', f);
        }
        fputs("]}", f);
    }
    fprintf(f, "],\"launches_in_json\":%zu", r->nlaunches < CBI_JSON_MAX_LAUNCHES ? r->nlaunches
                                                                                  : (size_t)CBI_JSON_MAX_LAUNCHES);
}

/* The track an event is drawn on. */
static void event_track(const cbi_event *e, char *track, size_t len)
{
    if (e->kind == CBI_EV_CALL || e->kind == CBI_EV_RANGE || e->kind == CBI_EV_LIBCALL)
        snprintf(track, len, "host thread %u", e->track);
    else
        snprintf(track, len, "stream %u", e->track);
}

static const char *event_name(const cbi_event *e, const cbi_kernel_row *rows, size_t nk, char *buf, size_t len)
{
    cbi_record *r = cbi_rec();
    if (e->kind == CBI_EV_CALL)
        return cb_exports[e->id].name;
    if (e->kind == CBI_EV_RANGE)
        return cbi_range_name(e->id);
    if (e->kind == CBI_EV_LIBCALL)
        return e->id >= 0 && (size_t)e->id < r->nlibcalls ? r->libcalls[e->id].function : "library call";
    if (e->id >= 0 && (size_t)e->id < r->nlaunches) {
        long hint = -1;
        long k = kernel_index(rows, nk, r->launches[e->id].kernel, &hint);
        return k >= 0 ? rows[k].demangled : cb_demangle(r->launches[e->id].kernel, buf, len);
    }
    return "kernel";
}

/* Every event in CBI_TIMELINE_BINS bins per track: busy time, events
 * started, and the longest event (by name) of each bin, for a timeline of
 * any length (the first events are also listed one by one). */
static void json_timeline_bins(FILE *f, const cbi_kernel_row *rows, size_t nk)
{
    cbi_record *r = cbi_rec();
    typedef struct {
        int kind;
        uint32_t id;
        uint64_t busy[CBI_TIMELINE_BINS];
        uint32_t count[CBI_TIMELINE_BINS];
        const cbi_event *longest[CBI_TIMELINE_BINS];
    } track;
    track *tracks = calloc(CBI_TIMELINE_TRACKS, sizeof *tracks);
    size_t ntracks = 0;
    uint64_t t1 = 1;
    for (size_t i = 0; i < r->nevents; i++)
        if (r->events[i].kind != CBI_EV_MEM && r->events[i].t0 + r->events[i].dur > t1)
            t1 = r->events[i].t0 + r->events[i].dur;
    double width = (double)t1 / CBI_TIMELINE_BINS;
    for (size_t i = 0; tracks && i < r->nevents; i++) {
        const cbi_event *e = &r->events[i];
        if (e->kind == CBI_EV_MEM)
            continue;
        int kind = e->kind == CBI_EV_RANGE || e->kind == CBI_EV_LIBCALL ? CBI_EV_CALL : e->kind;   /* on their host thread's lane */
        size_t t = 0;
        while (t < ntracks && !(tracks[t].kind == kind && tracks[t].id == e->track))
            t++;
        if (t == ntracks) {
            if (ntracks == CBI_TIMELINE_TRACKS)
                continue;
            tracks[ntracks].kind = kind;
            tracks[ntracks].id = e->track;
            ntracks++;
        }
        size_t b0 = (size_t)(e->t0 / width), b1 = (size_t)((e->t0 + e->dur) / width);
        if (b0 >= CBI_TIMELINE_BINS)
            b0 = CBI_TIMELINE_BINS - 1;
        if (b1 >= CBI_TIMELINE_BINS)
            b1 = CBI_TIMELINE_BINS - 1;
        tracks[t].count[b0]++;
        for (size_t b = b0; b <= b1; b++) {
            double lo = b * width, hi = lo + width;
            double s = e->t0 > lo ? (double)e->t0 : lo, x = (double)(e->t0 + e->dur) < hi ? (double)(e->t0 + e->dur) : hi;
            if (x > s)
                tracks[t].busy[b] += (uint64_t)(x - s);
            if (!tracks[t].longest[b] || e->dur > tracks[t].longest[b]->dur)
                tracks[t].longest[b] = e;
        }
    }
    fprintf(f, "\"timeline_bins\":{\"t1_ns\":%llu,\"bins\":%d,\"tracks\":[", (unsigned long long)t1,
            CBI_TIMELINE_BINS);
    for (size_t t = 0; t < ntracks; t++) {
        char name[48], buf[160];
        cbi_event probe = {.kind = (int16_t)tracks[t].kind, .track = tracks[t].id};
        event_track(&probe, name, sizeof name);
        fprintf(f, "%s\n{\"track\":\"%s\",\"kind\":\"%s\",\"busy_ns\":[", t ? "," : "", name,
                tracks[t].kind == CBI_EV_CALL ? "call" : "launch");
        for (size_t b = 0; b < CBI_TIMELINE_BINS; b++)
            fprintf(f, "%s%llu", b ? "," : "", (unsigned long long)tracks[t].busy[b]);
        fputs("],\"count\":[", f);
        for (size_t b = 0; b < CBI_TIMELINE_BINS; b++)
            fprintf(f, "%s%u", b ? "," : "", tracks[t].count[b]);
        fputs("],\"top\":[", f);
        for (size_t b = 0; b < CBI_TIMELINE_BINS; b++) {
            fputs(b ? ",\"" : "\"", f);
            if (tracks[t].longest[b])
                cbi_json_escape(f, event_name(tracks[t].longest[b], rows, nk, buf, sizeof buf));
            fputc('"', f);
        }
        fputs("]}", f);
    }
    fputs("]}", f);
    free(tracks);
}

static void json_timeline(FILE *f, const cbi_kernel_row *rows, size_t nk)
{
    cbi_record *r = cbi_rec();
    fputs("\"timeline\":[", f);
    size_t n = 0, all = 0;
    for (size_t i = 0; i < r->nevents; i++) {
        const cbi_event *e = &r->events[i];
        if (e->kind == CBI_EV_MEM)
            continue;
        if (all++ >= CBI_JSON_MAX_TIMELINE)
            continue;
        char track[48], buf[160];
        event_track(e, track, sizeof track);
        fprintf(f, "%s\n{\"track\":\"%s\",\"kind\":\"%s\",", n ? "," : "", track,
                e->kind == CBI_EV_CALL      ? "call"
                : e->kind == CBI_EV_RANGE   ? (e->dur ? "range" : "mark")
                : e->kind == CBI_EV_LIBCALL ? "library"
                                            : "launch");
        json_str(f, "name", event_name(e, rows, nk, buf, sizeof buf));
        fprintf(f, ",\"t_ns\":%llu,\"dur_ns\":%llu,\"ok\":%s%s}", (unsigned long long)e->t0,
                (unsigned long long)e->dur, e->result == 0 || e->probe || e->kind == CBI_EV_RANGE ? "true" : "false",
                e->probe ? ",\"probe\":true" : "");
        n++;
    }
    fprintf(f, "],\"timeline_events\":%zu,\"events_dropped\":%llu,\n", all, (unsigned long long)r->events_dropped);
    json_timeline_bins(f, rows, nk);
    fputs(",\n\"memory\":[", f);
    n = 0;
    for (size_t i = 0; i < r->nevents && n < CBI_JSON_MAX_TIMELINE; i++) {
        const cbi_event *e = &r->events[i];
        if (e->kind != CBI_EV_MEM)
            continue;
        fprintf(f, "%s{\"t_ns\":%llu,\"bytes\":%llu}", n ? "," : "", (unsigned long long)e->t0,
                (unsigned long long)e->mem_used);
        n++;
    }
    fputs("]", f);
}

void cbi_json_report(FILE *f)
{
    cbi_record *r = cbi_rec();
    static cbi_kernel_row rows[CBI_MAX_KERNEL_ROWS];
    size_t nk = cbi_kernel_rows(rows, CBI_MAX_KERNEL_ROWS);
    fprintf(f, "{\"schema\":\"cubridge-inspect-report/3.2\",\"version\":\"%s\",", CUBRIDGE_VERSION);
    fprintf(f, "\"mode\":{\"trace\":%s,\"verify\":%s,\"strict\":%s,\"fault\":\"%s\"},",
            (cb_inspect_flags & CB_INSPECT_TRACE) ? "true" : "false",
            (cb_inspect_flags & CB_INSPECT_VERIFY) ? "true" : "false",
            (cb_inspect_flags & CB_INSPECT_STRICT) ? "true" : "false", r->fault);
    json_summary(f);
    fputs(",\n", f);
    json_program(f);
    fprintf(f, ",\n\"dispatch_path\":[\"program\",\"NVIDIA cudart (static or shared)\",\"cubridge libcuda.so.1 "
               "(driver API, export tables)\",\"core: contexts, memory arena, streams\",\"PTX -> C translation, cc, JIT "
               "cache\",\"%s backend\"],\n",
            r->backend[0] ? r->backend : "cpu");
    json_kernels(f, rows, nk);
    fputs(",\n", f);
    json_rows(f, rows, nk);
    fputs(",\n", f);
    json_launches(f, rows, nk);
    fputs(",\n", f);
    json_timeline(f, rows, nk);
    fputs("}\n", f);
}

int cbi_report_json(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        return -1;
    }
    cbi_json_report(f);
    return fclose(f) == 0 ? 0 : -1;
}
