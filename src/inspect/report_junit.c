/* report_junit.c: junit.xml, the per-kernel verdicts in the JUnit XML
 * format that CI systems read (GitLab, Jenkins, GitHub test reporters):
 *
 *   <testsuites name="cubridge inspect: PROGRAM" tests= failures= errors= skipped= time=>
 *     <testsuite name="kernels">       one <testcase> per kernel (its launches together)
 *     <testsuite name="library calls"> one per library function traced or checked against its C reference
 *     <testsuite name="driver API">    one per entry point answered CUDA_ERROR_NOT_SUPPORTED
 *
 * A kernel with a DRIFT launch is a <failure type="DRIFT">; one whose
 * launch failed (a fault) an <error type="FAILED">; one whose every launch
 * was SKIPPED is <skipped>; PASS and TRACED kernels pass. An unsupported
 * entry point, and a library function that answered NOT_SUPPORTED, is a
 * <failure type="UNSUPPORTED">; a library function that drifted is a
 * <failure type="DRIFT">, one whose result could not be checked an
 * <error type="FAIL">. The test case's name is
 * the demangled kernel name; <system-out> gives the mangled name and the
 * counts. docs/inspector.md, "JUnit XML". */
#include <string.h>

#include "inspect/inspect_internal.h"
#include "platform/process.h"

static void xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\n': fputs("&#10;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
            break;
        }
    }
}

/* A library function's <failure>/<error> (tag) of type: n of its calls
 * `what`, with the row's note. */
static void lib_problem(FILE *f, const char *tag, const char *type, uint64_t n, const cbi_library_call *c,
                        const char *what)
{
    fprintf(f, "<%s type=\"%s\" message=\"%llu of %llu calls %s", tag, type, (unsigned long long)n,
            (unsigned long long)c->calls, what);
    if (c->note[0]) {
        fputs(": ", f);
        xml(f, c->note);
    }
    fputs("\"/>", f);
}

int cbi_report_junit(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        return -1;
    }
    cbi_record *r = cbi_rec();
    static cbi_kernel_row rows[1024];
    size_t nk = cbi_kernel_rows(rows, 1024);
    size_t kfail = 0, kerr = 0, kskip = 0, lfail = 0, lerr = 0, nunsup = 0;
    for (size_t i = 0; i < nk; i++) {
        kfail += rows[i].verdict == CBI_DRIFT;
        kerr += rows[i].verdict == CBI_FAILED;
        kskip += rows[i].verdict == CBI_SKIPPED;
    }
    for (size_t i = 0; i < r->nlibcalls; i++) {
        const char *st = cbi_library_status(&r->libcalls[i]);
        lfail += strcmp(st, "DRIFT") == 0 || strcmp(st, "UNSUPPORTED") == 0;
        lerr += strcmp(st, "FAIL") == 0;
    }
    for (int i = 0; i < CB_EXP__COUNT; i++)
        nunsup += r->exports[i].unsupported > 0;
    char name[256] = "program";
    {
        static char buf[4096];
        const char *argv[2];
        if (cb_proc_cmdline(buf, sizeof buf, argv, 1))
            snprintf(name, sizeof name, "%s", argv[0]);
    }
    size_t tests = nk + r->nlibcalls + nunsup;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cubridge inspect: ");
    xml(f, name);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.6f\">\n", tests,
            kfail + lfail + nunsup, kerr + lerr, kskip, r->end_ns / 1e9);
    uint64_t ktime = 0;
    for (size_t i = 0; i < nk; i++)
        ktime += rows[i].total_ns;
    fprintf(f, "  <testsuite name=\"kernels\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
               "time=\"%.6f\">\n", nk, kfail, kerr, kskip, ktime / 1e9);
    for (size_t i = 0; i < nk; i++) {
        const cbi_kernel_row *k = &rows[i];
        fputs("    <testcase classname=\"kernels\" name=\"", f);
        xml(f, k->demangled);
        fprintf(f, "\" time=\"%.6f\">\n", k->total_ns / 1e9);
        char counts[200];
        snprintf(counts, sizeof counts, "%zu launches: %zu PASS, %zu DRIFT, %zu FAILED, %zu SKIPPED, %zu TRACED; "
                 "worst rel L1 %.3g", k->launches, k->by_verdict[CBI_PASS], k->by_verdict[CBI_DRIFT],
                 k->by_verdict[CBI_FAILED], k->by_verdict[CBI_SKIPPED], k->by_verdict[CBI_TRACED], k->rel_l1);
        const char *tag = k->verdict == CBI_DRIFT ? "failure" : k->verdict == CBI_FAILED ? "error" : NULL;
        if (tag) {
            fprintf(f, "      <%s type=\"%s\" message=\"", tag, cbi_verdict_name(k->verdict));
            xml(f, k->note[0] ? k->note : cbi_verdict_name(k->verdict));
            fputs("\">", f);
            xml(f, counts);
            fprintf(f, "</%s>\n", tag);
        } else if (k->verdict == CBI_SKIPPED) {
            fputs("      <skipped message=\"", f);
            xml(f, k->note);
            fputs("\"/>\n", f);
        }
        fputs("      <system-out>mangled name: ", f);
        xml(f, k->name);
        fputs("&#10;", f);
        xml(f, counts);
        fputs("</system-out>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
    fprintf(f, "  <testsuite name=\"library calls\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n",
            r->nlibcalls, lfail, lerr);
    for (size_t i = 0; i < r->nlibcalls; i++) {
        const cbi_library_call *c = &r->libcalls[i];
        fputs("    <testcase classname=\"", f);
        xml(f, c->library);
        fputs("\" name=\"", f);
        xml(f, c->function);
        fputs("\">", f);
        const char *st = cbi_library_status(c);
        if (strcmp(st, "UNSUPPORTED") == 0)
            lib_problem(f, "failure", st, c->unsupported, c, "answered NOT_SUPPORTED");
        else if (strcmp(st, "DRIFT") == 0)
            fprintf(f, "<failure type=\"DRIFT\" message=\"%llu of %llu calls drifted; worst rel L1 %.3g\"/>",
                    (unsigned long long)c->drifts, (unsigned long long)c->calls, c->max_rel_l1);
        else if (strcmp(st, "FAIL") == 0)
            lib_problem(f, "error", st, c->failed_checks, c, "could not be checked");
        fputs("</testcase>\n", f);
    }
    fputs("  </testsuite>\n", f);
    fprintf(f, "  <testsuite name=\"driver API\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", nunsup,
            nunsup);
    for (int i = 0; i < CB_EXP__COUNT; i++) {
        const cbi_export_stats *s = &r->exports[i];
        if (!s->unsupported)
            continue;
        fprintf(f, "    <testcase classname=\"driver API\" name=\"%s\"><failure type=\"UNSUPPORTED\" "
                   "message=\"%llu calls answered CUDA_ERROR_NOT_SUPPORTED\"/></testcase>\n",
                cb_exports[i].name, (unsigned long long)s->unsupported);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
