/* parse_instr.c: instructions -> IR: guards, the opcode and its modifiers
 * and types (found in ops.def and mods.def), operands of every kind, call
 * operand lists, labels. Names resolve through the scope stack. */
#include "ptx/parser.h"

/* ---- operands ------------------------------------------------------------------------- */

static int special_of(const ptx_token *t, uint8_t *comp)
{
    /* "%tid.x" -> tid, 1 */
    const char *s = t->text + 1;
    uint32_t n = t->len - 1, base = n;
    *comp = 0;
    if (n >= 2 && s[n - 2] == '.') {
        char c = s[n - 1];
        if (c != 'x' && c != 'y' && c != 'z')
            return -1;
        *comp = (uint8_t)(c - 'x' + 1);
        base = n - 2;
    }
    for (int i = 0; i < PTX_NSPECIALS; i++) {
        const char *name = ptx_special_name(i);
        if (i == PTX_SREG_envreg)
            continue;   /* %envreg0..31: envreg_index */
        if (strlen(name) == base && memcmp(name, s, base) == 0) {
            int has_comp = i == PTX_SREG_tid || i == PTX_SREG_ntid || i == PTX_SREG_ctaid ||
                           i == PTX_SREG_nctaid || i == PTX_SREG_clusterid || i == PTX_SREG_nclusterid ||
                           i == PTX_SREG_cluster_ctaid || i == PTX_SREG_cluster_nctaid;
            if (has_comp != (*comp != 0) || i == PTX_SREG_warpsize)
                return -1;
            return i;
        }
    }
    return -1;
}

/* "%envreg7" -> 7; -1 if t is not %envreg0..%envreg31. */
static int envreg_index(const ptx_token *t)
{
    if (t->len < 8 || t->len > 9 || memcmp(t->text, "%envreg", 7) != 0)
        return -1;
    int v = 0;
    for (uint32_t i = 7; i < t->len; i++) {
        if (t->text[i] < '0' || t->text[i] > '9')
            return -1;
        v = v * 10 + (t->text[i] - '0');
    }
    return v < 32 && !(t->len == 9 && t->text[7] == '0') ? v : -1;
}

static ptx_operand parse_operand(parser *p, int depth);

static ptx_operand *parse_list(parser *p, char close, uint32_t *n, int depth)
{
    ptx_operand tmp[64];
    uint32_t count = 0;
    if (!is_punct(peek(p), close)) {
        do {
            if (count == 64)
                fail_here(p, "too many operands in a list");
            tmp[count++] = parse_operand(p, depth + 1);
        } while (accept_punct(p, ','));
    }
    expect_punct(p, close);
    ptx_operand *e = alloc(p, (count ? count : 1) * sizeof(ptx_operand));
    memcpy(e, tmp, count * sizeof(ptx_operand));
    *n = count;
    return e;
}

static void resolve_symbol(parser *p, const ptx_token *t, ptx_operand *o)
{
    o->kind = PTX_OPD_sym;
    o->sym.name = tok_str(p, t);
    name_entry *e = lookup(p, t->text, t->len);
    if (!e) {
        o->sym.kind = PTX_SYM_label;   /* verify.c checks that the label exists */
        o->sym.index = -1;
        return;
    }
    switch (e->kind) {
    case NAME_VAR: o->sym.kind = PTX_SYM_func_var; break;
    case NAME_MVAR: o->sym.kind = PTX_SYM_module_var; break;
    case NAME_FUNC: o->sym.kind = PTX_SYM_func; break;
    default: fail_at(p, t, "a register cannot be used here");
    }
    o->sym.index = e->index;
}

