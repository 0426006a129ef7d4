"""The one-form-per-word ISA cases (read by gen_isa.py).

Each case is one PTX instruction form: a body that reads %a %b %c %d (the
thread's four input words) and writes its result to $o (and $p, the high
word, for 64-bit results). gen_isa.py packs eight words to a kernel.
Check kinds: x bit-exact; f f32 within 2e-6 (relative above 1); r f32
relative 2^-10; u f32 (or the high word of an f64) within 4 units in the
last place; h/b f16/bf16 halves within 2 units; - not compared.
"""

FORMS = {}   # family -> [(name, body, checks)]
TARGETS = {}  # family -> (ptx version, target) when not the default
EXTRA_DECLS = {}  # family -> register declarations its kernels add to the frame


def form(family, name, body, checks="x"):
    FORMS.setdefault(family, []).append((name, body, checks))


LF = "mov.b32 %f0, %a; mov.b32 %f1, %b; mov.b32 %f2, %c; "
LD = "mov.b64 %fd0, {%a, %b}; mov.b64 %fd1, {%c, %d}; mov.b64 %fd2, {%d, %a}; "
LL = "mov.b64 %l1, {%a, %b}; mov.b64 %l2, {%c, %d}; mov.b64 %l4, {%d, %a}; "
LH = "mov.b32 {%h0, %h1}, %a; mov.b32 {%h2, %h3}, %b; mov.b32 {%h6, %h7}, %c; "
OF = " mov.b32 $o, %f3;"
OD = " mov.b64 {$o, $p}, %fd3;"
OL = " mov.b64 {$o, $p}, %l3;"
OH = " mov.b32 $o, {%h4, %h5};"
OP = " selp.u32 $o, 1, 0, %p0;"


def i32(fam, op, n=2, checks="x"):
    args = ", ".join(["%a", "%b", "%c", "%d"][:n])
    form(fam, op, "%s $o, %s;" % (op, args), checks)


def i64(fam, op, n=2, checks="xx"):
    args = ", ".join(["%l1", "%l2", "%l4"][:n])
    form(fam, op, LL + "%s %%l3, %s;" % (op, args) + OL, checks)


def i16(fam, op, n=2):
    """Both 16-bit lanes of a and b (and c) through op."""
    lo = ", ".join(["%h0", "%h2", "%h6"][:n])
    hi = ", ".join(["%h1", "%h3", "%h7"][:n])
    form(fam, op, LH + "%s %%h4, %s; %s %%h5, %s;" % (op, lo, op, hi) + OH)


def f32(fam, op, n=2, checks="x"):
    args = ", ".join(["%f0", "%f1", "%f2"][:n])
    form(fam, op, LF + "%s %%f3, %s;" % (op, args) + OF, checks)


def f64(fam, op, n=2, checks="xx"):
    args = ", ".join(["%fd0", "%fd1", "%fd2"][:n])
    form(fam, op, LD + "%s %%fd3, %s;" % (op, args) + OD, checks)


def h16(fam, op, n=2, checks="x"):
    """Scalar f16/bf16 op on both halves of a (with b, c)."""
    lo = ", ".join(["%h0", "%h2", "%h6"][:n])
    hi = ", ".join(["%h1", "%h3", "%h7"][:n])
    form(fam, op, LH + "%s %%h4, %s; %s %%h5, %s;" % (op, lo, op, hi) + OH, checks)


def h32(fam, op, n=2, checks="x"):
    """Packed f16x2/bf16x2 op."""
    args = ", ".join(["%a", "%b", "%c"][:n])
    form(fam, op, "%s $o, %s;" % (op, args), checks)


def setp(fam, op, load, a, b):
    form(fam, op, load + "%s %%p0, %s, %s;" % (op, a, b) + OP)


# ---- integer arithmetic ------------------------------------------------------
for op in ["add.s32", "sub.s32", "add.sat.s32", "sub.sat.s32", "mul.lo.s32", "mul.hi.u32", "min.u32",
           "max.u32", "max.s32", "and.b32", "or.b32", "xor.b32", "sad.u32", "div.s32", "div.u32", "rem.s32",
           "rem.u32", "shl.b32", "shr.u32", "shr.s32"]:
    i32("int_arith", op, 3 if op.startswith("sad") else 2)
i32("int_arith", "mad.lo.s32", 3)
i32("int_arith", "mad.hi.s32", 3)
i32("int_arith", "mad.hi.u32", 3)
i32("int_arith", "mad.hi.sat.s32", 3)
i32("int_arith", "mad24.lo.s32", 3)
i32("int_arith", "mad24.hi.u32", 3)
for op in ["abs.s32", "neg.s32", "not.b32", "cnot.b32", "clz.b32", "bfind.s32",
           "bfind.shiftamt.u32"]:
    i32("int_arith", op, 1)
