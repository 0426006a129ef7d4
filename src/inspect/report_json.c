/* report_json.c: report.json (schema: docs/report-schema.md), and the
 * status and call-table rows that every report shares. */
#include <math.h>
#include <string.h>

#include "inspect/inspect_internal.h"

#define CBI_JSON_MAX_LAUNCHES 5000
#define CBI_JSON_MAX_TIMELINE 4000

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

const char *cbi_overall_status(void)
{
    cbi_record *r = cbi_rec();
    int drift = 0, pass = 0, failed = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        drift |= r->launches[i].verdict == CBI_DRIFT;
        pass |= r->launches[i].verdict == CBI_PASS;
        failed |= r->launches[i].verdict == CBI_FAILED;
    }
    for (size_t i = 0; i < r->nlibcalls; i++)
        drift |= r->libcalls[i].drifts > 0;
    uint64_t unsupported = 0;
    for (int i = 0; i < CB_EXP__COUNT; i++)
        unsupported += r->exports[i].unsupported;
    if (drift)
        return "DRIFT";
    if (unsupported && (cb_inspect_flags & CB_INSPECT_STRICT))
        return "UNSUPPORTED";
    if (failed)
        return "FAULT";
    if (pass)
        return "PASS";
    return (cb_inspect_flags & CB_INSPECT_VERIFY) ? "PASS" : "TRACED";
}

const char *cbi_export_status(const cbi_export_stats *s)
{
    return s->unsupported ? "UNSUPPORTED" : s->errors ? "ERROR" : s->probes ? "PROBE" : "OK";
}

static void json_str(FILE *f, const char *key, const char *v)
{
    fprintf(f, "\"%s\":\"", key);
    cbi_json_escape(f, v);
    fputc('"', f);
}

static void json_summary(FILE *f)
{
    cbi_record *r = cbi_rec();
    uint64_t calls = 0, unsupported = 0, errors = 0, probes = 0, nan_inf = 0;
    size_t verified = 0, drift = 0, skipped = 0;
    double worst_rel = 0, worst_abs = 0;
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        calls += r->exports[i].calls;
        unsupported += r->exports[i].unsupported;
        errors += r->exports[i].errors;
        probes += r->exports[i].probes;
    }
    for (size_t i = 0; i < r->nlaunches; i++) {
        const cbi_launch *l = &r->launches[i];
        verified += (size_t)(l->verdict == CBI_PASS || l->verdict == CBI_DRIFT);
        drift += (size_t)(l->verdict == CBI_DRIFT);
        skipped += (size_t)(l->verdict == CBI_SKIPPED);
        nan_inf += l->nan_inf;
        if (l->max_rel_l1 > worst_rel)
            worst_rel = l->max_rel_l1;
        if (l->max_abs > worst_abs)
            worst_abs = l->max_abs;
    }
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
    fprintf(f, ",\"worst_rel_l1\":%.6g,\"worst_abs\":%.6g,\"nan_inf\":%llu,\"peak_device_bytes\":%zu",
            finite_or_zero(worst_rel), finite_or_zero(worst_abs), (unsigned long long)nan_inf, r->peak_mem);
    fprintf(f, ",\"calls\":%llu,\"call_errors\":%llu,\"probe_refusals\":%llu,\"unsupported_calls\":%llu",
            (unsigned long long)calls, (unsigned long long)errors, (unsigned long long)probes,
            (unsigned long long)unsupported);
    fprintf(f, ",\"launches\":%zu,\"verified\":%zu,\"drift\":%zu,\"skipped\":%zu,\"launches_dropped\":%llu", r->nlaunches,
            verified, drift, skipped, (unsigned long long)r->launches_dropped);
    fprintf(f, ",\"duration_ns\":%llu}", (unsigned long long)r->end_ns);
}

/* The worst verdict of kernel name's launches, its largest drift and a note. */
typedef struct kernel_row {
    const char *name;
    size_t launches;
    cbi_verdict verdict;
    double rel_l1, max_abs;
    uint64_t total_ns;
    const char *note;
} kernel_row;

static int verdict_rank(cbi_verdict v)
{
    static const int rank[] = {0, 1, 4, 2, 3};   /* TRACED < PASS < SKIPPED < FAILED < DRIFT */
    return (unsigned)v < 5 ? rank[v] : 0;
}