static void parse_name_operand(parser *p, const ptx_token *t, ptx_operand *o)
{
    if (t->text[0] == '%') {
        name_entry *e = lookup(p, t->text, t->len);
        if (e && e->kind == NAME_REG) {
            o->kind = PTX_OPD_reg;
            o->reg = e->index;
            return;
        }
        int s = special_of(t, &o->comp);
        int env = envreg_index(t);
        if (env >= 0) {
            s = PTX_SREG_envreg;
            o->imm = (uint64_t)env;
        }
        if (s < 0 && t->len >= 19 && !memcmp(t->text, "%current_graph_exec", 19))
            fail_at(p, t, "%current_graph_exec (device-side graph launch) is not supported by cubridge");
        if (s < 0 && t->len > 14 && !memcmp(t->text, "%reserved_smem", 14))
            fail_at(p, t, "the reserved shared memory registers (%reserved_smem_*) are not supported by cubridge");
        if (s < 0)
            fail_at(p, t, "unknown register");
        o->kind = PTX_OPD_special;
        o->special = s;
        return;
    }
    if (is_word(t, "_")) {
        o->kind = PTX_OPD_sink;
        return;
    }
    if (is_word(t, "WARP_SZ")) {
        o->kind = PTX_OPD_special;
        o->special = PTX_SREG_warpsize;
        return;
    }
    if (t->text[0] == '.')
        fail_at(p, t, "expected an operand");
    name_entry *e = lookup(p, t->text, t->len);
    if (e && e->kind == NAME_REG) {   /* registers need no '%' (inline asm: "f", "__$temp3") */
        o->kind = PTX_OPD_reg;
        o->reg = e->index;
        return;
    }
    resolve_symbol(p, t, o);
}

/* [base], [base+off], [base-off], [imm] */
static void parse_address(parser *p, ptx_operand *o)
{
    o->kind = PTX_OPD_mem;
    const ptx_token *t = next(p);
    if (t->kind == PTX_TOK_INT) {
        o->imm = t->value;
    } else if (t->kind == PTX_TOK_IDENT) {
        ptx_operand b = {0};
        b.reg = b.reg2 = -1;
        parse_name_operand(p, t, &b);
        if (b.kind == PTX_OPD_reg)
            o->reg = b.reg;
        else if (b.kind == PTX_OPD_sym)
            o->sym = b.sym;
        else
            fail_at(p, t, "bad address");
    } else {
        fail_at(p, t, "bad address");
    }
    while (is_punct(peek(p), '+') || is_punct(peek(p), '-')) {
        int neg = next(p)->text[0] == '-';
        if (accept_punct(p, '-'))
            neg = !neg;
        uint64_t v = expect_int(p, "an address offset");
        o->offset = (int64_t)(neg ? (uint64_t)0 - v : v);
    }
    /* texture/surface operands: [obj, {coordinates}] or [tex, sampler, {coordinates}] */
    if (accept_punct(p, ',')) {
        ptx_operand tmp[2];
        uint32_t n = 0;
        do {
            if (n == 2)
                fail_here(p, "too many parts in a texture operand");
            tmp[n++] = parse_operand(p, 1);
        } while (accept_punct(p, ','));
        o->elems = alloc(p, n * sizeof(ptx_operand));
        memcpy(o->elems, tmp, n * sizeof(ptx_operand));
        o->nelems = n;
    }
    expect_punct(p, ']');
}

