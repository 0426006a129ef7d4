/* trace_ranges.c: named ranges on the host timeline (inspect.h): the
 * profiler range of cuProfilerStart/Stop and NVTX push/pop and start/end
 * ranges and marks (nvtx.c).
 *
 * Process-wide state, under cbi_lock(): the open ranges (at most
 * RANGES_OPEN; beyond that a range is not recorded) and the distinct range
 * names (at most RANGE_NAMES, then "(more range names)"). A closed range
 * becomes one CBI_EV_RANGE event (with its duration) and one trace.jsonl
 * line.
 */
#include <string.h>

#include "inspect/inspect_internal.h"

enum { RANGES_OPEN = 256, RANGE_NAMES = 512, RANGE_NAME_BYTES = 96 };

typedef struct open_range {
    uint64_t t0, id;
    uint32_t track;
    int32_t name;
    uint8_t source;
} open_range;

static open_range ranges_open[RANGES_OPEN];
static size_t ranges_nopen;
static char range_names[RANGE_NAMES][RANGE_NAME_BYTES];
static size_t range_nnames;

const char *cbi_range_source_name(int source)
{
    return source == CB_RANGE_PROFILER ? "profiler" : "nvtx";
}

const char *cbi_range_name(int32_t id)
{
    return id >= 0 && (size_t)id < range_nnames ? range_names[id] : "(more range names)";
}

/* The index of name in range_names (added if new). Lock held. */
static int32_t range_intern(const char *name)
{
    char text[RANGE_NAME_BYTES];
    snprintf(text, sizeof text, "%s", name && *name ? name : "(unnamed)");
    for (size_t i = 0; i < range_nnames; i++)
        if (strcmp(range_names[i], text) == 0)
            return (int32_t)i;
    if (range_nnames == RANGE_NAMES)
        return -1;
    memcpy(range_names[range_nnames], text, sizeof text);
    return (int32_t)range_nnames++;
}

/* Writes the JSON line of a finished range or a mark. */
static void range_jsonl(const char *type, int source, const char *name, uint32_t track, uint64_t t0, uint64_t dur,
                        int unclosed)
{
    char line[512];
    char esc[2 * RANGE_NAME_BYTES + 8];
    size_t o = 0;
    for (const char *p = name; *p && o + 7 < sizeof esc; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\') {
            esc[o++] = '\\';
            esc[o++] = (char)c;
        } else if (c >= 32) {
            esc[o++] = (char)c;
        }
    }
    esc[o] = 0;
    int n = snprintf(line, sizeof line,
                     "{\"type\":\"%s\",\"source\":\"%s\",\"name\":\"%s\",\"thread\":%u,\"t_ns\":%llu,"
                     "\"dur_ns\":%llu%s}\n",
                     type, cbi_range_source_name(source), esc, track, (unsigned long long)t0,
                     (unsigned long long)dur, unclosed ? ",\"unclosed\":true" : "");
    if (n > 0 && (size_t)n < sizeof line)
        cbi_jsonl(line, (size_t)n);
}

/* Turns open range i into an event ending at t1 and removes it. Lock held. */
static void range_close(size_t i, uint64_t t1, int unclosed, char *name, size_t namelen, open_range *out)
{
    open_range r = ranges_open[i];
    memmove(&ranges_open[i], &ranges_open[i + 1], (ranges_nopen - i - 1) * sizeof *ranges_open);
    ranges_nopen--;
    cbi_event ev = {.t0 = r.t0, .dur = t1 - r.t0, .track = r.track, .kind = CBI_EV_RANGE, .source = r.source,
                    .id = r.name, .result = (int16_t)(unclosed ? 1 : 0)};
    cbi_add_event(&ev);
    snprintf(name, namelen, "%s", cbi_range_name(r.name));
    *out = r;
}

void cb_inspect_range_begin(cb_inspect_range_source source, const char *name, uint64_t id)
{
    if (!(cb_inspect_flags & CB_INSPECT_TRACE))
        return;
    uint64_t t0 = cbi_now();
    uint32_t track = cbi_thread_index();
    cbi_lock();
    if (ranges_nopen < RANGES_OPEN)
        ranges_open[ranges_nopen++] = (open_range){.t0 = t0, .id = id, .track = track, .name = range_intern(name),
                                                   .source = (uint8_t)source};
    cbi_unlock();
}

int cb_inspect_range_end(cb_inspect_range_source source, uint64_t id)
{
    if (!(cb_inspect_flags & CB_INSPECT_TRACE))
        return 0;
    uint64_t t1 = cbi_now();
    uint32_t track = cbi_thread_index();
    char name[RANGE_NAME_BYTES];
    open_range r;
    int found = 0;
    cbi_lock();
    for (size_t i = ranges_nopen; i-- > 0 && !found;) {
        const open_range *o = &ranges_open[i];
        if (o->source == source && o->id == id && (id != 0 || o->track == track)) {
            range_close(i, t1, 0, name, sizeof name, &r);
            found = 1;
        }
    }
    cbi_unlock();
    if (found)
        range_jsonl("range", source, name, r.track, r.t0, t1 - r.t0, 0);
    return found ? 0 : -1;
}

void cb_inspect_mark(cb_inspect_range_source source, const char *name)
{
    if (!(cb_inspect_flags & CB_INSPECT_TRACE))
        return;
    uint64_t t0 = cbi_now();
    uint32_t track = cbi_thread_index();
    char text[RANGE_NAME_BYTES];
    cbi_lock();
    int32_t id = range_intern(name);
    cbi_event ev = {.t0 = t0, .dur = 0, .track = track, .kind = CBI_EV_RANGE, .source = (uint8_t)source, .id = id};
    cbi_add_event(&ev);
    snprintf(text, sizeof text, "%s", cbi_range_name(id));
    cbi_unlock();
    range_jsonl("mark", source, text, track, t0, 0, 0);
}

void cbi_ranges_close_all(void)
{
    uint64_t t1 = cbi_now();
    for (;;) {
        char name[RANGE_NAME_BYTES];
        open_range r;
        cbi_lock();
        int any = ranges_nopen > 0;
        if (any)
            range_close(ranges_nopen - 1, t1, 1, name, sizeof name, &r);
        cbi_unlock();
        if (!any)
            return;
        range_jsonl("range", r.source, name, r.track, r.t0, t1 - r.t0, 1);
    }
}