static size_t kernel_rows(kernel_row *rows, size_t max)
{
    cbi_record *r = cbi_rec();
    size_t n = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        const cbi_launch *l = &r->launches[i];
        size_t k = 0;
        while (k < n && strcmp(rows[k].name, l->kernel) != 0)
            k++;
        if (k == n) {
            if (n == max)
                continue;
            rows[n++] = (kernel_row){.name = l->kernel, .verdict = l->verdict, .note = ""};
        }
        kernel_row *row = &rows[k];
        row->launches++;
        row->total_ns += l->dur;
        if (verdict_rank(l->verdict) > verdict_rank(row->verdict))
            row->verdict = l->verdict;
        if (l->max_rel_l1 > row->rel_l1)
            row->rel_l1 = l->max_rel_l1;
        if (l->max_abs > row->max_abs)
            row->max_abs = l->max_abs;
        if (l->note[0] && (!row->note[0] || l->verdict == CBI_DRIFT))
            row->note = l->note;
    }
    return n;
}

static void json_rows(FILE *f)
{
    cbi_record *r = cbi_rec();
    int first = 1;
    fputs("\"calls\":[", f);
    static kernel_row rows[512];
    size_t nk = kernel_rows(rows, 512);
    for (size_t i = 0; i < nk; i++) {
        const kernel_row *k = &rows[i];
        fprintf(f, "%s\n{\"kind\":\"kernel\",", first ? "" : ",");
        first = 0;
        char entry[220];
        snprintf(entry, sizeof entry, "kernel %s", k->name);
        json_str(f, "entry", entry);
        fputc(',', f);
        char target[96];
        snprintf(target, sizeof target, "PTX -> C -> %s backend", r->backend[0] ? r->backend : "cpu");
        json_str(f, "target", target);
        fprintf(f, ",\"subsystem\":\"kernels\",\"status\":\"%s\",\"drift\":", cbi_verdict_name(k->verdict));
        if (k->verdict == CBI_PASS || k->verdict == CBI_DRIFT)
            fprintf(f, "%.6g,\"max_abs\":%.6g", finite_or_zero(k->rel_l1), finite_or_zero(k->max_abs));
        else
            fputs("null,\"max_abs\":null", f);
        fprintf(f, ",\"count\":%zu,\"total_ns\":%llu,", k->launches, (unsigned long long)k->total_ns);
        json_str(f, "notes", k->note);
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
            snprintf(notes, sizeof notes, "%s: CUDA_ERROR_NOT_SUPPORTED",
                     strcmp(r->backend, "cuda") == 0 ? "not exported by NVIDIA's libcuda.so.1"
                                                     : "not implemented by cubridge");
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
        fprintf(f, "%s\n{\"kind\":\"library\",", first ? "" : ",");
        first = 0;
        json_str(f, "entry", c->function);
        fputc(',', f);
        json_str(f, "target", "library facade, checked against a C reference (double accumulation)");
        fputc(',', f);
        json_str(f, "subsystem", c->library);
        fprintf(f, ",\"status\":\"%s\",\"drift\":%.6g,\"max_abs\":%.6g,\"count\":%llu,\"total_ns\":0,\"notes\":\"\"}",
                c->drifts ? "DRIFT" : "PASS", finite_or_zero(c->max_rel_l1), finite_or_zero(c->max_abs),
                (unsigned long long)c->calls);
    }
    fputs("]", f);
}

