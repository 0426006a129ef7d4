/* cpu_log.c: the CPU backend's messages on stderr, filtered by CUBRIDGE_LOG
 * (0 error, 1 warn, 2 info, 3 debug; default 1). */
#include <stdio.h>
#include <stdlib.h>

#include "backend/cpu/cpu_internal.h"

static int log_threshold(void)
{
    const char *s = getenv("CUBRIDGE_LOG");
    if (!s || !*s)
        return CPU_LOG_WARN;
    int v = atoi(s);
    return v < 0 ? 0 : v;
}

void cb_cpu_log(int level, const char *fmt, ...)
{
    static const char *names[] = {"error", "warning", "info", "debug"};
    if (level > log_threshold())
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "cubridge: %s: %s\n", names[level < 0 ? 0 : level > 3 ? 3 : level], line);
}