form("int_arith", "shl.b32 (shift c)", "shl.b32 $o, %a, %c;")
form("int_arith", "shr.s32 (shift c)", "shr.s32 $o, %a, %c;")
form("int_arith", "bfe.u32 (pos c, len d)", "bfe.u32 $o, %a, %c, %d;")
form("int_arith", "bfe.s32 (pos c, len d)", "bfe.s32 $o, %a, %c, %d;")
form("int_arith", "prmt.b32 0x5410", "prmt.b32 $o, %a, %b, 0x5410;")
form("int_arith", "prmt.b32 0x3276", "prmt.b32 $o, %a, %b, 0x3276;")
form("int_arith", "prmt.b32 0x9b8a (sign replicate)", "prmt.b32 $o, %a, %b, 0x9b8a;")
form("int_arith", "min.s16x2", "min.s16x2 $o, %a, %b;")
form("int_arith", "max.u16x2", "max.u16x2 $o, %a, %b;")
form("int_arith", "min.relu.s16x2", "min.relu.s16x2 $o, %a, %b;")

for op in ["add.u16", "sub.s16", "mul.lo.u16", "mul.hi.s16", "mul.hi.u16", "div.s16", "rem.u16", "abs.s16",
           "neg.s16", "min.s16", "max.u16", "sad.u16", "and.b16", "not.b16", "cnot.b16"]:
    i16("int16", op, 1 if op.split(".")[0] in ("abs", "neg", "not", "cnot") else 3 if op.startswith("sad") else 2)
for op in ["shl.b16", "shr.s16", "shr.u16"]:
    form("int16", op, LH + "%s %%h4, %%h0, %%c; %s %%h5, %%h1, %%b;" % (op, op) + OH)
form("int16", "mul.wide.s16", "mov.b32 {%h0, %h1}, %a; mul.wide.s16 $o, %h0, %h1;")
form("int16", "mad.wide.u16", "mov.b32 {%h0, %h1}, %a; mad.wide.u16 $o, %h0, %h1, %b;")
form("int16", "mad.lo.s16", LH + "mad.lo.s16 %h4, %h0, %h2, %h6; mad.lo.s16 %h5, %h1, %h3, %h7;" + OH)

for op in ["add.s64", "sub.s64", "mul.lo.s64", "mul.hi.s64", "mul.hi.u64", "div.s64", "div.u64", "rem.s64",
           "rem.u64", "min.s64", "max.u64", "min.u64", "max.s64", "and.b64", "xor.b64"]:
    i64("int64", op)
for op in ["abs.s64", "neg.s64", "not.b64", "brev.b64"]:
    i64("int64", op, 1)
i64("int64", "mad.lo.s64", 3)
i64("int64", "mad.hi.u64", 3)
i64("int64", "mad.hi.s64", 3)
i64("int64", "sad.s64", 3)
form("int64", "shl.b64", LL + "shl.b64 %l3, %l1, %c;" + OL, "xx")
form("int64", "shr.u64", LL + "shr.u64 %l3, %l1, %c;" + OL, "xx")
form("int64", "shr.s64", LL + "shr.s64 %l3, %l1, %c;" + OL, "xx")
form("int64", "bfe.u64", LL + "bfe.u64 %l3, %l1, %c, %d;" + OL, "xx")
form("int64", "bfind.u64", LL + "bfind.u64 $o, %l1;")
form("int64", "bfind.shiftamt.s64", LL + "bfind.shiftamt.s64 $o, %l1;")
form("int64", "clz.b64", LL + "clz.b64 $o, %l1;")
form("int64", "popc.b64", LL + "popc.b64 $o, %l1;")
for op in ["mul.wide.s32", "mul.wide.u32"]:
    form("int64", op, "%s %%l3, %%a, %%b;" % op + OL, "xx")
for op in ["mad.wide.s32", "mad.wide.u32"]:
    form("int64", op, LL + "%s %%l3, %%a, %%b, %%l2;" % op + OL, "xx")

# carry chains: 64-bit .cc, signed .cc, madc
form("int_carry", "add.cc.u64, addc.u64", LL + "add.cc.u64 %l3, %l1, %l2; addc.u64 %l5, %l1, %l4; "
     "cvt.u32.u64 $o, %l3; cvt.u32.u64 $p, %l5;", "xx")
form("int_carry", "sub.cc.s64, subc.cc.s64, subc.s64", LL + "sub.cc.s64 %l3, %l1, %l2; subc.cc.s64 %l5, %l1, %l4; "
     "subc.s64 %l6, 0, 0; cvt.u32.u64 $o, %l5; cvt.u32.u64 $p, %l6;", "xx")
form("int_carry", "add.cc.s32, addc.cc.s32", "add.cc.s32 %t0, %a, %b; addc.cc.s32 $o, %c, %d; addc.u32 $p, 0, 0;", "xx")
form("int_carry", "sub.cc.s32, subc.s32", "sub.cc.s32 %t0, %a, %b; subc.s32 $o, %c, %d;")
form("int_carry", "madc.lo.cc.u32", "add.cc.u32 %t0, %a, %d; madc.lo.cc.u32 $o, %a, %b, %c; addc.u32 $p, 0, 0;", "xx")
form("int_carry", "mad.hi.cc.s32, madc.lo.s32", "mad.hi.cc.s32 %t0, %a, %b, %c; madc.lo.s32 $o, %a, %b, %d;")
form("int_carry", "madc.hi.cc.u64", LL + "add.cc.u64 %l5, %l1, %l2; madc.hi.cc.u64 %l3, %l1, %l2, %l4; "
     "addc.u32 $p, 0, 0; cvt.u32.u64 $o, %l3;", "xx")
