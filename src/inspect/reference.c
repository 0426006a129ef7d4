/* reference.c: the reference backend and the runs on it (inspect.h).
 *
 * The reference is a backend found by name in the registry
 * (CUBRIDGE_VERIFY_REFERENCE, default "cpu"), opened once, unwrapped, on
 * first use. A module is loaded there on the first check of one of its
 * kernels, with its globals in the reference's own memory. A check of a
 * launch on another device copies each region's "before" snapshot into
 * memory of the reference, copies the device's module globals over the
 * reference's (when the device's addresses are known), moves the parameter
 * buffer's pointers into the copies, makes the device's texture and surface
 * objects among them again on the reference over the copies of their texels
 * (the descriptions the verify wrapper kept), runs the kernel there and
 * reads the copies back as the reference result.
 *
 * Process-wide state: `ref` below (the backend, opened once under ref.once);
 * each cb_inspect_reference is guarded by its own lock (checks are
 * serialised by verify.c anyway).
 */
#include <stdlib.h>
#include <string.h>

#include "inspect/inspect_internal.h"

static struct {
    cb_once once;
    char name[64];
    cb_backend *backend;
    char why[256];              /* why it did not open */
} ref = {.once = CB_ONCE_INIT};

static void reference_open(void)
{
    const char *name = getenv("CUBRIDGE_VERIFY_REFERENCE");
    snprintf(ref.name, sizeof ref.name, "%s", name && *name ? name : "cpu");
    ref.backend = cb_backend_create(ref.name, ref.why, sizeof ref.why);
    if (!ref.backend)
        cb_log(CB_LOG_ERROR, "inspector: the reference backend %s did not start: %s", ref.name, ref.why);
}

const char *cbi_reference_name(void)
{
    const char *name = getenv("CUBRIDGE_VERIFY_REFERENCE");
    return name && *name ? name : "cpu";
}

static cb_backend *reference_backend(void)
{
    cb_run_once(&ref.once, reference_open);
    return ref.backend;
}

int cb_inspect_reference_dialect(void)
{
    cb_backend *b = reference_backend();
    return b ? b->dialect : -1;
}

struct cb_inspect_reference {
    const cb_translation *tr;   /* the device's, or own when the reference has another dialect */
    cb_translation *own;        /* the same PTX in the reference's dialect, or NULL */
    cb_mutex lock;
    int tried;
    char note[200];             /* why it did not load */
    void *module;               /* on the reference backend */
    cb_device_mem block;        /* its globals, one allocation */
    uint64_t *globals;          /* the address of each global */
};

cb_inspect_reference *cb_inspect_reference_new(const cb_translation *tr)
{
    cb_inspect_reference *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->tr = tr;
    cb_mutex_init(&r->lock);
    return r;
}

void cb_inspect_reference_free(cb_inspect_reference *r)
{
    if (!r)
        return;
    cb_backend *b = ref.backend;
    if (b && r->module)
        b->module_unload(b, r->module);
    if (b && r->block.addr)
        b->mem_free(b, &r->block);
    free(r->globals);
    cb_translation_free(r->own);
    cb_mutex_destroy(&r->lock);
    free(r);
}

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* Places the globals in one allocation of the reference and initialises them. */
static int reference_globals(cb_inspect_reference *r, cb_backend *b)
{
    const cb_translation *tr = r->tr;
    if (tr->nglobals == 0)
        return 0;
    r->globals = calloc(tr->nglobals, sizeof *r->globals);
    if (!r->globals)
        return -1;
    uint64_t total = 0;
    for (uint32_t i = 0; i < tr->nglobals; i++) {
        uint32_t a = tr->globals[i].align ? tr->globals[i].align : 1;
        total = align_up(total, a < 256 ? a : 256) + tr->globals[i].size;
    }
    if (b->mem_alloc(b, total ? (size_t)total : 1, 0, &r->block) != CUDA_SUCCESS)
        return -1;
    uint64_t off = 0;
    for (uint32_t i = 0; i < tr->nglobals; i++) {
        const cb_global_info *g = &tr->globals[i];
        uint32_t a = g->align ? g->align : 1;
        off = align_up(off, a < 256 ? a : 256);
        r->globals[i] = r->block.addr + off;
        CUresult e = CUDA_SUCCESS;
        if (g->size && g->init)
            e = b->copy_htod(b, r->globals[i], g->init, (size_t)g->size);
        else if (g->size)
            e = b->memset(b, r->globals[i], 0, 1, (size_t)g->size);
        if (e != CUDA_SUCCESS)
            return -1;
        off += g->size;
    }
    return 0;
}