static void json_launches(FILE *f)
{
    cbi_record *r = cbi_rec();
    fputs("\"launches\":[", f);
    for (size_t i = 0; i < r->nlaunches && i < CBI_JSON_MAX_LAUNCHES; i++) {
        const cbi_launch *l = &r->launches[i];
        fprintf(f, "%s\n{\"index\":%zu,", i ? "," : "", i);
        json_str(f, "kernel", l->kernel);
        fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"smem\":%u,\"regs\":%u,\"stream\":%llu,\"t_ns\":%llu,"
                   "\"dur_ns\":%llu,\"result\":\"%s\",\"verdict\":\"%s\",\"max_abs\":%.6g,\"max_rel_l1\":%.6g,\"nan_inf\":%llu,",
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->smem, l->regs, l->stream,
                (unsigned long long)l->t0, (unsigned long long)l->dur, cbi_result_name(l->result),
                cbi_verdict_name(l->verdict), finite_or_zero(l->max_abs), finite_or_zero(l->max_rel_l1),
                (unsigned long long)l->nan_inf);
        json_str(f, "note", l->note);
        fputs(",\"regions\":[", f);
        for (uint32_t k = 0; k < l->nregions; k++) {
            const cbi_region_result *g = &l->regions[k];
            fprintf(f, "%s{", k ? "," : "");
            json_str(f, "name", g->name);
            fprintf(f, ",\"type\":\"%s\",\"bytes\":%zu,\"compared\":%llu,\"mismatched\":%llu,\"max_abs\":%.6g,"
                       "\"rel_l1\":%.6g,\"nan_inf\":%llu,\"untouched\":%s,\"all_zero\":%s,\"first_bad\":%lld,\"failed\":%s}",
                    cbi_elem_name(g->type), g->bytes, (unsigned long long)g->diff.compared,
                    (unsigned long long)g->diff.mismatched, finite_or_zero(g->diff.max_abs),
                    finite_or_zero(g->diff.rel_l1), (unsigned long long)g->diff.nan_inf,
                    g->diff.untouched ? "true" : "false", g->diff.all_zero ? "true" : "false",
                    (long long)g->diff.first_bad, g->failed ? "true" : "false");
        }
        fputs("]}", f);
    }
    fputs("]", f);
}

static void json_timeline(FILE *f)
{
    cbi_record *r = cbi_rec();
    fputs("\"timeline\":[", f);
    size_t n = 0;
    for (size_t i = 0; i < r->nevents && n < CBI_JSON_MAX_TIMELINE; i++) {
        const cbi_event *e = &r->events[i];
        if (e->kind == CBI_EV_MEM)
            continue;
        char track[48];
        const char *name;
        if (e->kind == CBI_EV_CALL) {
            snprintf(track, sizeof track, "host thread %u", e->track);
            name = cb_exports[e->id].name;
        } else if (e->kind == CBI_EV_RANGE) {
            snprintf(track, sizeof track, "host thread %u", e->track);
            name = cbi_range_name(e->id);
        } else {
            snprintf(track, sizeof track, "stream %u", e->track);
            name = e->id >= 0 && (size_t)e->id < r->nlaunches ? r->launches[e->id].kernel : "kernel";
        }
        fprintf(f, "%s\n{\"track\":\"%s\",\"kind\":\"%s\",", n ? "," : "", track,
                e->kind == CBI_EV_CALL    ? "call"
                : e->kind == CBI_EV_RANGE ? (e->dur ? "range" : "mark")
                                          : "launch");
        json_str(f, "name", name);
        fprintf(f, ",\"t_ns\":%llu,\"dur_ns\":%llu,\"ok\":%s%s}", (unsigned long long)e->t0,
                (unsigned long long)e->dur, e->result == 0 || e->probe || e->kind == CBI_EV_RANGE ? "true" : "false",
                e->probe ? ",\"probe\":true" : "");
        n++;
    }
    fputs("],\"memory\":[", f);
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
    fprintf(f, "{\"schema\":\"cubridge-inspect-report/2\",\"version\":\"%s\",", CUBRIDGE_VERSION);
    fprintf(f, "\"mode\":{\"trace\":%s,\"verify\":%s,\"strict\":%s,\"fault\":\"%s\"},",
            (cb_inspect_flags & CB_INSPECT_TRACE) ? "true" : "false",
            (cb_inspect_flags & CB_INSPECT_VERIFY) ? "true" : "false",
            (cb_inspect_flags & CB_INSPECT_STRICT) ? "true" : "false", r->fault);
    json_summary(f);
    fprintf(f, ",\n\"dispatch_path\":[\"program\",\"NVIDIA cudart (static or shared)\",\"cubridge libcuda.so.1 "
               "(driver API, export tables)\",\"core: contexts, memory arena, streams\",\"PTX -> C translation, cc, JIT "
               "cache\",\"%s backend\"],\n",
            r->backend[0] ? r->backend : "cpu");
    json_rows(f);
    fputs(",\n", f);
    json_launches(f);
    fputs(",\n", f);
    json_timeline(f);
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
