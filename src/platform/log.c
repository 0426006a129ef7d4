/* log.c: cubridge's diagnostics on stderr, filtered by CUBRIDGE_LOG. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "platform/log.h"
#include "platform/thread.h"

static cb_once log_once = CB_ONCE_INIT;
static int log_level = CB_LOG_WARN; /* process-wide: read once from CUBRIDGE_LOG */

static void log_read_level(void)
{
    const char *s = getenv("CUBRIDGE_LOG");
    if (s && *s) {
        char *end;
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 0)
            log_level = v > CB_LOG_DEBUG ? CB_LOG_DEBUG : (int)v;
    }
}

int cb_log_level(void)
{
    cb_run_once(&log_once, log_read_level);
    return log_level;
}

void cb_log(int level, const char *fmt, ...)
{
    static const char *const names[] = {"error", "warning", "info", "debug"};
    if (level > cb_log_level())
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* One fputs per line keeps lines from different threads whole. */
    char out[1100];
    snprintf(out, sizeof out, "cubridge: %s: %s\n", names[level < 0 ? 0 : level > 3 ? 3 : level], line);
    fputs(out, stderr);
}
