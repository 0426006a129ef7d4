/* demangle.c: cb_demangle over libstdc++'s __cxa_demangle (cxxabi.h,
 * declared here because this is C). */
#include "platform/demangle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);

const char *cb_demangle(const char *name, char *out, size_t len)
{
    if (!len)
        return out;
    if (!name)
        name = "";
    int status = -1;
    char *d = strncmp(name, "_Z", 2) == 0 ? __cxa_demangle(name, NULL, NULL, &status) : NULL;
    snprintf(out, len, "%s", status == 0 && d ? d : name);
    free(d);
    return out;
}