static ptx_operand parse_operand(parser *p, int depth)
{
    ptx_operand o = {0};
    o.reg = o.reg2 = -1;
    if (depth > 4)
        fail_here(p, "operand nested too deeply");
    const ptx_token *t = next(p);
    if (is_punct(t, '!')) {
        const ptx_token *r = next(p);
        if (r->kind != PTX_TOK_IDENT)
            fail_at(p, r, "expected a predicate after '!'");
        parse_name_operand(p, r, &o);
        if (o.kind != PTX_OPD_reg)
            fail_at(p, r, "'!' needs a predicate register");
        o.neg = 1;
    } else if (is_punct(t, '-') && (peek(p)->kind == PTX_TOK_INT || peek(p)->kind == PTX_TOK_F32 ||
                                    peek(p)->kind == PTX_TOK_F64)) {
        const ptx_token *n = next(p);
        o.kind = n->kind == PTX_TOK_INT ? PTX_OPD_int : n->kind == PTX_TOK_F32 ? PTX_OPD_f32 : PTX_OPD_f64;
        o.imm = n->kind == PTX_TOK_INT ? (uint64_t)0 - n->value
                : n->kind == PTX_TOK_F32 ? n->value ^ 0x80000000u : n->value ^ 0x8000000000000000ull;
    } else if (t->kind == PTX_TOK_INT) {
        o.kind = PTX_OPD_int;
        o.imm = t->value;
    } else if (t->kind == PTX_TOK_F32 || t->kind == PTX_TOK_F64) {
        o.kind = t->kind == PTX_TOK_F32 ? PTX_OPD_f32 : PTX_OPD_f64;
        o.imm = t->value;
    } else if (is_punct(t, '{')) {
        o.kind = PTX_OPD_vec;
        o.elems = parse_list(p, '}', &o.nelems, depth);
    } else if (is_punct(t, '(')) {
        o.kind = PTX_OPD_list;
        o.elems = parse_list(p, ')', &o.nelems, depth);
    } else if (is_punct(t, '[')) {
        parse_address(p, &o);
    } else if (t->kind == PTX_TOK_IDENT) {
        parse_name_operand(p, t, &o);
        if (o.kind == PTX_OPD_sym && (is_punct(peek(p), '+') || is_punct(peek(p), '-')) &&
            peek_at(p, 1)->kind == PTX_TOK_INT) {
            int neg = next(p)->text[0] == '-';
            uint64_t v = next(p)->value;
            o.offset = (int64_t)(neg ? (uint64_t)0 - v : v);
        }
    } else {
        fail_at(p, t, t->kind == PTX_TOK_EOF ? "unexpected end of input" : "bad operand");
    }
    if (accept_punct(p, '|')) {
        const ptx_token *r = next(p);
        ptx_operand q = {0};
        if (r->kind != PTX_TOK_IDENT)
            fail_at(p, r, "expected a predicate after '|'");
        parse_name_operand(p, r, &q);
        /* d|p, and {d0, d1, d2, d3}|p for texture fetches with a residency predicate */
        if ((o.kind != PTX_OPD_reg && o.kind != PTX_OPD_sink && o.kind != PTX_OPD_vec) || q.kind != PTX_OPD_reg)
            fail_at(p, r, "'|' joins two registers");
        o.reg2 = q.reg;
    }
    return o;
}

/* call[.uni] [(rets),] target [, (args)] [, proto]; */
static void parse_call_operands(parser *p, ptx_instr *in)
{
    ptx_operand ops[4];
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < 4; i++)
        ops[i].reg = ops[i].reg2 = -1;
    ops[0].kind = ops[2].kind = PTX_OPD_list;
    ops[0].elems = ops[2].elems = NULL;
    int n = 3;
    if (accept_punct(p, '(')) {
        ops[0].elems = parse_list(p, ')', &ops[0].nelems, 0);
        expect_punct(p, ',');
    }
    ops[1] = parse_operand(p, 0);
    if (accept_punct(p, ',')) {
        if (accept_punct(p, '('))
            ops[2].elems = parse_list(p, ')', &ops[2].nelems, 0);
        else
            fail_here(p, "expected '(' for the call arguments");
        if (accept_punct(p, ',')) {
            ops[3] = parse_operand(p, 0);
            n = 4;
        }
    }
    in->ops = alloc(p, sizeof ops);
    memcpy(in->ops, ops, sizeof ops);
    in->nops = (uint8_t)n;
}

/* Instructions of targets the CPU backend cannot honour, named in the error. */
static void reject_arch_specific(parser *p, const ptx_token *t)
{
    static const struct { const char *prefix, *why; } rejected[] = {
        {"wgmma", "warpgroup matrix multiply-accumulate (wgmma, sm_90a)"},
        {"cp.async.bulk.tensor", "tensor bulk copies (cp.async.bulk.tensor, TMA: they read tensor maps)"},
        {"cp.reduce.async.bulk.tensor", "tensor bulk reductions (cp.reduce.async.bulk.tensor, TMA)"},
        {"multimem", "multimem operations (sm_90: they address the multicast objects of several GPUs)"},
        {"tcgen05", "tensor-memory instructions (tcgen05, sm_100a)"},
        {"clusterlaunchcontrol", "cluster launch control (clusterlaunchcontrol, sm_100)"},
    };
    for (size_t i = 0; i < sizeof rejected / sizeof rejected[0]; i++) {
        size_t n = strlen(rejected[i].prefix);
        if (t->len >= n && memcmp(t->text, rejected[i].prefix, n) == 0 && (t->len == n || t->text[n] == '.')) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: not supported by cubridge's CPU backend", rejected[i].why);
            fail_at(p, t, msg);
        }
    }
}