form("int_carry", "mad.lo.cc.u64, madc.lo.u64", LL + "mad.lo.cc.u64 %l5, %l1, %l2, %l4; madc.lo.u64 %l3, %l2, %l4, %l1;"
     + OL, "xx")

# integer conversions and packing
for d, s in [("s32", "s8"), ("u32", "u8"), ("s32", "s16"), ("u32", "u16"), ("s16", "s8"), ("u16", "u8")]:
    w = "%t0" if d.endswith("32") else "%h4"
    src = "%a" if s in ("s8", "u8") and d.endswith("32") else "%h0"
    body = "mov.b32 {%h0, %h1}, %a; " + ("cvt.%s.%s %s, %s;" % (d, s, w, src))
    body += " mov.b32 $o, %t0;" if w == "%t0" else " cvt.u32.u16 $o, %h4;"
    form("int_cvt", "cvt.%s.%s" % (d, s), body)
for d, s in [("sat.s8", "s32"), ("sat.u8", "s32"), ("sat.s16", "s32"), ("sat.u16", "u32"), ("s16", "s32"),
             ("sat.s8", "u32")]:
    form("int_cvt", "cvt.%s.%s" % (d, s), "cvt.%s.%s %%h4, %%a; cvt.u32.u16 $o, %%h4;" % (d, s))
for d in ["sat.s32.s64", "sat.u32.s64", "u32.u64", "sat.s32.u64"]:
    form("int_cvt", "cvt." + d, LL + "cvt.%s $o, %%l1;" % d)
form("int_cvt", "cvt.sat.s32.u32", "cvt.sat.s32.u32 $o, %a;")
form("int_cvt", "cvt.sat.u32.s32", "cvt.sat.u32.s32 $o, %a;")
form("int_cvt", "cvt.s64.s32", "cvt.s64.s32 %l3, %a;" + OL, "xx")
form("int_cvt", "cvt.u64.u16", "mov.b32 {%h0, %h1}, %a; cvt.u64.u16 %l3, %h1;" + OL, "xx")
form("int_cvt", "cvt.s64.s8", "cvt.s64.s8 %l3, %a;" + OL, "xx")
for t in ["u8.s32.b32", "s8.s32.b32", "u4.s32.b32", "s4.s32.b32"]:
    form("int_cvt", "cvt.pack.sat." + t, "cvt.pack.sat.%s $o, %%a, %%b, %%c;" % t)
for t in ["u16.s32", "s16.s32"]:
    form("int_cvt", "cvt.pack.sat." + t, "cvt.pack.sat.%s $o, %%a, %%b;" % t)

# integer compares, set, selects, moves
for cmp in ["eq.s32", "ne.u32", "lt.s32", "le.s32", "gt.s32", "ge.s32", "lo.u32", "ls.u32", "hi.u32", "hs.u32"]:
    setp("int_cmp", "setp." + cmp, "", "%a", "%b")
for cmp in ["lt.s64", "ge.u64", "eq.b64"]:
    setp("int_cmp", "setp." + cmp, LL, "%l1", "%l2")
setp("int_cmp", "setp.gt.s16", LH, "%h0", "%h2")
form("int_cmp", "setp.eq.and.s32", "setp.lt.s32 %p1, %c, %d; setp.eq.and.s32 %p0, %a, %b, !%p1;" + OP)
form("int_cmp", "set.lt.u32.s32", "set.lt.u32.s32 $o, %a, %b;")
form("int_cmp", "set.ne.s32.u32", "set.ne.s32.u32 $o, %a, %b;")
form("int_cmp", "set.gt.f32.s32", "set.gt.f32.s32 $o, %a, %b;")
form("int_cmp", "set.le.or.u32.u64", LL + "setp.eq.s32 %p1, %c, %d; set.le.or.u32.u64 $o, %l1, %l2, %p1;")
form("int_cmp", "selp.b64", LL + "setp.lt.s32 %p0, %c, %d; selp.b64 %l3, %l1, %l2, %p0;" + OL, "xx")
form("int_cmp", "selp.f32", LF + "setp.ne.s32 %p0, %c, 0; selp.f32 %f3, %f0, %f1, %p0;" + OF)
form("int_cmp", "slct.u32.s32", "slct.u32.s32 $o, %a, %b, %c;")
form("int_cmp", "slct.b32.f32", "mov.b32 %f2, %c; slct.b32.f32 $o, %a, %b, %f2;")
form("int_cmp", "slct.ftz.u32.f32", "mov.b32 %f2, %c; slct.ftz.u32.f32 $o, %a, %b, %f2;")
form("int_cmp", "slct.f32.s32", LF + "slct.f32.s32 %f3, %f0, %f1, %c;" + OF)
form("int_cmp", "slct.s64.s32", LL + "slct.s64.s32 %l3, %l1, %l2, %c;" + OL, "xx")
form("int_cmp", "and.pred, or.pred, xor.pred, not.pred", "setp.lt.s32 %p1, %a, %b; setp.lt.u32 %p2, %c, %d; "
     "and.pred %p3, %p1, %p2; or.pred %p4, %p1, %p2; xor.pred %p5, %p1, %p2; not.pred %p6, %p3; "
     "selp.u32 %t0, 1, 0, %p3; selp.u32 %t1, 2, 0, %p4; selp.u32 %t2, 4, 0, %p5; selp.u32 %t3, 8, 0, %p6; "
     "or.b32 %t0, %t0, %t1; or.b32 %t2, %t2, %t3; or.b32 $o, %t0, %t2;")
