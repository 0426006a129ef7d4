/* verify.c: each launch recorded and, in verify mode, checked against the
 * reference (inspect.h).
 *
 * For a launch in verify mode (serialised by verify_lock, so that no other
 * kernel runs in between):
 *   1. the regions: every live allocation that a pointer-sized word of the
 *      parameter buffer points into (the device's lookup, else the core's
 *      allocation table), or, for a word that is one of the device's
 *      texture or surface objects, the allocations of its texels; and every
 *      writable module global when the device's global addresses are known;
 *   2. snapshot them (before), run the launch on the device, snapshot again
 *      (result); the fault injector, when set, corrupts the result here;
 *   3. the reference over the "before" snapshots: when the device is the
 *      reference backend itself, the snapshots are put back in place, the
 *      kernel runs again, its output is read (reference) and the device's
 *      result is put back, so the program sees what its device produced;
 *      on any other device, on the reference backend over copies
 *      (reference.c);
 *   4. compare every region either side wrote, with the element type of the
 *      kernel's stores through that pointer (elemtype.c) and its tolerance.
 */
#include <stdlib.h>
#include <string.h>

#include "core/launch.h"
#include "core/memory.h"
#include "inspect/inspect_internal.h"

#define CBI_MAX_VERIFY_BYTES ((size_t)1 << 30)

/* Process-wide: one verified launch at a time. */
static cb_mutex verify_lock = CB_MUTEX_INIT;

typedef cbi_region region;

/* What a launch reaches, with how to find the device's allocations. */
typedef struct regions {
    cbi_regions set;
    cb_inspect_lookup lookup;  /* the device's allocations, or NULL: the core's table */
} regions;

static void regions_add(regions *all, uint64_t base, size_t bytes, int tag, size_t phase)
{
    cbi_regions *rs = &all->set;
    for (uint32_t i = 0; i < rs->n; i++)
        if (rs->r[i].base == base)
            return;
    if (bytes == 0)
        return;
    if (rs->n == CBI_MAX_SNAPSHOTS) {
        rs->dropped++;
        return;
    }
    rs->r[rs->n++] = (region){.base = base, .bytes = bytes, .tag = tag, .phase = phase};
    rs->total += bytes;
}

static int kind_is_memory(cb_mem_kind k)
{
    return k == CB_MEM_DEVICE || k == CB_MEM_MANAGED || k == CB_MEM_VMM || k == CB_MEM_HOST ||
           k == CB_MEM_REGISTERED;
}

/* The allocation holding device address v, as a region of tag (0: none). */
static int region_at(regions *rs, uint64_t v, int tag)
{
    uint64_t base;
    size_t size;
    if (rs->lookup) {
        if (!rs->lookup(v, &base, &size))
            return 0;
        regions_add(rs, base, size, tag, (size_t)(v - base));
        return 1;
    }
    cb_mem_info mi = cb_mem_lookup(v);
    if (!kind_is_memory(mi.kind))
        return 0;
    regions_add(rs, mi.base, mi.size, tag, (size_t)(v - mi.base));
    return 1;
}

/* A word that is a texture or surface object of the device: the memory of its texels (each level's). */
static int texture_regions(const cb_inspect_kernel *kk, regions *rs, uint64_t v, int tag)
{
    cb_texture_desc d;
    if (!kk->textures || cbi_texture_describe(kk->textures, v, &d) != 0)
        return 0;
    region_at(rs, d.base, tag);
    for (uint32_t l = 0; d.levels && l < d.num_levels; l++)
        region_at(rs, d.levels[l].base, tag);
    free((void *)d.levels);
    return 1;
}

/* Step 1: what the launch can reach. */
static void regions_collect(const cb_inspect_kernel *kk, const cb_launch_config *cfg, regions *rs)
{
    const cb_kernel_info *k = &kk->tr->kernels[kk->kernel];
    for (uint32_t i = 0; i < k->nparams; i++) {
        const cb_param_info *p = &k->params[i];
        for (uint32_t o = 0; o + 8 <= p->size; o += 8) {
            if ((p->offset + o) % 8 || p->offset + o + 8 > cfg->param_bytes || !cfg->params)
                continue;
            uint64_t v;
            memcpy(&v, cfg->params + p->offset + o, 8);
            if (v && !texture_regions(kk, rs, v, (int)i))
                region_at(rs, v, (int)i);
        }
    }
    if (!kk->globals)
        return;   /* a device whose globals the inspector cannot address: not checked */
    const cb_translation *tr = kk->tr;
    for (uint32_t g = 0; g < tr->nglobals; g++)
        if (tr->globals[g].space == CB_SPACE_GLOBAL)
            regions_add(rs, kk->globals[g], (size_t)tr->globals[g].size, (int)(k->nparams + g), 0);
}