/* The device's module in the reference's dialect, from the PTX its
 * translation kept (other dialects keep it): same kernels, globals and
 * relocations in the same order, so the device's indices hold. 1 on success. */
static int translate_for(cb_inspect_reference *r, cb_backend *b, char *err, size_t errlen)
{
    if (!r->tr->ptx)
        return 0;
    /* the general entries alone: the reference needs no fast path */
    cb_translate_opts general = {.lanes = 0, .warp_size = b->warp_size};
    if (cb_translate_ptx_opts(r->tr->ptx, r->tr->ptx_len, "<reference>", (cb_dialect)b->dialect, &general, &r->own,
                              err, errlen) != 0)
        return 0;
    if (r->own->nkernels != r->tr->nkernels || r->own->nglobals != r->tr->nglobals) {
        snprintf(err, errlen, "the two translations differ");
        return 0;
    }
    r->tr = r->own;
    return 1;
}

/* Loads r on the reference backend once. Lock held. Returns the backend or NULL. */
static cb_backend *reference_load(cb_inspect_reference *r)
{
    cb_backend *b = reference_backend();
    if (!r->tried) {
        r->tried = 1;
        char err[512] = "";
        if (!b)
            snprintf(r->note, sizeof r->note, "no reference: the %s backend did not start", ref.name);
        else if ((int)r->tr->dialect != b->dialect && !translate_for(r, b, err, sizeof err))
            snprintf(r->note, sizeof r->note, "no reference: the translation is not in the %s backend's dialect%s%.120s",
                     b->name, err[0] ? ": " : "", err);
        else if (reference_globals(r, b) != 0)
            snprintf(r->note, sizeof r->note, "out of memory for the reference's globals");
        else if (b->module_load(b, r->tr, r->globals, &r->module, err, sizeof err) != CUDA_SUCCESS)
            snprintf(r->note, sizeof r->note, "the %s backend cannot load the module: %.140s", b->name, err);
    }
    return r->module ? b : NULL;
}

/* Puts the reference module's own values back over the words of buf (global
 * g's bytes as the device has them) that the loader wrote, addresses
 * (pointers to globals, function tables), which are the device's in buf. */
static void keep_relocations(const cb_inspect_reference *r, cb_backend *b, uint32_t g, unsigned char *buf,
                             size_t bytes)
{
    const cb_translation *tr = r->tr;
    for (uint32_t i = 0; i < tr->nrelocs; i++)
        if (tr->relocs[i].global == g && tr->relocs[i].offset + 8 <= bytes)
            b->copy_dtoh(b, buf + tr->relocs[i].offset, r->globals[g] + tr->relocs[i].offset, 8);
}

int cb_inspect_reference_set_global(cb_inspect_reference *r, uint32_t g, const void *data, size_t bytes)
{
    cb_mutex_lock(&r->lock);
    cb_backend *b = reference_load(r);
    int rc = -1;
    unsigned char *buf = NULL;
    if (b && g < r->tr->nglobals && bytes <= (size_t)r->tr->globals[g].size && (buf = malloc(bytes ? bytes : 1))) {
        memcpy(buf, data, bytes);
        keep_relocations(r, b, g, buf, bytes);
        rc = b->copy_htod(b, r->globals[g], buf, bytes) == CUDA_SUCCESS ? 0 : -1;
    }
    free(buf);
    cb_mutex_unlock(&r->lock);
    return rc;
}

