/* report_text.c: the terminal summary (stderr at exit), coloured on a TTY.
 *
 * Columns: CUDA API entry | translation target | subsystem | status |
 * drift | notes & traps. Kernels first, then the entry points that failed,
 * then the busiest others (at most 25 rows; report.html has them all).
 * Status colours: red for failures, grey for PROBE (expected refusals only),
 * green otherwise.
 */
#include <string.h>

#include "inspect/inspect_internal.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define YELLOW "\033[33m"
#define GREY "\033[90m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

static const char *status_colour(const char *s)
{
    if (!strcmp(s, "PASS") || !strcmp(s, "OK") || !strcmp(s, "TRACED"))
        return GREEN;
    if (!strcmp(s, "DRIFT") || !strcmp(s, "UNSUPPORTED") || !strcmp(s, "FAILED") || !strcmp(s, "FAULT") ||
        !strcmp(s, "ERROR"))
        return RED;
    if (!strcmp(s, "PROBE"))
        return GREY;   /* expected refusals: neutral */
    return YELLOW;
}

static void clip(char *out, size_t n, const char *s)
{
    size_t len = strlen(s);
    if (len < n) {
        memcpy(out, s, len + 1);
        return;
    }
    memcpy(out, s, n - 4);
    memcpy(out + n - 4, "...", 4);
}

static void row(FILE *out, int colour, const char *entry, const char *target, const char *sub, const char *status,
                const char *drift, const char *notes)
{
    char e[49], t[25], n[61];
    clip(e, sizeof e, entry);
    clip(t, sizeof t, target);
    clip(n, sizeof n, notes);
    fprintf(out, "  %-48s %-24s %-12s %s%-11s%s %-9s %s\n", e, t, sub, colour ? status_colour(status) : "", status,
            colour ? RESET : "", drift, n);
}

/* "PASS 12, DRIFT 1" with each count in its status colour; only nonzero
 * counts (or "none"). */
static void counts(FILE *out, int colour, const char *const *names, const size_t *v, size_t n)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        if (!v[i])
            continue;
        fprintf(out, "%s%s%s %zu%s", any ? ", " : "", colour ? status_colour(names[i]) : "", names[i], v[i],
                colour ? RESET : "");
        any = 1;
    }
    if (!any)
        fputs("none", out);
}

