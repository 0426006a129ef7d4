/* warp.c: warp collectives built on the runtime's warp_exchange
 * (match.sync, redux.sync, elect.sync), nanosleep, and the warp convergence
 * points of volatile accesses (CB_DIALECT_C).
 *
 * Each lane hands a cb_wx (its operand in, its result out) to
 * rt->warp_exchange together with one of the cb_wfn_* functions below; the
 * runtime calls that function once, when every lane taking part has arrived,
 * with all the lanes' cb_wx. The semantics therefore live here, in the
 * generated unit, and the runtime only provides the rendezvous.
 */
#include "codegen/c/c.h"

#include <string.h>

const char cb_codegen_c_prelude_warp[] =
"/* ---- warp collectives over rt->warp_exchange ---- */\n"
"#define CB_WFN static __attribute__((unused)) void\n"
"typedef struct cb_wx { uint64_t a; uint64_t r; uint32_t p; } cb_wx;\n"
"#define CB_WX(d, l) ((cb_wx *)(d)[l])\n"
"#define CB_FOR_LANES(l, lanes) for (uint32_t l = 0; l < 32; l++) if ((lanes) >> l & 1u)\n"
"/* match.any: the lanes holding the same value; match.all: all of them or none */\n"
"CB_WFN cb_wfn_match_any(void *const d[32], uint32_t lanes) {\n"
"  CB_FOR_LANES(l, lanes) { uint32_t m = 0; CB_FOR_LANES(k, lanes) if (CB_WX(d, k)->a == CB_WX(d, l)->a) m |= 1u << k;\n"
"    CB_WX(d, l)->r = m; CB_WX(d, l)->p = m == lanes; } }\n"
"CB_WFN cb_wfn_match_all(void *const d[32], uint32_t lanes) { uint32_t first = (uint32_t)__builtin_ctz(lanes), same = 1;\n"
"  CB_FOR_LANES(l, lanes) same &= CB_WX(d, l)->a == CB_WX(d, first)->a;\n"
"  CB_FOR_LANES(l, lanes) { CB_WX(d, l)->r = same ? lanes : 0; CB_WX(d, l)->p = same; } }\n"
"/* redux: one 32-bit result for every lane */\n"
"#define CB_REDUX(NAME, INIT, STEP) \\\n"
"  CB_WFN cb_wfn_redux_##NAME(void *const d[32], uint32_t lanes) { uint32_t r = (INIT); \\\n"
"    CB_FOR_LANES(l, lanes) { uint32_t v = (uint32_t)CB_WX(d, l)->a; r = (STEP); } \\\n"
"    CB_FOR_LANES(l, lanes) CB_WX(d, l)->r = r; }\n"
"CB_REDUX(add, 0u, r + v) CB_REDUX(and, 0xffffffffu, r & v) CB_REDUX(or, 0u, r | v) CB_REDUX(xor, 0u, r ^ v)\n"
"CB_REDUX(min_u32, 0xffffffffu, v < r ? v : r) CB_REDUX(max_u32, 0u, v > r ? v : r)\n"
"CB_REDUX(min_s32, 0x7fffffffu, (int32_t)v < (int32_t)r ? v : r) CB_REDUX(max_s32, 0x80000000u, (int32_t)v > (int32_t)r ? v : r)\n"
"/* elect: the lowest lane taking part is the leader */\n"
"CB_WFN cb_wfn_elect(void *const d[32], uint32_t lanes) { uint32_t leader = (uint32_t)__builtin_ctz(lanes);\n"
"  CB_FOR_LANES(l, lanes) { CB_WX(d, l)->r = leader; CB_WX(d, l)->p = l == leader; } }\n";

/* The same functions for 64-lane warps (cb_translate_opts.warp_size 64,
 * docs/cpu-backend.md "64-lane warps"): the runtime hands in d[0..63], a lane
 * taking part when its d[l] is not NULL (lanes then holds only the low 32
 * bits of that mask); a result that is a lane mask (match) is the low 32
 * bits of the 64-lane mask, and elect's leader is a lane 0..63. */