form("int_cmp", "mov.b64 {lo, hi} (swap)", "mov.b64 %l3, {%b, %a}; mov.b64 {$o, $p}, %l3;", "xx")
form("int_cmp", "mov.b64 {h0, h1, h2, h3}", "mov.b32 {%h0, %h1}, %a; mov.b32 {%h2, %h3}, %b; "
     "mov.b64 %l3, {%h3, %h0, %h2, %h1};" + OL, "xx")
form("int_cmp", "mov.b32 {h0, h1} (swap)", "mov.b32 {%h0, %h1}, %a; mov.b32 $o, {%h1, %h0};")

# ---- f32 ---------------------------------------------------------------------
for r in ["rn", "rz", "rm", "rp"]:
    for op in ["add", "sub", "mul", "fma"]:
        if (op, r) in [("add", "rz"), ("mul", "rm"), ("fma", "rp")]:
            continue   # in the older f_round kernel
        f32("f32", "%s.%s.f32" % (op, r), 3 if op == "fma" else 2)
for op in ["add.ftz.f32", "sub.ftz.f32", "mul.ftz.f32", "add.sat.f32", "mul.sat.f32", "add.rn.ftz.sat.f32",
           "add.f32", "mul.f32", "sub.rn.ftz.f32", "div.rm.f32", "div.rp.f32", "div.rn.ftz.f32",
           "min.ftz.f32", "max.f32", "min.NaN.f32", "max.xorsign.abs.f32", "min.ftz.NaN.f32"]:
    f32("f32", op)
for op in ["fma.rn.ftz.f32", "fma.rn.sat.f32", "fma.rz.ftz.sat.f32", "mad.rn.f32", "mad.rm.ftz.f32"]:
    f32("f32", op, 3)
for op in ["rcp.rn.f32", "rcp.rz.f32", "rcp.rm.f32", "rcp.rn.ftz.f32", "sqrt.rz.f32", "sqrt.rp.f32",
           "sqrt.rn.ftz.f32", "abs.ftz.f32", "neg.ftz.f32"]:
    f32("f32", op, 1)
f32("f32_approx", "div.approx.f32", 2, "u")
f32("f32_approx", "div.approx.ftz.f32", 2, "u")
f32("f32_approx", "div.full.f32", 2, "u")
f32("f32_approx", "div.full.ftz.f32", 2, "u")
for op in ["rcp.approx.f32", "rcp.approx.ftz.f32", "sqrt.approx.f32", "sqrt.approx.ftz.f32", "rsqrt.approx.f32",
           "rsqrt.approx.ftz.f32"]:
    f32("f32_approx", op, 1, "u")
f32("f32_approx", "ex2.approx.f32", 1, "f")
f32("f32_approx", "lg2.approx.f32", 1, "f")
f32("f32_approx", "lg2.approx.ftz.f32", 1, "f")
# sin/cos: the ISA bounds the error only for |x| <= 100 pi; fold x into [-2, 2)
SC = "and.b32 %t0, %a, 0x807fffff; or.b32 %t0, %t0, 0x3f800000; mov.b32 %f0, %t0; "
form("f32_approx", "sin.approx.ftz.f32", SC + "sin.approx.ftz.f32 %f3, %f0;" + OF, "f")
form("f32_approx", "cos.approx.ftz.f32", SC + "cos.approx.ftz.f32 %f3, %f0;" + OF, "f")
for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "nan", "eq.ftz", "lt.ftz"]:
    setp("f32_cmp", "setp.%s.f32" % cmp, LF, "%f0", "%f1")
form("f32_cmp", "set.ltu.s32.f32", LF + "set.ltu.s32.f32 $o, %f0, %f1;")
form("f32_cmp", "set.eq.f32.f32", LF + "set.eq.f32.f32 %f3, %f0, %f1;" + OF)
form("f32_cmp", "set.ne.and.u32.f32", LF + "setp.num.f32 %p1, %f1, %f2; set.ne.and.u32.f32 $o, %f0, %f2, %p1;")
form("f32_cmp", "selp.f32 (setp.gtu)", LF + "setp.gtu.f32 %p0, %f0, %f1; selp.f32 %f3, %f0, %f2, %p0;" + OF)
form("f32_cmp", "slct.s32.f32", "mov.b32 %f0, %c; slct.s32.f32 $o, %a, %b, %f0;")

# ---- f64 ---------------------------------------------------------------------
for r in ["rn", "rz", "rm", "rp"]:
    for op in ["add", "sub", "mul", "fma", "div", "rcp", "sqrt"]:
        if (op, r) in [("fma", "rz"), ("div", "rp"), ("rcp", "rm"), ("sqrt", "rz")]:
            continue   # in the older d_round kernel
        if op == "sub" and r in ("rm", "rp"):
            continue
        f64("f64", "%s.%s.f64" % (op, r), 3 if op == "fma" else 1 if op in ("rcp", "sqrt") else 2)
for op in ["add.f64", "mul.f64", "min.f64", "max.f64", "mad.rn.f64"]:
    f64("f64", op, 3 if op.startswith("mad") else 2)
