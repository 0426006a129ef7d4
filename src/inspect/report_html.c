/* report_html.c: report.html, one file, no network: the page of
 * report_page.html (embedded at build time) with the report JSON inlined in
 * a <script type="application/json"> at its REPORT-DATA marker, rendered by
 * the page's inline JavaScript: status counts, kernels grouped with a
 * drill-down to each launch, drift per kernel, the call table, the
 * dispatch path and the timeline. */
#include <string.h>

#include "inspect/inspect_internal.h"

/* The page's bytes, NUL-terminated (the build writes the .inc from
 * report_page.html with scripts/embed_text.cmake). */
static const char cbi_report_page_text[] = {
#include "inspect/report_page.html.inc"
};

int cbi_report_html(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        return -1;
    }
    static const char marker[] = "<!--REPORT-DATA-->";
    const char *page = cbi_report_page_text, *at = strstr(page, marker);
    if (!at)
        at = page + strlen(page);
    fwrite(page, 1, (size_t)(at - page), f);
    fputs("<script id=\"report-data\" type=\"application/json\">\n", f);
    cbi_json_report(f);
    fputs("</script>", f);
    if (*at)
        fputs(at + sizeof marker - 1, f);
    return fclose(f) == 0 ? 0 : -1;
}