const char cb_codegen_c_prelude_warp64[] =
"/* ---- warp collectives over rt->warp_exchange: 64-lane warps, d[0..63], a lane takes part when d[l] != NULL ---- */\n"
"#define CB_WFN static __attribute__((unused)) void\n"
"typedef struct cb_wx { uint64_t a; uint64_t r; uint32_t p; } cb_wx;\n"
"#define CB_WX(d, l) ((cb_wx *)(d)[l])\n"
"#define CB_FOR_LANES(l, lanes) for (uint32_t l = 0; l < 64; l++) if ((void)(lanes), (d)[l])\n"
"CB_INL uint64_t cb_wlanes(void *const d[]) { uint64_t m = 0; for (uint32_t l = 0; l < 64; l++) if (d[l]) m |= 1ull << l; return m; }\n"
"/* match.any: the lanes holding the same value; match.all: all of them or none (low 32 bits of the masks) */\n"
"CB_WFN cb_wfn_match_any(void *const d[], uint32_t lanes) { uint64_t all = cb_wlanes(d);\n"
"  CB_FOR_LANES(l, lanes) { uint64_t m = 0; CB_FOR_LANES(k, lanes) if (CB_WX(d, k)->a == CB_WX(d, l)->a) m |= 1ull << k;\n"
"    CB_WX(d, l)->r = (uint32_t)m; CB_WX(d, l)->p = m == all; } }\n"
"CB_WFN cb_wfn_match_all(void *const d[], uint32_t lanes) { uint64_t all = cb_wlanes(d); uint32_t first = (uint32_t)__builtin_ctzll(all), same = 1;\n"
"  CB_FOR_LANES(l, lanes) same &= CB_WX(d, l)->a == CB_WX(d, first)->a;\n"
"  CB_FOR_LANES(l, lanes) { CB_WX(d, l)->r = same ? (uint32_t)all : 0; CB_WX(d, l)->p = same; } }\n"
"/* redux: one 32-bit result for every lane */\n"
"#define CB_REDUX(NAME, INIT, STEP) \\\n"
"  CB_WFN cb_wfn_redux_##NAME(void *const d[], uint32_t lanes) { uint32_t r = (INIT); \\\n"
"    CB_FOR_LANES(l, lanes) { uint32_t v = (uint32_t)CB_WX(d, l)->a; r = (STEP); } \\\n"
"    CB_FOR_LANES(l, lanes) CB_WX(d, l)->r = r; }\n"
"CB_REDUX(add, 0u, r + v) CB_REDUX(and, 0xffffffffu, r & v) CB_REDUX(or, 0u, r | v) CB_REDUX(xor, 0u, r ^ v)\n"
"CB_REDUX(min_u32, 0xffffffffu, v < r ? v : r) CB_REDUX(max_u32, 0u, v > r ? v : r)\n"
"CB_REDUX(min_s32, 0x7fffffffu, (int32_t)v < (int32_t)r ? v : r) CB_REDUX(max_s32, 0x80000000u, (int32_t)v > (int32_t)r ? v : r)\n"
"/* elect: the lowest lane taking part (0..63) is the leader */\n"
"CB_WFN cb_wfn_elect(void *const d[], uint32_t lanes) { uint32_t leader = (uint32_t)__builtin_ctzll(cb_wlanes(d));\n"
"  CB_FOR_LANES(l, lanes) { CB_WX(d, l)->r = leader; CB_WX(d, l)->p = l == leader; } }\n";

/* The membermask operand i, or all lanes. */
static void read_mask(cg *c, const ptx_instr *in, int i)
{
    if (i < in->nops)
        cg_read(c, &in->ops[i], PTX_TYPE_u32);
    else
        cg_puts(c, "0xffffffffu");
}

/* Calls warp_exchange with value operand a (or none) and fn. */
static void exchange(cg *c, const ptx_instr *in, const ptx_operand *a, ptx_type aty, int mask_op, const char *fn)
{
    cg_puts(c, "cb_wx cb_w; memset(&cb_w, 0, sizeof cb_w);");
    if (a) {
        cg_printf(c, " cb_w.a = (uint64_t)(%s)", ptx_type_size(aty) == 8 ? "uint64_t" : "uint32_t");
        cg_read(c, a, aty);
        cg_puts(c, ";");
    }
    cg_puts(c, "\n    t->blk->rt->warp_exchange(t, ");
    read_mask(c, in, mask_op);
    cg_printf(c, ", &cb_w, %s);\n", fn);
}