static void regions_free(regions *all)
{
    cbi_regions *rs = &all->set;
    for (uint32_t i = 0; i < rs->n; i++) {
        free(rs->r[i].before);
        free(rs->r[i].result);
        free(rs->r[i].reference);
    }
}

static int snapshot(cb_backend *b, const region *r, unsigned char **out)
{
    *out = malloc(r->bytes);
    return *out && b->copy_dtoh(b, *out, r->base, r->bytes) == CUDA_SUCCESS ? 0 : -1;
}

/* The element type of a region from the kernel's stores. */
static void region_type(const cbi_store_types *st, const region *r, cb_inspect_elem *t, unsigned *w, int *atomic)
{
    *t = CB_ELEM_BYTES;
    *w = 1;
    *atomic = 0;
    if (r->tag >= 0 && (uint32_t)r->tag < st->ntags && st->stored[r->tag]) {
        *t = st->type[r->tag];
        *w = st->width[r->tag] ? st->width[r->tag] : 1;
        *atomic = st->atomic_float[r->tag];
    }
}

static int region_order_dependent(const cbi_store_types *st, const region *r)
{
    return r->tag >= 0 && (uint32_t)r->tag < st->ntags && st->order_dependent[r->tag];
}

/* Step 3 on the device itself (it is the reference backend): 0, or -1 with a note. */
static int reference_in_place(const cb_inspect_kernel *k, const cb_launch_config *cfg, cbi_regions *rs, char *note,
                              size_t notelen)
{
    cb_backend *b = k->device;
    for (uint32_t i = 0; i < rs->n; i++)
        b->copy_htod(b, rs->r[i].base, rs->r[i].before, rs->r[i].bytes);
    cb_launch_error e;
    memset(&e, 0, sizeof e);
    CUresult r = b->launch(b, k->module, k->kernel, cfg, &e);
    int rc = 0;
    for (uint32_t i = 0; i < rs->n && r == CUDA_SUCCESS; i++)
        if (snapshot(b, &rs->r[i], &rs->r[i].reference) != 0)
            rc = -1;
    for (uint32_t i = 0; i < rs->n; i++)
        b->copy_htod(b, rs->r[i].base, rs->r[i].result, rs->r[i].bytes);
    if (r != CUDA_SUCCESS) {
        snprintf(note, notelen, "the reference run failed: %.150s", e.message[0] ? e.message : cbi_result_name(r));
        return -1;
    }
    if (rc)
        snprintf(note, notelen, "out of memory for the reference");
    return rc;
}

/* Step 3: the reference over the "before" snapshots. 0, or -1 with a note. */
static int reference_run(const cb_inspect_kernel *k, const cb_launch_config *cfg, cbi_regions *rs, char *note,
                         size_t notelen)
{
    if (strcmp(k->device->name, cbi_reference_name()) == 0)
        return reference_in_place(k, cfg, rs, note, notelen);
    return cbi_reference_run(k, cfg, rs, note, notelen);
}

/* Step 4: one region. */
static void region_compare(const cbi_store_types *st, const cb_inspect_kernel *kk, const region *r,
                           cbi_region_result *out)
{
    memset(out, 0, sizeof *out);
    const cb_kernel_info *k = &kk->tr->kernels[kk->kernel];
    if ((uint32_t)r->tag < k->nparams)
        snprintf(out->name, sizeof out->name, "param %d", r->tag);
    else
        snprintf(out->name, sizeof out->name, "global %s", kk->tr->globals[r->tag - (int)k->nparams].name);
    out->base = r->base;
    out->bytes = r->bytes;
    int atomic;
    region_type(st, r, &out->type, &out->elem_bytes, &atomic);
    cbi_tolerance tol = cbi_tolerance_of(out->type);
    if (atomic) {
        /* Float atomics add in an unspecified order: the same device gives
         * different roundings run to run (docs/inspector.md). */
        tol.rtol *= 100;
        tol.atol *= 100;
    }
    cbi_compare(r->result, r->reference, r->before, r->bytes, out->type, out->elem_bytes, r->phase, tol, &out->diff);
    out->failed = cbi_diff_failed(&out->diff);
    if (out->failed && region_order_dependent(st, r) && !out->diff.untouched && !out->diff.all_zero &&
        !out->diff.nan_inf) {
        /* atomic exch/cas winners and atomics' return values depend on the
         * order threads ran in: a difference here is a race the program
         * accepts, not drift (docs/inspector.md) */
        out->failed = 0;
        out->order_dependent = 1;
    }
}