/* The device's current module globals, copied over the reference's. */
static int globals_in(const cb_inspect_kernel *k, cb_backend *b, const cb_inspect_reference *r)
{
    const cb_translation *tr = k->tr;
    for (uint32_t g = 0; g < tr->nglobals; g++) {
        size_t n = (size_t)tr->globals[g].size;
        if (!n)
            continue;
        unsigned char *buf = malloc(n);
        int ok = buf && k->device->copy_dtoh(k->device, buf, k->globals[g], n) == CUDA_SUCCESS;
        if (ok)
            keep_relocations(r, b, g, buf, n);
        ok = ok && b->copy_htod(b, r->globals[g], buf, n) == CUDA_SUCCESS;
        free(buf);
        if (!ok)
            return -1;
    }
    return 0;
}

/* cfg's parameter buffer with each word that points into a region moved to
 * the same offset in that region's copy at at[i]. */
static void params_rebased(const cb_kernel_info *k, const cb_launch_config *cfg, const cbi_regions *rs,
                           const uint64_t *at, unsigned char *out)
{
    memcpy(out, cfg->params, cfg->param_bytes);
    for (uint32_t i = 0; i < k->nparams; i++) {
        const cb_param_info *p = &k->params[i];
        for (uint32_t o = 0; o + 8 <= p->size; o += 8) {
            if ((p->offset + o) % 8 || p->offset + o + 8 > cfg->param_bytes)
                continue;
            uint64_t v;
            memcpy(&v, out + p->offset + o, 8);
            for (uint32_t j = 0; j < rs->n; j++) {
                if (v >= rs->r[j].base && v - rs->r[j].base < rs->r[j].bytes) {
                    v = at[j] + (v - rs->r[j].base);
                    memcpy(out + p->offset + o, &v, 8);
                    break;
                }
            }
        }
    }
}

/* Where device address a lies in the reference's copies of rs (at[i]), or 0 when no region holds it. */
static uint64_t rebased(const cbi_regions *rs, const uint64_t *at, uint64_t a)
{
    for (uint32_t j = 0; j < rs->n; j++)
        if (a >= rs->r[j].base && a - rs->r[j].base < rs->r[j].bytes)
            return at[j] + (a - rs->r[j].base);
    return 0;
}

#define MAX_TEXTURES 32

/* Each word of cfg's parameter buffer that is one of the device's texture or surface objects, made again
 * on the reference b over the copies of its texels and put in out (made[*nmade]: the reference's
 * handles, for destroying). 0, or -1 with a note. */
static int textures_remade(const cb_inspect_kernel *k, const cb_kernel_info *info, const cb_launch_config *cfg,
                           const cbi_regions *rs, const uint64_t *at, cb_backend *b, unsigned char *out,
                           uint64_t *made, uint32_t *nmade, char *note, size_t notelen)
{
    for (uint32_t i = 0; i < info->nparams; i++) {
        const cb_param_info *p = &info->params[i];
        for (uint32_t o = 0; o + 8 <= p->size; o += 8) {
            if ((p->offset + o) % 8 || p->offset + o + 8 > cfg->param_bytes || !cfg->params)
                continue;
            uint64_t v;
            memcpy(&v, cfg->params + p->offset + o, 8);
            cb_texture_desc d;
            if (!v || cbi_texture_describe(k->textures, v, &d) != 0)
                continue;
            cb_texture_desc *levels = (cb_texture_desc *)d.levels;
            int ok = (d.base = rebased(rs, at, d.base)) != 0;
            for (uint32_t l = 0; levels && l < d.num_levels; l++)
                ok &= (levels[l].base = rebased(rs, at, levels[l].base)) != 0;
            uint64_t h = 0;
            CUresult r = ok && *nmade < MAX_TEXTURES && b->texture_create ? b->texture_create(b, &d, &h)
                                                                           : CUDA_ERROR_NOT_SUPPORTED;
            free(levels);
            if (r != CUDA_SUCCESS) {
                snprintf(note, notelen, "%s: the texture or surface object in parameter %u could not be made on the "
                         "reference (%s)", info->name, i, !ok ? "its texels were not captured" : cbi_result_name(r));
                return -1;
            }
            made[(*nmade)++] = h;
            memcpy(out + p->offset + o, &h, 8);
        }
    }
    return 0;
}

