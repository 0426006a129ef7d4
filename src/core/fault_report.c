/* fault_report.c: a failed launch's message as a person reads it
 * (cb_launch_explain, launch.h): the kernel demangled and named once, and
 * a memory fault's address placed against the allocation table. */
#include <stdio.h>
#include <string.h>

#include "core/launch.h"
#include "core/memory.h"
#include "platform/demangle.h"

void cb_launch_explain(const char *kernel, cb_launch_error *err)
{
    char name[256], head[300], where[256] = "", out[sizeof err->message];
    cb_demangle(kernel, name, sizeof name);
    int n = snprintf(head, sizeof head, "kernel %s failed", name);
    if (n > 0 && strncmp(err->message, head, (size_t)n) == 0)
        return;   /* explained already */
    /* The backend's text starts "kernel MANGLED, block ..." or "kernel MANGLED: ...". */
    const char *m = err->message;
    size_t k = strlen(kernel);
    if (strncmp(m, "kernel ", 7) == 0 && strncmp(m + 7, kernel, k) == 0 && (m[7 + k] == ',' || m[7 + k] == ':')) {
        m += 8 + k;
        while (*m == ' ')
            m++;
    }
    if (err->fault_addr)
        cb_mem_describe_address(err->fault_addr, where, sizeof where);
    if (snprintf(out, sizeof out, "%s: %s%s%s", head, m[0] ? m : "no details", where[0] ? "; " : "", where) < 0)
        return;   /* (a longer text is cut at the buffer's end) */
    memcpy(err->message, out, sizeof out);
}
