/* printf_fifo.c: the OpenCL backend's printf FIFO (opencl_internal.h).
 *
 * A kernel's vprintf appends a record to a region of the heap
 * (codegen/opencl/printf.c has the layout); after the launch the backend
 * reads the bytes claimed, formats each record with the formatter the CPU
 * backend uses (src/backend/device_printf.c), writes the text to stdout in
 * the order the records were claimed, and empties the FIFO for the next
 * launch. Records that did not fit are counted and reported on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/device_printf.h"
#include "backend/opencl/opencl_internal.h"

typedef struct record_view {
    const unsigned char *rec;
    uint32_t total, str_at;
} record_view;

/* A %s argument: the offset of its copy in the record (0: NULL). */
static const char *record_string(void *ctx, uint64_t value)
{
    const record_view *r = ctx;
    if (!value || value < r->str_at || value >= r->total)
        return NULL;
    const char *s = (const char *)r->rec + value;
    return memchr(s, 0, r->total - value) ? s : NULL;
}

static uint32_t get_u32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Formats the record at rec (at most room bytes); returns its size, or 0 when it is malformed. */
static uint32_t print_record(const unsigned char *rec, uint32_t room, FILE *out)
{
    if (room < 16)
        return 0;
    uint32_t total = get_u32(rec), fmt = get_u32(rec + 4), args = get_u32(rec + 8), strs = get_u32(rec + 12);
    uint64_t fb = ((uint64_t)fmt + 7) & ~(uint64_t)7, ab = ((uint64_t)args + 7) & ~(uint64_t)7;
    if (total > room || total % 8 || !fmt || 16 + fb + ab + strs > total || rec[16 + fmt - 1] != 0)
        return 0;
    /* the formatter trusts the buffer: give it the arguments and zeros past them, as many as any
     * walk of this format can take (three 8-byte arguments per conversion at most) */
    size_t cap = (size_t)ab + 24 * (size_t)fmt + 64;
    unsigned char *argbuf = calloc(1, cap);
    if (!argbuf)
        return total;
    memcpy(argbuf, rec + 16 + fb, args);
    record_view view = {rec, total, (uint32_t)(16 + fb + ab)};
    char *text = NULL;
    size_t len = 0;
    if (cb_device_printf_format((const char *)rec + 16, argbuf, record_string, &view, &text, &len) >= 0)
        fwrite(text, 1, len, out);
    free(text);
    free(argbuf);
    return total;
}

void ocl_printf_flush(cl_command_queue q, cl_mem heap, uint64_t fifo_off, uint32_t fifo_cap)
{
    uint32_t claimed = 0, zero = 0;
    if (clEnqueueReadBuffer(q, heap, CL_TRUE, OCL_PRINTF_CTR, sizeof claimed, &claimed, 0, NULL, NULL) != CL_SUCCESS ||
        !claimed)
        return;
    clEnqueueWriteBuffer(q, heap, CL_TRUE, OCL_PRINTF_CTR, sizeof zero, &zero, 0, NULL, NULL);
    uint32_t bytes = claimed < fifo_cap ? claimed : fifo_cap;
    unsigned char *buf = malloc(bytes ? bytes : 1);
    if (!buf || clEnqueueReadBuffer(q, heap, CL_TRUE, (size_t)fifo_off, bytes, buf, 0, NULL, NULL) != CL_SUCCESS) {
        free(buf);
        fprintf(stderr, "cubridge: opencl: the printf output of a launch could not be read\n");
        return;
    }
    uint32_t at = 0;
    flockfile(stdout);
    while (at < bytes) {
        uint32_t n = print_record(buf + at, bytes - at, stdout);
        if (!n)
            break;
        at += n;
    }
    funlockfile(stdout);
    fflush(stdout);
    free(buf);
    if (claimed > at)
        fprintf(stderr, "cubridge: opencl: %u bytes of printf output did not fit the %u-byte printf FIFO and were lost\n",
                claimed - at, fifo_cap);
}