const cb_translation *cbi_reference_translation(cb_inspect_reference *r)
{
    cb_mutex_lock(&r->lock);
    const cb_translation *tr = reference_load(r) ? r->tr : NULL;
    cb_mutex_unlock(&r->lock);
    return tr;
}

int cbi_reference_run(const cb_inspect_kernel *k, const cb_launch_config *cfg, cbi_regions *rs, char *note,
                      size_t notelen)
{
    const cb_kernel_info *info = &k->tr->kernels[k->kernel];
    cb_inspect_reference *r = k->reference;
    if (!r) {
        snprintf(note, notelen, "no reference for the %s backend", k->device->name);
        return -1;
    }
    if (info->uses_textures && !k->textures) {
        snprintf(note, notelen,
                 "%s uses texture or surface objects: their handles are the %s device's, which the reference "
                 "cannot read", info->name, k->device->name);
        return -1;
    }
    cb_mutex_lock(&r->lock);
    cb_backend *b = reference_load(r);
    if (!b) {
        snprintf(note, notelen, "%s", r->note);
        cb_mutex_unlock(&r->lock);
        return -1;
    }
    uint32_t nparams = info->nparams;
    cb_device_mem mem[CBI_MAX_SNAPSHOTS];
    uint64_t at[CBI_MAX_SNAPSHOTS] = {0};
    memset(mem, 0, sizeof mem);
    unsigned char *params = malloc(cfg->param_bytes + 8);
    int rc = params ? 0 : -1;
    if (rc == 0 && k->globals && globals_in(k, b, r) != 0)
        rc = -1;
    for (uint32_t i = 0; i < rs->n && rc == 0; i++) {
        const cbi_region *g = &rs->r[i];
        if (g->tag >= (int)nparams) {
            at[i] = r->globals[g->tag - (int)nparams];   /* a global: the reference module's own */
        } else if (b->mem_alloc(b, g->bytes, 0, &mem[i]) != CUDA_SUCCESS) {
            rc = -1;
            break;
        } else {
            at[i] = mem[i].addr;
        }
        if (b->copy_htod(b, at[i], g->before, g->bytes) != CUDA_SUCCESS)
            rc = -1;
    }
    CUresult lr = CUDA_SUCCESS;
    cb_launch_error e;
    memset(&e, 0, sizeof e);
    uint64_t made[MAX_TEXTURES];
    uint32_t nmade = 0;
    int texture_rc = 0;
    if (rc == 0) {
        cb_launch_config c = *cfg;
        if (cfg->params && cfg->param_bytes) {
            params_rebased(info, cfg, rs, at, params);
            c.params = params;
            if (info->uses_textures)   /* the device's objects, made again over the copies */
                texture_rc = rc = textures_remade(k, info, cfg, rs, at, b, params, made, &nmade, note, notelen);
        }
        if (rc == 0)
            lr = b->launch(b, r->module, k->kernel, &c, &e);
        for (uint32_t i = 0; i < rs->n && lr == CUDA_SUCCESS && rc == 0; i++)
            if (!(rs->r[i].reference = malloc(rs->r[i].bytes)) ||
                b->copy_dtoh(b, rs->r[i].reference, at[i], rs->r[i].bytes) != CUDA_SUCCESS)
                rc = -1;
    }
    for (uint32_t i = 0; i < nmade; i++)
        b->texture_destroy(b, made[i]);
    for (uint32_t i = 0; i < rs->n; i++)
        if (mem[i].addr)
            b->mem_free(b, &mem[i]);
    cb_mutex_unlock(&r->lock);
    free(params);
    if (texture_rc)
        return -1;   /* the note says why */
    if (lr != CUDA_SUCCESS) {
        snprintf(note, notelen, "the reference run failed: %.150s", e.message[0] ? e.message : cbi_result_name(lr));
        return -1;
    }
    if (rc)
        snprintf(note, notelen, "out of memory for the reference");
    return rc;
}
