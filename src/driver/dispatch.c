/* dispatch.c: the export dispatch (dispatch.h). */
#include "driver/dispatch.h"

#include <stddef.h>

int cb_dispatch_state = -1;

/* Process-wide, written before the first driver call. */
static const cb_dispatch_personality *registered;
static const cb_dispatch_wrapper *wrapper;
static int personality_on = -1;   /* -1: its wanted() not read yet */

static int dispatch_personality_on(void)
{
    int on = __atomic_load_n(&personality_on, __ATOMIC_ACQUIRE);
    if (on < 0) {
        on = registered && registered->wanted && registered->wanted();
        __atomic_store_n(&personality_on, on, __ATOMIC_RELEASE);
    }
    return on;
}

static void dispatch_update_state(void)
{
    int w = __atomic_load_n(&wrapper, __ATOMIC_ACQUIRE) != NULL;
    __atomic_store_n(&cb_dispatch_state, dispatch_personality_on() | (w << 1), __ATOMIC_RELEASE);
}

void cb_dispatch_set_personality(const cb_dispatch_personality *p)
{
    registered = p;
    __atomic_store_n(&personality_on, -1, __ATOMIC_RELEASE);
    __atomic_store_n(&cb_dispatch_state, -1, __ATOMIC_RELEASE);   /* read its choice at the next call */
}

void cb_dispatch_set_wrapper(const cb_dispatch_wrapper *w)
{
    __atomic_store_n(&wrapper, w, __ATOMIC_RELEASE);
    if (__atomic_load_n(&cb_dispatch_state, __ATOMIC_ACQUIRE) >= 0)
        dispatch_update_state();
}

const cb_dispatch_personality *cb_dispatch_personality_active(void)
{
    if (__atomic_load_n(&cb_dispatch_state, __ATOMIC_ACQUIRE) < 0)
        dispatch_update_state();
    return dispatch_personality_on() ? registered : NULL;
}

void *cb_dispatch_wrap(int id, void *fn)
{
    const cb_dispatch_wrapper *w = __atomic_load_n(&wrapper, __ATOMIC_ACQUIRE);
    return w ? w->wrap(id, fn) : fn;
}

cb_export_fn cb_dispatch_target(int id)
{
    if (id < 0 || id >= CB_EXP__COUNT)
        return NULL;
    const cb_dispatch_personality *p = cb_dispatch_personality_active();
    if (p)
        return (cb_export_fn)cb_dispatch_wrap(id, (void *)p->forward(id));
    if (__atomic_load_n(&wrapper, __ATOMIC_ACQUIRE))
        return (cb_export_fn)cb_dispatch_wrap(id, (void *)cb_exports[id].fn);
    return NULL;
}

int cb_dispatch_answers(int id)
{
    const cb_dispatch_personality *p = cb_dispatch_personality_active();
    return p ? p->answers(id) : cb_export_implemented(id);
}

const char *cb_dispatch_stub_reason(void)
{
    const cb_dispatch_personality *p = cb_dispatch_personality_active();
    return p && p->stub_reason ? p->stub_reason : "not implemented by cubridge";
}

void cb_dispatch_note_unsupported(const char *name, const char *why)
{
    const cb_dispatch_wrapper *w = __atomic_load_n(&wrapper, __ATOMIC_ACQUIRE);
    if (w && w->unsupported)
        w->unsupported(name, why);
}

void cb_dispatch_note_profiler(int on)
{
    const cb_dispatch_wrapper *w = __atomic_load_n(&wrapper, __ATOMIC_ACQUIRE);
    if (w && w->profiler)
        w->profiler(on);
}