for op in ["abs.f64", "neg.f64"]:
    f64("f64", op, 1)
form("f64", "copysign.f64", LD + "copysign.f64 %fd3, %fd0, %fd1;" + OD, "xx")
f64("f64", "rcp.approx.ftz.f64", 1, "-u")
f64("f64", "rsqrt.approx.f64", 1, "-u")
for k in ["finite", "infinite", "number", "notanumber"]:
    form("f64", "testp.%s.f64" % k, LD + "testp.%s.f64 %%p0, %%fd0;" % k + OP)
for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "leu", "gtu", "geu", "num", "nan"]:
    setp("f64", "setp.%s.f64" % cmp, LD, "%fd0", "%fd1")
form("f64", "selp.f64", LD + "setp.lt.s32 %p0, %a, %c; selp.f64 %fd3, %fd0, %fd1, %p0;" + OD, "xx")

# ---- float conversions ------------------------------------------------------
for r in ["rni", "rzi", "rmi", "rpi"]:
    f32("fcvt", "cvt.%s.f32.f32" % r, 1)
    f64("fcvt", "cvt.%s.f64.f64" % r, 1)
for op in ["cvt.rni.ftz.f32.f32", "cvt.sat.f32.f32", "cvt.ftz.sat.f32.f32", "cvt.rzi.sat.f32.f32"]:
    f32("fcvt", op, 1)
form("fcvt", "cvt.f64.f32", LF + "cvt.f64.f32 %fd3, %f0;" + OD, "xx")
form("fcvt", "cvt.ftz.f64.f32", LF + "cvt.ftz.f64.f32 %fd3, %f0;" + OD, "xx")
for r in ["rn", "rz", "rp", "rn.ftz", "rn.sat"]:
    form("fcvt", "cvt.%s.f32.f64" % r, LD + "cvt.%s.f32.f64 %%f3, %%fd0;" % r + OF)
for op in ["rzi.s32", "rpi.s32", "rzi.u32", "rni.u32", "rzi.ftz.s32"]:
    form("fcvt", "cvt.%s.f32" % op, LF + "cvt.%s.f32 $o, %%f0;" % op)
for op in ["rni.s64", "rzi.u64", "rmi.s64", "rpi.u64"]:
    form("fcvt", "cvt.%s.f32" % op, LF + "cvt.%s.f32 %%l3, %%f0;" % op + OL, "xx")
for op in ["rzi.s32", "rni.u32", "rmi.s32", "rpi.u32"]:
    form("fcvt", "cvt.%s.f64" % op, LD + "cvt.%s.f64 $o, %%fd0;" % op)
for op in ["rzi.s64", "rni.s64", "rmi.u64", "rzi.u64"]:
    form("fcvt", "cvt.%s.f64" % op, LD + "cvt.%s.f64 %%l3, %%fd0;" % op + OL, "xx")
for op in ["rzi.s16", "rni.u16", "rni.s8", "rzi.u8"]:
    form("fcvt", "cvt.%s.f32" % op, LF + "cvt.%s.f32 %%h4, %%f0; cvt.u32.u16 $o, %%h4;" % op)
form("fcvt", "cvt.rni.s16.f64", LD + "cvt.rni.s16.f64 %h4, %fd0; cvt.u32.u16 $o, %h4;")
for op in ["rm.f32.s32", "rp.f32.u32", "rn.f32.u32", "rz.f32.s32"]:
    form("fcvt", "cvt." + op, "cvt.%s %%f3, %%a;" % op + OF)
for op in ["rn.f32.s64", "rz.f32.u64", "rn.f32.u64", "rm.f32.s64"]:
    form("fcvt", "cvt." + op, LL + "cvt.%s %%f3, %%l1;" % op + OF)
for op in ["rn.f64.s64", "rz.f64.u64", "rm.f64.s64", "rp.f64.u64"]:
    form("fcvt", "cvt." + op, LL + "cvt.%s %%fd3, %%l1;" % op + OD, "xx")
form("fcvt", "cvt.rn.f64.s32", "cvt.rn.f64.s32 %fd3, %a;" + OD, "xx")
form("fcvt", "cvt.rn.f64.u32", "cvt.rn.f64.u32 %fd3, %a;" + OD, "xx")
form("fcvt", "cvt.rn.f32.s16", "mov.b32 {%h0, %h1}, %a; cvt.rn.f32.s16 %f3, %h1;" + OF)
form("fcvt", "cvt.rn.f32.u8", "mov.b32 {%h0, %h1}, %a; cvt.rn.f32.u8 %f3, %h0;" + OF)

# ---- f16 / bf16 ---------------------------------------------------------------
for op in ["add.sat.f16x2", "sub.ftz.f16x2", "mul.ftz.sat.f16x2", "abs.f16x2", "abs.bf16x2", "neg.bf16x2",
           "sub.bf16x2", "mul.bf16x2", "min.bf16x2", "max.bf16x2", "min.NaN.bf16x2",
           "min.xorsign.abs.f16x2", "max.xorsign.abs.bf16x2", "min.ftz.f16x2", "max.ftz.NaN.f16x2",
           "add.rn.f16x2", "mul.rn.bf16x2", "sub.rn.f16x2"]:
    h32("half2", op, 1 if op.startswith(("abs", "neg")) else 2)