/* The store types of kernel k, cached per translation and kernel. */
static void store_types(const cb_inspect_kernel *k, cbi_store_types *out)
{
    const cb_translation *tr = k->tr;
    if (tr->dialect != CB_DIALECT_C && k->reference) {   /* the OpenCL dialect's text: read the reference's */
        const cb_translation *rt = cbi_reference_translation(k->reference);
        if (rt && rt->dialect == CB_DIALECT_C)
            tr = rt;
    }
    static struct {
        const cb_translation *tr;
        const char *source;
        uint32_t k;
        cbi_store_types st;
    } cache[32];
    static unsigned next;
    for (unsigned i = 0; i < 32; i++) {
        if (cache[i].tr == tr && cache[i].source == tr->source && cache[i].k == k->kernel) {
            *out = cache[i].st;
            return;
        }
    }
    cbi_store_types_of(tr, k->kernel, out);
    unsigned i = next++ % 32;
    cache[i].tr = tr;
    cache[i].source = tr->source;
    cache[i].k = k->kernel;
    cache[i].st = *out;
}

static void plant_fault(cb_backend *b, const cbi_store_types *st, cbi_regions *rs, cbi_launch *L)
{
    for (uint32_t i = 0; i < rs->n; i++) {
        region *r = &rs->r[i];
        cb_inspect_elem t;
        unsigned w;
        int atomic;
        region_type(st, r, &t, &w, &atomic);
        if (cbi_fault_apply(cbi_fault(), r->result, r->before, r->bytes, t, w, r->phase)) {
            b->copy_htod(b, r->base, r->result, r->bytes);
            snprintf(L->note, sizeof L->note, "fault planted: %s", cbi_fault());
            return;
        }
    }
}

