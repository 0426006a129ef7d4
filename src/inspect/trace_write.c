/* trace_write.c: the trace files.
 *
 *   trace.jsonl           one JSON object per line, written as calls end
 *                         ("type":"call") and launches finish ("type":"launch")
 *   trace.perfetto.json   Chrome trace event format (opens in ui.perfetto.dev
 *                         and chrome://tracing): process 1 "host API" has one
 *                         track per host thread, process 2 "streams" one track
 *                         per CUDA stream, and a counter track "device memory";
 *                         profiler and NVTX ranges sit on their host thread's
 *                         track (category "profiler" / "nvtx")
 */
#include <string.h>

#include "inspect/inspect_internal.h"

static cb_mutex jsonl_lock = CB_MUTEX_INIT;
static FILE *jsonl_file;     /* process-wide: the open trace.jsonl, under jsonl_lock */
static int jsonl_failed;
static int jsonl_opened;     /* reopened for appending after cbi_jsonl_close */

void cbi_jsonl(const char *line, size_t len)
{
    cb_mutex_lock(&jsonl_lock);
    if (!jsonl_file && !jsonl_failed) {
        char path[1200];
        snprintf(path, sizeof path, "%s/trace.jsonl", cbi_report_dir());
        jsonl_file = fopen(path, jsonl_opened ? "a" : "w");
        jsonl_opened = 1;
        if (!jsonl_file) {
            jsonl_failed = 1;
            cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        }
    }
    if (jsonl_file)
        fwrite(line, 1, len, jsonl_file);
    cb_mutex_unlock(&jsonl_lock);
}

void cbi_jsonl_close(void)
{
    cb_mutex_lock(&jsonl_lock);
    if (jsonl_file)
        fclose(jsonl_file);
    jsonl_file = NULL;
    jsonl_failed = 0;
    cb_mutex_unlock(&jsonl_lock);
}

void cbi_json_escape(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 32)
            fprintf(f, "\\u%04x", c);
        else if (c == '<')
            fputs("\\u003c", f);   /* safe inside an HTML <script> */
        else
            fputc(c, f);
    }
}

static void chrome_meta(FILE *f, int *first, int pid, long tid, const char *what, const char *name)
{
    fprintf(f, "%s\n{\"ph\":\"M\",\"pid\":%d,\"tid\":%ld,\"name\":\"%s\",\"args\":{\"name\":\"", *first ? "" : ",",
            pid, tid, what);
    cbi_json_escape(f, name);
    fputs("\"}}", f);
    *first = 0;
}

int cbi_write_chrome_trace(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cb_log(CB_LOG_WARN, "inspector: cannot write %s", path);
        return -1;
    }
    cbi_record *r = cbi_rec();
    int first = 1;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[", f);
    chrome_meta(f, &first, 1, 0, "process_name", "host API (cubridge driver calls)");
    chrome_meta(f, &first, 2, 0, "process_name", "streams (kernels)");
    uint32_t max_thread = 0;
    for (size_t i = 0; i < r->nevents; i++)
        if ((r->events[i].kind == CBI_EV_CALL || r->events[i].kind == CBI_EV_RANGE ||
             r->events[i].kind == CBI_EV_LIBCALL) &&
            r->events[i].track + 1 > max_thread)
            max_thread = r->events[i].track + 1;
    for (uint32_t t = 0; t < max_thread; t++) {
        char name[64];
        snprintf(name, sizeof name, "host thread %u", t);
        chrome_meta(f, &first, 1, (long)t, "thread_name", name);
    }
    unsigned long long named[64];
    size_t nnamed = 0;
    for (size_t i = 0; i < r->nlaunches; i++) {
        unsigned long long s = r->launches[i].stream;
        size_t k = 0;
        while (k < nnamed && named[k] != s)
            k++;
        if (k == nnamed && nnamed < 64) {
            named[nnamed++] = s;
            char name[64];
            snprintf(name, sizeof name, s ? "stream %llu" : "stream (unknown)", s);
            chrome_meta(f, &first, 2, (long)s, "thread_name", name);
        }
    }
    for (size_t i = 0; i < r->nevents; i++) {
        const cbi_event *e = &r->events[i];
        if (e->kind == CBI_EV_CALL) {
            fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"driver\",\"name\":\"%s\","
                       "\"args\":{\"result\":\"%s\"}}",
                    e->track, e->t0 / 1000.0, e->dur / 1000.0, cb_exports[e->id].name, cbi_result_name(e->result));
        } else if (e->kind == CBI_EV_RANGE) {   /* a profiler or NVTX range (dur > 0) or mark */
            if (e->dur)
                fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"%s\","
                           "\"name\":\"",
                        e->track, e->t0 / 1000.0, e->dur / 1000.0, cbi_range_source_name(e->source));
            else
                fprintf(f, ",\n{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"cat\":\"%s\","
                           "\"name\":\"",
                        e->track, e->t0 / 1000.0, cbi_range_source_name(e->source));
            cbi_json_escape(f, cbi_range_name(e->id));
            fputs("\"}", f);
        } else if (e->kind == CBI_EV_LIBCALL) {
            const cbi_library_call *c = &r->libcalls[e->id];
            fprintf(f, ",\n{\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"%s\",\"name\":\"%s\","
                       "\"args\":{\"failed\":%s}}",
                    e->track, e->t0 / 1000.0, e->dur / 1000.0, c->library, c->function, e->result ? "true" : "false");
        } else if (e->kind == CBI_EV_MEM) {
            fprintf(f, ",\n{\"ph\":\"C\",\"pid\":1,\"ts\":%.3f,\"name\":\"device memory\",\"args\":{\"bytes\":%llu}}",
                    e->t0 / 1000.0, (unsigned long long)e->mem_used);
        }
    }
    for (size_t i = 0; i < r->nlaunches; i++) {
        const cbi_launch *l = &r->launches[i];
        fprintf(f, ",\n{\"ph\":\"X\",\"pid\":2,\"tid\":%llu,\"ts\":%.3f,\"dur\":%.3f,\"cat\":\"kernel\",\"name\":\"", l->stream,
                l->t0 / 1000.0, l->dur / 1000.0);
        cbi_json_escape(f, l->kernel);
        fprintf(f, "\",\"args\":{\"grid\":\"%u,%u,%u\",\"block\":\"%u,%u,%u\",\"smem\":%u,\"regs\":%u,\"verdict\":\"%s\"}}",
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->smem, l->regs,
                cbi_verdict_name(l->verdict));
    }
    fputs("\n]}\n", f);
    return fclose(f) == 0 ? 0 : -1;
}