for op in ["fma.rn.sat.f16x2", "fma.rn.ftz.f16x2", "fma.rn.relu.bf16x2", "fma.rn.ftz.relu.f16x2"]:
    h32("half2", op, 3)
for op in ["max.NaN.f16", "min.xorsign.abs.f16", "min.ftz.f16", "add.rn.f16", "mul.rn.f16", "sub.rn.bf16",
           "mul.rn.bf16", "max.NaN.bf16", "min.xorsign.abs.bf16", "add.rn.sat.f16", "sub.sat.f16"]:
    h16("half2", op)
for op in ["fma.rn.ftz.sat.f16", "fma.rn.ftz.relu.f16"]:
    h16("half2", op, 3)
for op in ["abs.ftz.f16", "neg.ftz.f16"]:
    h16("half2", op, 1)
h16("half2", "tanh.approx.bf16", 1, "b")
h32("half2", "tanh.approx.bf16x2", 1, "b")
h32("half2", "ex2.approx.ftz.bf16x2", 1, "b")
for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "nan"]:
    setp("half_cmp", "setp.%s.f16" % cmp, LH, "%h0", "%h2")
for cmp in ["eq", "gt", "neu", "num"]:
    setp("half_cmp", "setp.%s.bf16" % cmp, LH, "%h1", "%h3")
form("half_cmp", "setp.lt.bf16x2", "setp.lt.bf16x2 %p0|%p1, %a, %b; selp.u32 %t0, 1, 0, %p0; selp.u32 %t1, 2, 0, %p1; "
     "or.b32 $o, %t0, %t1;")
form("half_cmp", "set.ge.u32.bf16", LH + "set.ge.u32.bf16 $o, %h0, %h2;")
form("half_cmp", "set.equ.bf16x2.bf16x2", "set.equ.bf16x2.bf16x2 $o, %a, %b;")
form("half_cmp", "set.gt.f16x2.f16x2", "set.gt.f16x2.f16x2 $o, %a, %b;")

for r in ["rn.relu", "rz", "rz.relu"]:
    form("half_cvt", "cvt.%s.f16x2.f32" % r, LF + "cvt.%s.f16x2.f32 $o, %%f0, %%f1;" % r)
for r in ["rn", "rz", "rz.relu"]:
    form("half_cvt", "cvt.%s.bf16x2.f32" % r, LF + "cvt.%s.bf16x2.f32 $o, %%f0, %%f1;" % r)
for r in ["rn.relu.f16", "rn.relu.bf16", "rz.relu.bf16"]:
    form("half_cvt", "cvt.%s.f32" % r, LF + "cvt.%s.f32 %%h4, %%f0; cvt.%s.f32 %%h5, %%f1;" % (r, r) + OH)
for src in ["f16", "bf16"]:
    form("half_cvt", "cvt.f64.%s" % src, "mov.b32 {%%h0, %%h1}, %%a; cvt.f64.%s %%fd3, %%h0;" % src + OD, "xx")
    form("half_cvt", "cvt.ftz.f32.%s" % src, "mov.b32 {%%h0, %%h1}, %%a; cvt.ftz.f32.%s %%f3, %%h1;" % src + OF)
for op in ["rn.f16.bf16", "rn.bf16.f16", "rz.f16.bf16", "rn.bf16.f64", "rz.f16.f64", "rp.f16.f64"]:
    s = op.split(".")[-1]
    load = LD if s == "f64" else LH
    a, b = ("%fd0", "%fd1") if s == "f64" else ("%h0", "%h1")
    form("half_cvt", "cvt." + op, load + "cvt.%s %%h4, %s; cvt.%s %%h5, %s;" % (op, a, op, b) + OH)
for op in ["rn.f16.u64", "rz.bf16.u32", "rm.f16.s16", "rn.bf16.s64", "rp.bf16.u16"]:
    s = op.split(".")[-1]
    load = LL if s.endswith("64") else LH if s.endswith("16") else ""
    a = "%l1" if s.endswith("64") else "%h0" if s.endswith("16") else "%a"
    b = "%l2" if s.endswith("64") else "%h1" if s.endswith("16") else "%b"
    form("half_cvt", "cvt." + op, load + "cvt.%s %%h4, %s; cvt.%s %%h5, %s;" % (op, a, op, b) + OH)
for op in ["rni.s64.bf16", "rzi.u64.f16"]:
    form("half_cvt", "cvt." + op, LH + "cvt.%s %%l3, %%h0;" % op + OL, "xx")
for op in ["rzi.s32.bf16", "rpi.u32.f16", "rmi.s8.f16", "rni.u8.f16", "rzi.s16.bf16"]:
    d = op.split(".")[1]
    if d.endswith("32"):
        form("half_cvt", "cvt." + op, LH + "cvt.%s $o, %%h1;" % op)
    else:
        form("half_cvt", "cvt." + op, LH + "cvt.%s %%h4, %%h0; cvt.%s %%h5, %%h1;" % (op, op) + OH)