static CUresult verify_launch(const cb_inspect_kernel *k, const cb_launch_config *cfg, cb_launch_error *err,
                              cbi_launch *L)
{
    cb_backend *b = k->device;
    regions all = {.lookup = k->lookup};
    cbi_regions *rs = &all.set;
    regions_collect(k, cfg, &all);
    int can_verify = rs->total <= CBI_MAX_VERIFY_BYTES && !rs->dropped;
    for (uint32_t i = 0; i < rs->n && can_verify; i++)
        if (snapshot(b, &rs->r[i], &rs->r[i].before) != 0)
            can_verify = 0;
    L->t0 = cbi_now();
    CUresult r = b->launch(b, k->module, k->kernel, cfg, err);
    L->dur = cbi_now() - L->t0;
    L->result = (int)r;
    if (r != CUDA_SUCCESS || !can_verify) {
        L->verdict = r != CUDA_SUCCESS ? CBI_FAILED : CBI_SKIPPED;
        if (r == CUDA_SUCCESS && rs->dropped)
            snprintf(L->note, sizeof L->note, "it reaches more than %d allocations", CBI_MAX_SNAPSHOTS);
        else if (r == CUDA_SUCCESS)
            snprintf(L->note, sizeof L->note, "regions too large or out of memory (%zu bytes)", rs->total);
        regions_free(&all);
        return r;
    }
    for (uint32_t i = 0; i < rs->n; i++)
        if (snapshot(b, &rs->r[i], &rs->r[i].result) != 0)
            can_verify = 0;
    cbi_store_types st;
    store_types(k, &st);
    if (cbi_fault()[0] && can_verify)
        plant_fault(b, &st, rs, L);
    if (st.side_effects) {
        L->verdict = CBI_SKIPPED;
        snprintf(L->note, sizeof L->note, "not re-run: the kernel calls %s", st.side_effect);
        regions_free(&all);
        return r;
    }
    char note[200] = "";
    if (!can_verify || reference_run(k, cfg, rs, note, sizeof note) != 0) {
        L->verdict = CBI_SKIPPED;
        snprintf(L->note, sizeof L->note, "%s", note[0] ? note : "out of memory for the snapshots");
        regions_free(&all);
        return r;
    }
    L->verdict = CBI_PASS;
    int first_failed = -1;
    cbi_region_result past, bad_past;   /* written regions past the record's CBI_MAX_REGIONS */
    memset(&bad_past, 0, sizeof bad_past);
    for (uint32_t i = 0; i < rs->n; i++) {
        cbi_region_result *res = L->nregions < CBI_MAX_REGIONS ? &L->regions[L->nregions] : &past;
        region_compare(&st, k, &rs->r[i], res);
        if (res->diff.compared == 0 && !res->failed)
            continue;   /* neither side wrote it: an input */
        if (res->diff.max_abs > L->max_abs)
            L->max_abs = res->diff.max_abs;
        if (res->diff.rel_l1 > L->max_rel_l1)
            L->max_rel_l1 = res->diff.rel_l1;
        L->nan_inf += res->diff.nan_inf;
        if (res->failed && first_failed < 0) {
            first_failed = (int)L->nregions;
            if (res == &past)
                bad_past = past;
        }
        if (res->order_dependent) {
            size_t have = strlen(L->note);
            snprintf(L->note + have, sizeof L->note - have, "%s%s: %llu order-dependent elements differ (atomic "
                     "exch/cas or atomic return values), not drift", have ? "; " : "", res->name,
                     (unsigned long long)res->diff.mismatched);
        }
        if (res != &past)
            L->nregions++;
    }
    regions_free(&all);
    if (first_failed < 0)
        return r;
    const cbi_region_result *bad = first_failed < CBI_MAX_REGIONS ? &L->regions[first_failed] : &bad_past;
    L->verdict = CBI_DRIFT;
    char what[160];
    if (bad->diff.untouched)
        snprintf(what, sizeof what, "output untouched (the reference wrote it)");
    else if (bad->diff.all_zero)
        snprintf(what, sizeof what, "output all zero (the reference is not)");
    else {
        char got[48], want[48];
        cbi_format_first(got, sizeof got, &bad->diff, 0);
        cbi_format_first(want, sizeof want, &bad->diff, 1);
        snprintf(what, sizeof what, "element [%lld]: got %s, reference %s", (long long)bad->diff.first_bad, got, want);
    }
    char msg[400], kname[160];
    snprintf(msg, sizeof msg, "DRIFT in kernel %s: %s (%s): %s; %llu of %llu elements differ, %llu NaN/Inf introduced, "
             "max abs %.3g, rel L1 %.3g", cb_demangle(k->tr->kernels[k->kernel].name, kname, sizeof kname), bad->name,
             cbi_elem_name(bad->type), what,
             (unsigned long long)bad->diff.mismatched, (unsigned long long)bad->diff.compared,
             (unsigned long long)bad->diff.nan_inf, bad->diff.max_abs, bad->diff.rel_l1);
    size_t have = strlen(L->note);
    snprintf(L->note + have, sizeof L->note - have, "%s%s", have ? "; " : "", msg);
    cb_log(CB_LOG_ERROR, "inspector: %s", msg);
    if (cb_inspect_flags & CB_INSPECT_STRICT) {
        r = CUDA_ERROR_LAUNCH_FAILED;
        L->result = (int)r;
        if (err) {
            err->result = r;
            snprintf(err->message, sizeof err->message, "strict: %s", msg);
        }
    }
    return r;
}

static void launch_jsonl(const cbi_launch *L)
{
    char line[4096];
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0, __VA_ARGS__)
    PUT("{\"type\":\"launch\",\"t_ns\":%llu,\"dur_ns\":%llu,\"kernel\":\"%s\",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],"
        "\"smem\":%u,\"regs\":%u,\"stream\":%llu,\"result\":\"%s\",\"verdict\":\"%s\"",
        (unsigned long long)L->t0, (unsigned long long)L->dur, L->kernel, L->grid[0], L->grid[1], L->grid[2],
        L->block[0], L->block[1], L->block[2], L->smem, L->regs, L->stream, cbi_result_name(L->result),
        cbi_verdict_name(L->verdict));
    if (L->verdict == CBI_PASS || L->verdict == CBI_DRIFT)
        PUT(",\"max_abs\":%.6g,\"max_rel_l1\":%.6g,\"nan_inf\":%llu", L->max_abs, L->max_rel_l1,
            (unsigned long long)L->nan_inf);
    if (L->warnings && n < sizeof line - 8) {
        PUT(",\"warnings\":%u,\"warning\":\"", L->warnings);
        for (const char *p = L->warning; *p && n + 8 < sizeof line; p++) {
            if (*p == '"' || *p == '\\')
                line[n++] = '\\';
            line[n++] = *p;
        }
        if (n < sizeof line - 8)
            line[n++] = '"';
    }
    if (n < sizeof line - 8)
        PUT(",\"note\":\"");
    for (const char *p = L->note; *p && n + 8 < sizeof line; p++) {
        if (*p == '"' || *p == '\\')
            line[n++] = '\\';
        line[n++] = *p;
    }
    if (n + 4 < sizeof line) {
        line[n++] = '"';
        line[n++] = '}';
        line[n++] = '\n';
        cbi_jsonl(line, n);
    }