void cbi_report_text(FILE *out, int colour)
{
    cbi_record *r = cbi_rec();
    const char *status = cbi_overall_status();
    cbi_counts c;
    cbi_count(&c);
    double worst = 0;
    uint64_t nan_inf = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        if (r->launches[i].max_rel_l1 > worst)
            worst = r->launches[i].max_rel_l1;
        nan_inf += r->launches[i].nan_inf;
    }
    for (size_t i = 0; i < r->nlibcalls; i++) {
        if (r->libcalls[i].max_rel_l1 > worst)
            worst = r->libcalls[i].max_rel_l1;
        nan_inf += r->libcalls[i].nan_inf;
    }
    fprintf(out, "%scubridge inspector%s: %s%s%s | backend %s | %llu calls | %zu launches | worst rel L1 %.3g | %llu "
                 "NaN/Inf | peak device memory %.1f MiB\n",
            colour ? BOLD : "", colour ? RESET : "", colour ? status_colour(status) : "", status, colour ? RESET : "",
            r->backend, (unsigned long long)c.calls, r->nlaunches, worst, (unsigned long long)nan_inf,
            r->peak_mem / 1048576.0);
    static const char *const vnames[] = {"DRIFT", "FAILED", "SKIPPED", "PASS", "TRACED"};
    size_t lv[] = {c.launch[CBI_DRIFT], c.launch[CBI_FAILED], c.launch[CBI_SKIPPED], c.launch[CBI_PASS],
                   c.launch[CBI_TRACED]};
    fputs("  launches: ", out);
    counts(out, colour, vnames, lv, 5);
    static const char *const cnames[] = {"UNSUPPORTED", "ERROR", "PROBE", "OK"};
    /* unsupported calls are errors too (CUDA_ERROR_NOT_SUPPORTED) */
    size_t cv[] = {(size_t)c.unsupported, (size_t)(c.call_errors - c.unsupported), (size_t)c.probes,
                   (size_t)(c.calls - c.call_errors - c.probes)};
    fputs(" | calls: ", out);
    counts(out, colour, cnames, cv, 4);
    if (c.lib_calls) {
        /* per call: drifted, not checkable, unsupported, checked within tolerance, traced only */
        static const char *const lnames[] = {"DRIFT", "FAIL", "UNSUPPORTED", "PASS", "OK"};
        uint64_t pass = c.lib_checked > c.lib_drifts ? c.lib_checked - c.lib_drifts : 0;
        uint64_t rest = c.lib_calls - c.lib_unsupported;
        size_t lc[] = {(size_t)c.lib_drifts, (size_t)c.lib_failed_checks, (size_t)c.lib_unsupported, (size_t)pass,
                       (size_t)(rest > c.lib_checked + c.lib_failed_checks ? rest - c.lib_checked - c.lib_failed_checks
                                                                           : 0)};
        fprintf(out, " | %llu library calls: ", (unsigned long long)c.lib_calls);
        counts(out, colour, lnames, lc, 5);
    }
    static cbi_kernel_row rows[64];
    size_t nk = cbi_kernel_rows(rows, 64), warned = 0;
    for (size_t i = 0; i < r->nlaunches; i++)
        warned += (size_t)(r->launches[i].warnings != 0);
    if (warned)
        fprintf(out, " | %s%zu with warnings%s", colour ? YELLOW : "", warned, colour ? RESET : "");
    fputc('\n', out);
    /* warnings: the first of each kernel's, at most 5 kernels */
    for (size_t i = 0, listed = 0; i < nk && listed < 5; i++) {
        if (!rows[i].warned)
            continue;
        fprintf(out, "  %sWARNING%s kernel %s: %s (%zu of its launches)\n", colour ? YELLOW : "", colour ? RESET : "",
                rows[i].demangled, rows[i].warning, rows[i].warned);
        listed++;
    }
    fprintf(out, "  %-48s %-24s %-12s %-11s %-9s %s\n", "CUDA API entry", "translation target", "subsystem", "status",
            "drift", "notes & traps");
    int shown = 0;
    /* kernels: one row each, demangled */
    for (size_t i = 0; i < nk && shown < 15; i++) {
        const cbi_kernel_row *k = &rows[i];
        char drift[24] = "-";
        if (k->verdict == CBI_PASS || k->verdict == CBI_DRIFT)
            snprintf(drift, sizeof drift, "%.2e", k->rel_l1);
        char entry[200], note[400];
        snprintf(entry, sizeof entry, "kernel %s", k->demangled);
        const char *kn = k->note[0] || !k->warned ? k->note : "WARNING: exited lanes named in a warp collective (above)";
        if (k->launches > 1)
            snprintf(note, sizeof note, "%zu launches%s%s", k->launches, kn[0] ? ": " : "", kn);
        else
            snprintf(note, sizeof note, "%s", kn);
        row(out, colour, entry, "PTX -> C -> backend", "kernels", cbi_verdict_name(k->verdict), drift, note);
        shown++;
    }
    /* library functions: problems first, then the checked ones */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < r->nlibcalls && shown < 40; i++) {
            const cbi_library_call *c = &r->libcalls[i];
            const char *st = cbi_library_status(c);
            int bad = strcmp(st, "PASS") != 0 && strcmp(st, "OK") != 0;
            if ((pass == 0) != bad)
                continue;
            char drift[24] = "-", notes[300];
            if (c->checked)
                snprintf(drift, sizeof drift, "%.2e", c->max_rel_l1);
            if (c->note[0])
                snprintf(notes, sizeof notes, "%llux: %s", (unsigned long long)c->calls, c->note);
            else
                snprintf(notes, sizeof notes, "%llux, %llu checked", (unsigned long long)c->calls,
                         (unsigned long long)c->checked);
            row(out, colour, c->function, c->unsupported ? "-" : "facade -> backend BLAS", c->library, st, drift, notes);
            shown++;
        }
    }
    /* entry points: failures first, then the most called */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < CB_EXP__COUNT && shown < 25 + (int)(r->nlibcalls < 15 ? r->nlibcalls : 15); i++) {
            const cbi_export_stats *s = &r->exports[i];
            if (!s->calls || (pass == 0) != (s->errors > 0))
                continue;
            if (pass == 1 && s->calls < 2 && shown > 18)
                continue;
            const char *st = cbi_export_status(s);
            char notes[300];
            if (s->errors)
                snprintf(notes, sizeof notes, "%llu calls, %llu failed: last %s", (unsigned long long)s->calls,
                         (unsigned long long)s->errors, cbi_result_name(s->last_error));
            else if (s->probes)
                snprintf(notes, sizeof notes, "%llu calls, %llu expected refusals (%s)", (unsigned long long)s->calls,
                         (unsigned long long)s->probes, cbi_result_name(s->last_probe));
            else
                snprintf(notes, sizeof notes, "%llux, %.1f us", (unsigned long long)s->calls, s->total_ns / 1000.0);
            row(out, colour, cb_exports[i].name, cbi_export_answered(i) ? cbi_target_of(cb_exports[i].name) : "-",
                cbi_subsystem_of(cb_exports[i].name), st, "-", notes);
            shown++;
        }
    }
}