# ---- sm_89/sm_90 forms: fp8, tf32 ---------------------------------------------
TARGETS["fp8"] = ("8.1", "sm_89")
for t in ["e4m3x2", "e5m2x2"]:
    form("fp8", "cvt.rn.satfinite.%s.f32" % t, LF + "cvt.rn.satfinite.%s.f32 %%h4, %%f0, %%f1; "
         "cvt.u32.u16 $o, %%h4;" % t)
    form("fp8", "cvt.rn.satfinite.relu.%s.f32" % t, LF + "cvt.rn.satfinite.relu.%s.f32 %%h4, %%f0, %%f1; "
         "cvt.u32.u16 $o, %%h4;" % t)
    form("fp8", "cvt.rn.satfinite.%s.f16x2" % t, "cvt.rn.satfinite.%s.f16x2 %%h4, %%a; cvt.u32.u16 $o, %%h4;" % t)
    form("fp8", "cvt.rn.f16x2.%s" % t, "mov.b32 {%%h0, %%h1}, %%a; cvt.rn.f16x2.%s $o, %%h0;" % t)
    form("fp8", "cvt.rn.relu.f16x2.%s" % t, "mov.b32 {%%h0, %%h1}, %%a; cvt.rn.relu.f16x2.%s $o, %%h1;" % t)
form("fp8", "cvt.rna.satfinite.tf32.f32", LF + "cvt.rna.satfinite.tf32.f32 $o, %f0;")

# ---- sm_75..sm_90 forms that nvcc 12/13 emit (docs/ptx.md, "PTX that nvcc emits") ----
# the video instructions (the SIMD intrinsics __vabsdiffu4, __vsads2 ... and inline asm)
for op in ["vadd", "vsub", "vabsdiff", "vmin", "vmax"]:
    for t in ["u32.u32.u32", "s32.s32.s32", "s32.u32.s32", "u32.s32.u32"]:
        i32("video", "%s.%s" % (op, t))
    i32("video", "%s.s32.s32.s32.sat" % op)
    i32("video", "%s.u32.u32.u32.sat" % op)
    for op2 in ["add", "min", "max"]:
        i32("video", "%s.s32.s32.s32.%s" % (op, op2), 3)
    i32("video", "%s.u32.u32.u32.sat.add" % op, 3)
for op in ["vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"]:
    for n in ["2", "4"]:
        for t in ["u32.u32.u32", "s32.s32.s32"]:
            i32("video", "%s%s.%s" % (op, n, t), 3)
            i32("video", "%s%s.%s.sat" % (op, n, t), 3)
            i32("video", "%s%s.%s.add" % (op, n, t), 3)
# fns (base must be <= 31) and the sm_90 packed 16-bit add/sub (nvcc's __vadd2 on sm_90)
form("video", "fns.b32", "and.b32 %t0, %b, 31; fns.b32 $o, %a, %t0, %c;")
form("video", "fns.b32 (offsets -4..4)", "and.b32 %t0, %b, 31; and.b32 %t1, %c, 7; sub.s32 %t1, %t1, 4; "
     "fns.b32 $o, %a, %t0, %t1;")
for op in ["add.u16x2", "add.s16x2"]:
    i32("video", op)

# programmatic dependent launch, cluster registers without a cluster launch, shared sizes, the stack
form("misc90", "griddepcontrol.wait", "griddepcontrol.wait; add.u32 $o, %a, %b;")
form("misc90", "griddepcontrol.launch_dependents", "griddepcontrol.launch_dependents; xor.b32 $o, %a, %c;")
for reg in ["cluster_ctarank", "cluster_nctarank"]:
    form("misc90", "%%%s (no cluster launch)" % reg, "mov.u32 $o, %%%s;" % reg)
form("misc90", "%is_explicit_cluster (no cluster launch)", "mov.pred %p0, %is_explicit_cluster; selp.u32 $o, 7, 9, %p0;")
for reg in ["clusterid", "nclusterid", "cluster_ctaid", "cluster_nctaid"]:
    form("misc90", "%%%s.x/y/z (no cluster launch)" % reg,
         "mov.u32 %%t0, %%%s.x; mov.u32 %%t1, %%%s.y; mov.u32 %%t2, %%%s.z; shl.b32 %%t1, %%t1, 10; "
         "shl.b32 %%t2, %%t2, 20; or.b32 %%t0, %%t0, %%t1; or.b32 $o, %%t0, %%t2;" % (reg, reg, reg))
for reg in ["dynamic_smem_size", "total_smem_size", "aggr_smem_size"]:
    form("misc90", "%%%s" % reg, "mov.u32 $o, %%%s;" % reg)
# alloca's pointer is a .local address (PTX ISA: "can be used in the address
# operand of ld.local and st.local"); a generic access through it faults on the GPU
form("misc90", "alloca.u64, stacksave, stackrestore",
     "stacksave.u64 %l5; mov.u64 %l6, 24; alloca.u64 %l7, %l6, 16; st.local.u32 [%l7], %a; st.local.u32 [%l7+20], %b; "
     "ld.local.u32 %t0, [%l7]; ld.local.u32 %t1, [%l7+20]; and.b64 %l6, %l7, 15; cvt.u32.u64 %t2, %l6; "
     "xor.b32 %t0, %t0, %t1; add.u32 $o, %t0, %t2; stackrestore.u64 %l5;")