#undef PUT
}

/* Files launch L in the record and writes its JSON line. */
static void launch_record(cbi_launch *L, CUresult r)
{
    size_t used = 0, peak = 0, total = 0;
    cb_mem_usage(&used, &peak, &total);
    cbi_lock();
    long idx = cbi_add_launch(L);
    cbi_event ev = {.t0 = L->t0, .dur = L->dur, .track = (uint32_t)L->stream, .kind = CBI_EV_LAUNCH,
                    .result = (int16_t)r, .id = (int32_t)idx};
    cbi_add_event(&ev);
    if (peak > cbi_rec()->peak_mem)
        cbi_rec()->peak_mem = peak;
    cbi_unlock();
    launch_jsonl(L);
}

/* Names the device in the reports the first time a launch of a device
 * outside the core is checked (the pass-through's). */
static void note_foreign_device(cb_backend *b)
{
    cbi_record *rec = cbi_rec();
    cbi_lock();
    int named = rec->device[0] != 0;
    cbi_unlock();
    if (named)
        return;
    cb_device_info di;
    b->device_info(b, &di);
    cbi_lock();
    snprintf(rec->backend, sizeof rec->backend, "%s", b->name);
    snprintf(rec->device, sizeof rec->device, "%s", di.name);
    cbi_unlock();
}

CUresult cb_inspect_run(const cb_inspect_kernel *k, const cb_launch_config *cfg, cb_launch_error *err)
{
    const cb_kernel_info *info = &k->tr->kernels[k->kernel];
    if (k->lookup)
        note_foreign_device(k->device);
    cbi_launch L;
    memset(&L, 0, sizeof L);
    snprintf(L.kernel, sizeof L.kernel, "%s", info->name);
    memcpy(L.grid, cfg->grid, sizeof L.grid);
    memcpy(L.block, cfg->block, sizeof L.block);
    L.smem = cfg->dynamic_smem + info->static_smem;
    L.regs = cb_kernel_num_regs(info, 1024);   /* CUDA's largest block: the device's limit is not known here */
    L.stream = cfg->stream_id;
    CUresult r;
    if ((cb_inspect_flags & CB_INSPECT_VERIFY) && !k->record_only) {
        cb_mutex_lock(&verify_lock);
        r = verify_launch(k, cfg, err, &L);
        cb_mutex_unlock(&verify_lock);
    } else {
        L.t0 = cbi_now();
        r = k->device->launch(k->device, k->module, k->kernel, cfg, err);
        L.dur = cbi_now() - L.t0;
        L.result = (int)r;
        L.verdict = r == CUDA_SUCCESS ? CBI_TRACED : CBI_FAILED;
    }
    if (r != CUDA_SUCCESS && err)
        cb_launch_explain(info->name, err);
    if (r != CUDA_SUCCESS && !L.note[0] && err && err->message[0])
        snprintf(L.note, sizeof L.note, "%.250s", err->message);
    if (err && err->warnings) {
        L.warnings = err->warnings;
        snprintf(L.warning, sizeof L.warning, "%s", err->warning);
    }
    launch_record(&L, r);
    return r;
}

void cb_inspect_launch_skipped(const char *kernel, const cb_launch_config *cfg, CUresult r, const char *note)
{
    cbi_launch L;
    memset(&L, 0, sizeof L);
    snprintf(L.kernel, sizeof L.kernel, "%s", kernel);
    memcpy(L.grid, cfg->grid, sizeof L.grid);
    memcpy(L.block, cfg->block, sizeof L.block);
    L.smem = cfg->dynamic_smem;
    L.t0 = cbi_now();
    L.result = (int)r;
    L.verdict = r == CUDA_SUCCESS ? CBI_SKIPPED : CBI_FAILED;
    snprintf(L.note, sizeof L.note, "%.250s", note);
    launch_record(&L, r);
}