/* The opcode token: "ld.global.v2.f32" -> op, modifiers, types. */
static void parse_opcode(parser *p, const ptx_token *t, ptx_instr *in)
{
    const char *s = t->text, *end = t->text + t->len;
    const char *dot = memchr(s, '.', t->len);
    size_t n = dot ? (size_t)(dot - s) : t->len;
    reject_arch_specific(p, t);
    int op = ptx_opcode_find(s, n);
    if (op < 0)
        fail_at(p, t, "unknown instruction");
    in->op = (ptx_opcode)op;
    while (dot && dot < end) {
        const char *seg = dot + 1;
        const char *nd = memchr(seg, '.', (size_t)(end - seg));
        size_t sl = nd ? (size_t)(nd - seg) : (size_t)(end - seg);
        ptx_type ty = ptx_type_from_name(seg, sl);
        if (ty != PTX_TYPE_none) {
            if (in->ntypes == 4)
                fail_at(p, t, "too many types");
            in->types[in->ntypes++] = ty;
        } else {
            int m = ptx_mod_find(seg, sl);
            if (m < 0) {
                char msg[96];
                snprintf(msg, sizeof msg, "unknown modifier '.%.*s'", (int)(sl > 40 ? 40 : sl), seg);
                fail_at(p, t, msg);
            }
            ptx_set_mod(in, (ptx_mod)m);
        }
        dot = nd;
    }
}

void ptx_parse_instruction(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *first = peek(p);
    f->instrs = grow(p, f->instrs, &f->cap_instrs, f->ninstrs, sizeof(ptx_instr));
    ptx_instr *in = &f->instrs[f->ninstrs];
    memset(in, 0, sizeof *in);
    in->guard = -1;
    if (accept_punct(p, '@')) {
        int neg = accept_punct(p, '!');
        const ptx_token *g = next(p);
        name_entry *e = g->kind == PTX_TOK_IDENT ? lookup(p, g->text, g->len) : NULL;
        if (!e || e->kind != NAME_REG)
            fail_at(p, g, "expected a predicate register after '@'");
        in->guard = e->index;
        in->guard_neg = (uint8_t)neg;
    }
    const ptx_token *ot = next(p);
    if (ot->kind != PTX_TOK_IDENT)
        fail_at(p, ot, ot->kind == PTX_TOK_EOF ? "unexpected end of input" : "expected an instruction");
    in->line = ot->line;
    parse_opcode(p, ot, in);
    if (in->op == PTX_OP_call) {
        parse_call_operands(p, in);
    } else if (!is_punct(peek(p), ';')) {
        ptx_operand tmp[8];
        uint32_t n = 0;
        do {
            if (n == 8)
                fail_here(p, "too many operands");
            tmp[n++] = parse_operand(p, 0);
        } while (accept_punct(p, ','));
        in->ops = alloc(p, n * sizeof(ptx_operand));
        memcpy(in->ops, tmp, n * sizeof(ptx_operand));
        in->nops = (uint8_t)n;
    }
    const ptx_token *semi = peek(p);
    expect_punct(p, ';');
    size_t len = (size_t)(semi->text + 1 - first->text);
    if (semi->text < first->text || len > 4096)
        len = ot->len;
    in->text = ptx_arena_strndup(&p->m->arena, first->text, len);
    in->textlen = (uint32_t)len;
    f->ninstrs++;
}

void ptx_parse_label(parser *p)
{
    ptx_func *f = p->fn;
    const ptx_token *t = next(p);
    next(p);   /* ':' */
    for (uint32_t i = 0; i < f->nlabels; i++)
        if (strlen(f->labels[i].name) == t->len && memcmp(f->labels[i].name, t->text, t->len) == 0)
            fail_at(p, t, "label defined twice");
    f->labels = grow(p, f->labels, &f->cap_labels, f->nlabels, sizeof(ptx_label));
    ptx_label *l = &f->labels[f->nlabels++];
    l->name = tok_str(p, t);
    l->cname = make_cname(p, &p->func_cnames, "L_", l->name[0] == '$' ? l->name + 1 : l->name);
    l->instr = f->ninstrs;
    l->line = t->line;
}
