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
    char e[37], t[31], n[61];
    clip(e, sizeof e, entry);
    clip(t, sizeof t, target);
    clip(n, sizeof n, notes);
    fprintf(out, "  %-36s %-30s %-12s %s%-11s%s %-9s %s\n", e, t, sub, colour ? status_colour(status) : "", status,
            colour ? RESET : "", drift, n);
}

void cbi_report_text(FILE *out, int colour)
{
    cbi_record *r = cbi_rec();
    const char *status = cbi_overall_status();
    uint64_t calls = 0, unsupported = 0, probes = 0;
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        calls += r->exports[i].calls;
        unsupported += r->exports[i].unsupported;
        probes += r->exports[i].probes;
    }
    double worst = 0;
    uint64_t nan_inf = 0;
    size_t verified = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        if (r->launches[i].max_rel_l1 > worst)
            worst = r->launches[i].max_rel_l1;
        nan_inf += r->launches[i].nan_inf;
        verified += (size_t)(r->launches[i].verdict == CBI_PASS || r->launches[i].verdict == CBI_DRIFT);
    }
    fprintf(out, "%scubridge inspector%s: %s%s%s | backend %s | %llu calls, %llu unsupported, %llu expected refusals | %zu launches, %zu verified"
                 " | worst rel L1 %.3g | %llu NaN/Inf | peak device memory %.1f MiB\n",
            colour ? BOLD : "", colour ? RESET : "", colour ? status_colour(status) : "", status, colour ? RESET : "",
            r->backend, (unsigned long long)calls, (unsigned long long)unsupported, (unsigned long long)probes,
            r->nlaunches, verified, worst,
            (unsigned long long)nan_inf, r->peak_mem / 1048576.0);
    fprintf(out, "  %-36s %-30s %-12s %-11s %-9s %s\n", "CUDA API entry", "translation target", "subsystem", "status",
            "drift", "notes & traps");
    int shown = 0;
    /* kernels: one row each */
    for (size_t i = 0; i < r->nlaunches && shown < 15; i++) {
        const cbi_launch *l = &r->launches[i];
        int seen = 0;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(r->launches[j].kernel, l->kernel) == 0;
        if (seen)
            continue;
        cbi_verdict v = l->verdict;
        double d = l->max_rel_l1;
        const char *note = l->note;
        for (size_t j = i + 1; j < r->nlaunches; j++) {
            if (strcmp(r->launches[j].kernel, l->kernel) != 0)
                continue;
            if (r->launches[j].verdict == CBI_DRIFT && v != CBI_DRIFT) {
                v = CBI_DRIFT;
                note = r->launches[j].note;
            }
            if (r->launches[j].max_rel_l1 > d)
                d = r->launches[j].max_rel_l1;
        }
        char drift[24] = "-";
        if (v == CBI_PASS || v == CBI_DRIFT)
            snprintf(drift, sizeof drift, "%.2e", d);
        char entry[200];
        snprintf(entry, sizeof entry, "kernel %s", l->kernel);
        row(out, colour, entry, "PTX -> C -> backend", "kernels", cbi_verdict_name(v), drift, note);
        shown++;
    }
    /* entry points: failures first, then the most called */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < CB_EXP__COUNT && shown < 25; i++) {
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
