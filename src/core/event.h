/* event.h: events (cuEvent*).
 *
 * Recording an event submits a marker operation to the stream; the event
 * keeps the marker's fence, which is signalled (and time-stamped) when the
 * marker runs, i.e. after all earlier work of the stream. Waiting on an
 * event submits a marker that waits for that fence. In a capturing stream,
 * recording remembers the capture's dependency set instead (graph.h).
 */
#ifndef CB_CORE_EVENT_H
#define CB_CORE_EVENT_H

#include "core/stream.h"

struct CUevent_st {
    uint32_t magic;
    cb_context *ctx;
    unsigned flags;                   /* CU_EVENT_* */
    cb_mutex lock;                    /* guards fence */
    cb_fence *fence;                  /* the last record, or NULL if never recorded */
    /* capture state (runtime lock of the capturing stream's context) */
    struct cb_capture *capture;
    struct CUgraphNode_st **cap_deps;
    size_t ncap_deps;
};
typedef struct CUevent_st cb_event;

CUresult cb_event_create(cb_context *ctx, unsigned flags, cb_event **out);
CUresult cb_event_destroy(cb_event *ev);
int cb_event_valid(const void *h);
CUresult cb_event_record(cb_event *ev, cb_stream *s);
/* A reference to the event's last record fence (NULL if none). */
cb_fence *cb_event_fence(cb_event *ev);
/* Replaces the event's fence (graph event-record nodes). */
void cb_event_set_fence(cb_event *ev, cb_fence *f);
CUresult cb_event_query(cb_event *ev);
CUresult cb_event_synchronize(cb_event *ev);
CUresult cb_event_elapsed(cb_event *start, cb_event *end, float *ms);
CUresult cb_stream_wait_event(cb_stream *s, cb_event *ev);

#endif