/* Writes cb_w.r to the destination, and cb_w.p to its "|p" predicate. */
static void write_results(cg *c, const ptx_operand *d, ptx_type ty)
{
    cg_puts(c, "    ");
    cg_dst_open(c, d, ty);
    cg_puts(c, "cb_w.r");
    cg_dst_close(c, d, ty);
    if (d->reg2 >= 0) {
        ptx_operand q = *d;
        q.kind = PTX_OPD_reg;
        q.reg = q.reg2;
        cg_puts(c, "    ");
        cg_dst_open(c, &q, PTX_TYPE_pred);
        cg_puts(c, "cb_w.p");
        cg_dst_close(c, &q, PTX_TYPE_pred);
    }
}

/* match.any.sync.b32/b64 d, a, membermask; match.all.sync.b32/b64 d[|p], a, membermask */
void c_emit_match(cg *c, const ptx_instr *in)
{
    ptx_type ty = in->ntypes ? in->types[0] : PTX_TYPE_none;
    int any = ptx_has(in, PTX_MOD_any), all = ptx_has(in, PTX_MOD_all);
    if (any == all || !ptx_has(in, PTX_MOD_sync) || in->nops != 3)
        cg_fail(c, "match needs .any or .all, .sync, and d, a, membermask");
    if (ptx_type_size(ty) != 4 && ptx_type_size(ty) != 8)
        cg_fail(c, "match takes .b32 or .b64");
    if (any && in->ops[0].reg2 >= 0)
        cg_fail(c, "match.any has no predicate destination");
    exchange(c, in, &in->ops[1], ptx_type_size(ty) == 8 ? PTX_TYPE_b64 : PTX_TYPE_b32, 2,
             any ? "cb_wfn_match_any" : "cb_wfn_match_all");
    write_results(c, &in->ops[0], PTX_TYPE_b32);
}

/* redux.sync.{add,min,max}.{u32,s32} and redux.sync.{and,or,xor}.b32 d, a, membermask */
void c_emit_redux(cg *c, const ptx_instr *in)
{
    if (cg_emit_redux_f32(c, in))   /* redux.sync.{min,max}{.abs}{.NaN}.f32 (sm_100a): simd.c */
        return;
    ptx_type ty = in->ntypes ? in->types[0] : PTX_TYPE_none;
    char k = ptx_type_kind(ty);
    const char *fn = NULL;
    if (!ptx_has(in, PTX_MOD_sync) || in->nops != 3 || ptx_type_size(ty) != 4)
        cg_fail(c, "redux needs .sync, a 32-bit integer type, and d, a, membermask");
    if (ptx_has(in, PTX_MOD_add) && (k == 'u' || k == 's'))
        fn = "cb_wfn_redux_add";
    else if (ptx_has(in, PTX_MOD_min) && (k == 'u' || k == 's'))
        fn = k == 's' ? "cb_wfn_redux_min_s32" : "cb_wfn_redux_min_u32";
    else if (ptx_has(in, PTX_MOD_max) && (k == 'u' || k == 's'))
        fn = k == 's' ? "cb_wfn_redux_max_s32" : "cb_wfn_redux_max_u32";
    else if (ptx_has(in, PTX_MOD_and) && k == 'b')
        fn = "cb_wfn_redux_and";
    else if (ptx_has(in, PTX_MOD_or) && k == 'b')
        fn = "cb_wfn_redux_or";
    else if (ptx_has(in, PTX_MOD_xor) && k == 'b')
        fn = "cb_wfn_redux_xor";
    if (!fn)
        cg_fail(c, "unsupported redux operation or type (add/min/max take .u32/.s32, and/or/xor take .b32)");
    exchange(c, in, &in->ops[1], PTX_TYPE_b32, 2, fn);
    write_results(c, &in->ops[0], PTX_TYPE_b32);
}

/* elect.sync d|p, membermask */
void c_emit_elect(cg *c, const ptx_instr *in)
{
    if (!ptx_has(in, PTX_MOD_sync) || in->nops != 2 || in->ops[0].reg2 < 0)
        cg_fail(c, "elect needs .sync and d|p, membermask");
    exchange(c, in, NULL, PTX_TYPE_b32, 1, "cb_wfn_elect");
    write_results(c, &in->ops[0], PTX_TYPE_b32);
}

/* nanosleep: a hint; the other threads of the block get to run. */
void c_emit_nanosleep(cg *c, const ptx_instr *in)
{
    (void)in;
    cg_puts(c, "t->blk->rt->yield(t);\n");
}