# atomics that CUDA C reaches on sm_70..sm_90: each on a word of the thread's own output, before the
# outputs are stored: $o the memory afterwards, $p the old value the atomic returned
MEM = "[%rout+28]"
for t, op in [("f16", "add.noftz.f16"), ("bf16", "add.noftz.bf16")]:
    form("atom90", "atom.global.%s" % op, "st.global.b32 %s, %%a; mov.b32 {%%h0, %%h1}, %%b; "
         "atom.global.%s %%h2, %s, %%h0; ld.global.b32 $o, %s; cvt.u32.u16 $p, %%h2;" % (MEM, op, MEM, MEM), "xx")
for op in ["add.noftz.f16x2", "add.noftz.bf16x2"]:
    form("atom90", "atom.global.%s" % op, "st.global.b32 %s, %%a; atom.global.%s $p, %s, %%b; "
         "ld.global.b32 $o, %s;" % (MEM, op, MEM, MEM), "xx")
form("atom90", "red.global.add.noftz.f16x2", "st.global.b32 %s, %%a; red.global.add.noftz.f16x2 %s, %%b; "
     "ld.global.b32 $o, %s;" % (MEM, MEM, MEM))
form("atom90", "atom.global.cas.b16 (compare fails or succeeds)",
     "st.global.b32 %s, %%a; mov.b32 {%%h0, %%h1}, %%a; mov.b32 {%%h2, %%h3}, %%b; "
     "and.b32 %%t0, %%c, 1; setp.ne.u32 %%p0, %%t0, 0; selp.b16 %%h4, %%h0, %%h2, %%p0; "
     "atom.global.cas.b16 %%h5, %s, %%h4, %%h3; ld.global.b32 $o, %s; cvt.u32.u16 $p, %%h5;" % (MEM, MEM, MEM), "xx")
form("atom90", "atom.global.add.v2.f32",
     LF + "st.global.v2.b32 [%rout+24], {%a, %b}; atom.global.add.v2.f32 {%f4, %f5}, [%rout+24], {%f1, %f2}; "
     "ld.global.v2.b32 {$o, $p}, [%rout+24];", "xx")
form("atom90", "atom.global.add.v2.f32 (old values)",
     LF + "st.global.v2.b32 [%rout+24], {%a, %b}; atom.global.add.v2.f32 {%f4, %f5}, [%rout+24], {%f1, %f2}; "
     "mov.b32 $o, %f4; mov.b32 $p, %f5;", "xx")
form("atom90", "atom.global.add.v4.f32",
     LF + "mov.b32 %f3, %d; st.global.v4.b32 [%rout+16], {%a, %b, %c, %d}; "
     "atom.global.add.v4.f32 {%f4, %f5, %f6, %f7}, [%rout+16], {%f3, %f2, %f1, %f0}; "
     "ld.global.v4.b32 {$o, $p, %t0, %t1}, [%rout+16]; xor.b32 $o, $o, %t0; xor.b32 $p, $p, %t1;", "xx")
form("atom90", "red.global.add.v4.f32",
     LF + "mov.b32 %f3, %d; st.global.v4.b32 [%rout+16], {%a, %b, %c, %d}; "
     "red.global.add.v4.f32 [%rout+16], {%f1, %f1, %f2, %f2}; "
     "ld.global.v4.b32 {$o, $p, %t0, %t1}, [%rout+16]; xor.b32 $o, $o, %t0; xor.b32 $p, $p, %t1;", "xx")
B128 = ("mov.b64 %l1, {%a, %b}; mov.b64 %l2, {%c, %d}; mov.b128 %q0, {%l1, %l2}; "
        "st.global.b128 [%rout+16], %q0; ")
form("atom90", "atom.global.cas.b128 (swaps)",
     B128 + "mov.b128 %q1, {%l2, %l1}; atom.global.cas.b128 %q2, [%rout+16], %q0, %q1; "
     "ld.global.b128 %q3, [%rout+16]; mov.b128 {%l3, %l4}, %q3; mov.b64 {%t0, %t1}, %l3; mov.b64 {%t2, %t3}, %l4; "
     "mov.b128 {%l5, %l6}, %q2; mov.b64 {%t4, %t5}, %l5; xor.b32 $o, %t0, %t4; xor.b32 $p, %t3, %t5;", "xx")
form("atom90", "atom.global.cas.b128 (compare fails)",
     B128 + "mov.b128 %q1, {%l2, %l1}; atom.global.cas.b128 %q2, [%rout+16], %q1, %q1; "
     "ld.global.b128 %q3, [%rout+16]; mov.b128 {%l3, %l4}, %q3; mov.b64 {%t0, %t1}, %l3; "
     "mov.b128 {%l5, %l6}, %q2; mov.b64 {%t4, %t5}, %l6; xor.b32 $o, %t0, %t4; xor.b32 $p, %t1, %t5;", "xx")
form("atom90", "atom.global.exch.b128, ld/st.global.b128",
     B128 + "mov.b128 %q1, {%l2, %l2}; atom.global.exch.b128 %q2, [%rout+16], %q1; "
     "ld.global.b128 %q3, [%rout+16]; mov.b128 {%l3, %l4}, %q3; mov.b64 {%t0, %t1}, %l4; "
     "mov.b128 {%l5, %l6}, %q2; mov.b64 {%t4, %t5}, %l5; xor.b32 $o, %t0, %t4; xor.b32 $p, %t1, %t5;", "xx")
EXTRA_DECLS["atom90"] = "\t.reg .b128 %q<4>;\n"
