#!/usr/bin/env python3
"""Writes the hand-written ISA conformance kernels: one PTX file per
instruction family (isa_<family>.ptx) and isa_cases.h, the table that both
test_codegen_isa.c and the GPU golden generator (golden_gpu.c) read.

Every kernel has the same frame: thread i (global index) reads the four
words in[4i..4i+3] into %a %b %c %d, computes up to eight words %o0..%o7
(zero unless set) and stores them to out[8i..8i+7]. Each output word has a
check kind: x = bit-exact; h = two halves (f16 or bf16, by the kernel's
'fmt'), each within 2 units in the last place; b = two bf16 halves, the
same; f = f32 within 2e-6 (relative above 1); r = f32 relative 1e-3;
u = f32 (or the high word of an f64) within 4 units in the last place;
- = not compared. Each word is named by the instruction form(s) it checks;
a case is a name (words with the same name are one case).

The first kernels (the older families half/int/float) check several forms
per word; the rest (isa_forms.py) one form per case, packed eight words to
a kernel. Families that need another PTX version or target get a file of
their own with that .target (isa_forms.TARGETS).
Usage: gen_isa.py (rewrites the files next to this script).
"""
import os
import sys

sys.dont_write_bytecode = True

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import isa_forms  # noqa: E402

DEFAULT_TARGET = ("8.4", "sm_90")

# per output word of the older multi-form kernels: the form(s) it checks
# (words with the same name are one case; '' = unused)
WORD_NAMES = {
    'h_arith': ["add.f16, sub.f16", "mul.f16, fma.rn.f16", "add.ftz.f16, mul.sat.f16", "fma.rn.relu.f16, fma.rn.sat.f16", "min.f16, max.f16", "min.NaN.f16, max.xorsign.abs.f16", "neg.f16, abs.f16", "fma.rn.ftz.f16, sub.ftz.sat.f16"],
    'h_pair': ["add.f16x2", "sub.f16x2", "mul.f16x2", "fma.rn.f16x2", "min.f16x2", "max.NaN.f16x2", "neg.f16x2", "fma.rn.relu.f16x2"],
    'bf_arith': ["add.bf16, sub.bf16", "mul.bf16, fma.rn.bf16", "min.bf16, max.bf16", "min.NaN.bf16, max.xorsign.abs.bf16", "neg.bf16, abs.bf16", "fma.rn.relu.bf16, add.rn.bf16", "add.bf16x2", "fma.rn.bf16x2"],
    'h_cmp': ["set.eq.u32.f16", "set.ltu.u32.f16", "set.gtu.f16.f16, set.num.f16.f16", "set.le.u32.f16x2", "set.nan.f16x2.f16x2", "setp.ne.f16x2", "setp.geu.bf16, setp.lt.or.bf16", "set.lt.bf16x2.bf16x2"],
    'h_cvt': ["cvt.rn.f16.f32, cvt.rz.f16.f32", "cvt.rm.f16.f32, cvt.rp.f16.f32", "cvt.rn.bf16.f32, cvt.rz.bf16.f32", "cvt.rm.bf16.f32, cvt.rp.bf16.f32", "cvt.f32.f16", "cvt.f32.bf16", "cvt.rn.f16x2.f32", "cvt.rn.relu.bf16x2.f32"],
    'h_cvt2': ["cvt.rn.f16.s32, cvt.rz.f16.u32", "cvt.rn.bf16.s32, cvt.rn.f16.f64", "cvt.rni.s32.f16", "cvt.rzi.u32.f16", "cvt.rmi.s16.f16, cvt.rpi.u16.bf16", "cvt.rm.bf16.f64, cvt.rn.f16.s64", "cvt.f64.f16, cvt.rn.f32.f64", "cvt.rna.tf32.f32"],
    'h_approx': ["ex2.approx.f16, ex2.approx.ftz.bf16", "ex2.approx.f16x2", "tanh.approx.f16", "tanh.approx.f16x2", "", "", "", ""],
    'i_carry': ["add.cc.u32", "addc.cc.u32", "addc.u32", "sub.cc.u32", "subc.cc.u32", "subc.u32", "mad.lo.cc.u32", "madc.hi.u32"],
    'i_mul24': ["mul24.lo.u32", "mul24.hi.u32", "mul24.lo.s32", "mul24.hi.s32", "mad24.lo.u32", "mad24.hi.s32", "mad24.hi.sat.s32", "sad.s32"],
    'i_bits': ["popc.b32", "clz.b32, bfind.u32, bfind.shiftamt.s32", "brev.b32", "bfe.u32", "bfe.s32", "bfi.b32", "bfe.s64, popc.b64, clz.b64, bfind.s64", "bfi.b64, brev.b64"],
    'i_prmt': ["prmt.b32", "prmt.b32.f4e", "prmt.b32.b4e", "prmt.b32.rc8", "prmt.b32.ecl", "prmt.b32.ecr", "prmt.b32.rc16", "prmt.b32"],
    'i_shf': ["shf.l.wrap.b32", "shf.r.wrap.b32", "shf.l.clamp.b32", "shf.r.clamp.b32", "bmsk.clamp.b32", "bmsk.wrap.b32", "szext.clamp.s32", "szext.wrap.u32"],
    'i_dp': ["dp4a.u32.u32", "dp4a.s32.s32", "dp4a.s32.u32", "dp4a.u32.s32", "dp2a.lo.u32.u32", "dp2a.hi.s32.s32", "dp2a.lo.s32.u32", "dp2a.hi.u32.s32"],
    'i_minmax': ["min.u16x2", "max.s16x2", "max.relu.s16x2", "min.relu.s32", "max.relu.s32", "min.s32", "mul.hi.s32", "mul.wide.u16"],
    'i_lop3': ["lop3.b32 LUT 0-31", "lop3.b32 LUT 32-63", "lop3.b32 LUT 64-95", "lop3.b32 LUT 96-127", "lop3.b32 LUT 128-159", "lop3.b32 LUT 160-191", "lop3.b32 LUT 192-223", "lop3.b32 LUT 224-255"],
    'f_round': ["add.rz.f32", "mul.rm.f32", "fma.rp.f32", "div.rz.f32", "sqrt.rm.f32", "rcp.rp.f32", "div.rn.f32", "sqrt.rn.f32"],
    'd_round': ["sqrt.rz.f64", "sqrt.rz.f64", "rcp.rm.f64", "rcp.rm.f64", "div.rp.f64", "div.rp.f64", "fma.rz.f64", "fma.rz.f64"],
    'f_minmax': ["min.f32", "max.NaN.f32", "min.xorsign.abs.f32", "max.ftz.f32", "copysign.f32", "slct.f32.f32", "slct.s32.s32", "setp.lt.s32, selp.b32"],
    'f_cmp': ["setp.{equ,neu,ltu.and,leu.or,gtu.xor,geu,num.and}.f32", "set.nan.u32.f32", "set.lt.or.f32.f32", "set.ge.xor.s32.s32", "set.hi.u32.u32", "testp.{finite,infinite,number,notanumber,normal,subnormal}.f32", "testp.{subnormal,normal}.f64", "setp.ltu.f64"],
    'f_approx': ["ex2.approx.f32 (x in [-1, 1])", "ex2.approx.ftz.f32", "lg2.approx.f32 (x in [0.5, 1])", "tanh.approx.f32", "sin.approx.f32", "cos.approx.f32", "", ""],
    'f_cvt': ["cvt.rni.s32.f32", "cvt.rmi.u32.f32", "cvt.rn.f32.s32", "cvt.rz.f32.u32", "cvt.rp.f32.s64", "cvt.rm.f32.f64", "neg.f32", "abs.f32"],
}

FRAME_HEAD = """
.visible .entry {name}(.param .u64 pin, .param .u64 pout)
{{
\t.reg .b32 %a, %b, %c, %d, %o<8>, %t<8>, %i;
\t.reg .b16 %h<16>;
\t.reg .pred %p<8>;
\t.reg .f32 %f<8>;
\t.reg .f64 %fd<8>;
\t.reg .b64 %l<8>, %rin, %rout;
\tld.param.u64 %rin, [pin];
\tld.param.u64 %rout, [pout];
\tmov.u32 %i, %tid.x;
\tmov.u32 %t0, %ctaid.x;
\tmov.u32 %t1, %ntid.x;
\tmad.lo.u32 %i, %t0, %t1, %i;
\tmul.wide.u32 %l0, %i, 16;
\tadd.s64 %rin, %rin, %l0;
\tld.global.v4.u32 {{%a, %b, %c, %d}}, [%rin];
\tmul.wide.u32 %l0, %i, 32;
\tadd.s64 %rout, %rout, %l0;
\tmov.b32 %o0, 0; mov.b32 %o1, 0; mov.b32 %o2, 0; mov.b32 %o3, 0;
\tmov.b32 %o4, 0; mov.b32 %o5, 0; mov.b32 %o6, 0; mov.b32 %o7, 0;
"""
FRAME_TAIL = """\tst.global.v4.u32 [%rout], {%o0, %o1, %o2, %o3};
\tst.global.v4.u32 [%rout+16], {%o4, %o5, %o6, %o7};
\tret;
}
"""

# family -> list of (kernel, checks (8 chars), fmt for 'h' checks, body)
FAMILIES = {}


def kernel(family, name, checks, body, fmt="f16"):
    FAMILIES.setdefault(family, []).append((name, checks, fmt, body.strip("\n")))


# ---- half precision -------------------------------------------------------
kernel("half", "h_arith", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tadd.f16 %h4, %h0, %h1;
\tsub.f16 %h5, %h0, %h1;
\tmov.b32 %o0, {%h4, %h5};
\tmul.f16 %h4, %h0, %h1;
\tfma.rn.f16 %h5, %h0, %h1, %h2;
\tmov.b32 %o1, {%h4, %h5};
\tadd.ftz.f16 %h4, %h0, %h2;
\tmul.sat.f16 %h5, %h0, %h3;
\tmov.b32 %o2, {%h4, %h5};
\tfma.rn.relu.f16 %h4, %h0, %h1, %h3;
\tfma.rn.sat.f16 %h5, %h2, %h1, %h0;
\tmov.b32 %o3, {%h4, %h5};
\tmin.f16 %h4, %h0, %h1;
\tmax.f16 %h5, %h0, %h1;
\tmov.b32 %o4, {%h4, %h5};
\tmin.NaN.f16 %h4, %h0, %h1;
\tmax.xorsign.abs.f16 %h5, %h0, %h1;
\tmov.b32 %o5, {%h4, %h5};
\tneg.f16 %h4, %h0;
\tabs.f16 %h5, %h1;
\tmov.b32 %o6, {%h4, %h5};
\tfma.rn.ftz.f16 %h4, %h0, %h1, %h3;
\tsub.ftz.sat.f16 %h5, %h3, %h2;
\tmov.b32 %o7, {%h4, %h5};
""")
kernel("half", "h_pair", "xxxxxxxx", """
\tadd.f16x2 %o0, %a, %b;
\tsub.f16x2 %o1, %a, %b;
\tmul.f16x2 %o2, %a, %b;
\tfma.rn.f16x2 %o3, %a, %b, %c;
\tmin.f16x2 %o4, %a, %b;
\tmax.NaN.f16x2 %o5, %a, %b;
\tneg.f16x2 %o6, %a;
\tfma.rn.relu.f16x2 %o7, %a, %b, %c;
""")
kernel("half", "bf_arith", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tadd.bf16 %h4, %h0, %h1;
\tsub.bf16 %h5, %h0, %h1;
\tmov.b32 %o0, {%h4, %h5};
\tmul.bf16 %h4, %h0, %h1;
\tfma.rn.bf16 %h5, %h0, %h1, %h2;
\tmov.b32 %o1, {%h4, %h5};
\tmin.bf16 %h4, %h0, %h1;
\tmax.bf16 %h5, %h0, %h1;
\tmov.b32 %o2, {%h4, %h5};
\tmin.NaN.bf16 %h4, %h0, %h1;
\tmax.xorsign.abs.bf16 %h5, %h0, %h1;
\tmov.b32 %o3, {%h4, %h5};
\tneg.bf16 %h4, %h0;
\tabs.bf16 %h5, %h1;
\tmov.b32 %o4, {%h4, %h5};
\tfma.rn.relu.bf16 %h4, %h0, %h1, %h3;
\tadd.rn.bf16 %h5, %h2, %h3;
\tmov.b32 %o5, {%h4, %h5};
\tadd.bf16x2 %o6, %a, %b;
\tfma.rn.bf16x2 %o7, %a, %b, %c;
""", fmt="bf16")
kernel("half", "h_cmp", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tmov.b32 {%h2, %h3}, %b;
\tset.eq.u32.f16 %o0, %h0, %h2;
\tset.ltu.u32.f16 %o1, %h0, %h2;
\tset.gtu.f16.f16 %h4, %h0, %h2;
\tset.num.f16.f16 %h5, %h1, %h3;
\tmov.b32 %o2, {%h4, %h5};
\tset.le.u32.f16x2 %o3, %a, %b;
\tset.nan.f16x2.f16x2 %o4, %a, %b;
\tsetp.ne.f16x2 %p0|%p1, %a, %b;
\tselp.u32 %t0, 1, 0, %p0;
\tselp.u32 %t1, 2, 0, %p1;
\tor.b32 %o5, %t0, %t1;
\tsetp.geu.bf16 %p2, %h0, %h2;
\tsetp.lt.or.bf16 %p3, %h1, %h3, %p2;
\tselp.u32 %t0, 1, 0, %p2;
\tselp.u32 %t1, 2, 0, %p3;
\tor.b32 %o6, %t0, %t1;
\tset.lt.bf16x2.bf16x2 %o7, %a, %b;
""")
kernel("half", "h_cvt", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tmov.b32 {%h0, %h1}, %b;
\tcvt.rn.f16.f32 %h2, %f0;
\tcvt.rz.f16.f32 %h3, %f0;
\tmov.b32 %o0, {%h2, %h3};
\tcvt.rm.f16.f32 %h2, %f0;
\tcvt.rp.f16.f32 %h3, %f0;
\tmov.b32 %o1, {%h2, %h3};
\tcvt.rn.bf16.f32 %h2, %f0;
\tcvt.rz.bf16.f32 %h3, %f0;
\tmov.b32 %o2, {%h2, %h3};
\tcvt.rm.bf16.f32 %h2, %f0;
\tcvt.rp.bf16.f32 %h3, %f0;
\tmov.b32 %o3, {%h2, %h3};
\tcvt.f32.f16 %f1, %h0;
\tmov.b32 %o4, %f1;
\tcvt.f32.bf16 %f1, %h1;
\tmov.b32 %o5, %f1;
\tmov.b32 %f1, %b;
\tcvt.rn.f16x2.f32 %o6, %f0, %f1;
\tcvt.rn.relu.bf16x2.f32 %o7, %f0, %f1;
""")
kernel("half", "h_cvt2", "xxxxxxxx", """
\tmov.b32 {%h0, %h1}, %b;
\tcvt.rn.f16.s32 %h2, %a;
\tcvt.rz.f16.u32 %h3, %a;
\tmov.b32 %o0, {%h2, %h3};
\tmov.b64 %fd0, {%a, %c};
\tcvt.rn.bf16.s32 %h2, %a;
\tcvt.rn.f16.f64 %h3, %fd0;
\tmov.b32 %o1, {%h2, %h3};
\tcvt.rni.s32.f16 %o2, %h0;
\tcvt.rzi.u32.f16 %o3, %h1;
\tcvt.rmi.s16.f16 %h2, %h0;
\tcvt.rpi.u16.bf16 %h3, %h1;
\tmov.b32 %o4, {%h2, %h3};
\tmov.b64 %l1, {%a, %c};
\tcvt.rm.bf16.f64 %h2, %fd0;
\tcvt.rn.f16.s64 %h3, %l1;
\tmov.b32 %o5, {%h2, %h3};
\tcvt.f64.f16 %fd1, %h0;
\tcvt.rn.f32.f64 %f0, %fd1;
\tmov.b32 %o6, %f0;
\tmov.b32 %f1, %a;
\tcvt.rna.tf32.f32 %o7, %f1;
""")
kernel("half", "h_approx", "hhhhxxxx", """
\tmov.b32 {%h0, %h1}, %a;
\tex2.approx.f16 %h2, %h0;
\tex2.approx.ftz.bf16 %h3, %h1;
\tmov.b32 %o0, {%h2, %h3};
\tex2.approx.f16x2 %o1, %a;
\ttanh.approx.f16 %h2, %h0;
\ttanh.approx.f16 %h3, %h1;
\tmov.b32 %o2, {%h2, %h3};
\ttanh.approx.f16x2 %o3, %a;
""")


# ---- integers ----------------------------------------------------------------
kernel("int", "i_carry", "xxxxxxxx", """
\tadd.cc.u32 %o0, %a, %b;
\taddc.cc.u32 %o1, %c, %d;
\taddc.u32 %o2, 0, 0;
\tsub.cc.u32 %o3, %a, %b;
\tsubc.cc.u32 %o4, %c, %d;
\tsubc.u32 %o5, 0, 0;
\tmad.lo.cc.u32 %o6, %a, %b, %c;
\tmadc.hi.u32 %o7, %a, %b, %d;
""")
kernel("int", "i_mul24", "xxxxxxxx", """
\tmul24.lo.u32 %o0, %a, %b;
\tmul24.hi.u32 %o1, %a, %b;
\tmul24.lo.s32 %o2, %a, %b;
\tmul24.hi.s32 %o3, %a, %b;
\tmad24.lo.u32 %o4, %a, %b, %c;
\tmad24.hi.s32 %o5, %a, %b, %c;
\tmad24.hi.sat.s32 %o6, %a, %b, %c;
\tsad.s32 %o7, %a, %b, %c;
""")
kernel("int", "i_bits", "xxxxxxxx", """
\tpopc.b32 %o0, %a;
\tclz.b32 %t0, %b;
\tbfind.u32 %t1, %a;
\tbfind.shiftamt.s32 %t2, %b;
\tmad.lo.u32 %o1, %t0, 65536, %t1;
\tmad.lo.u32 %o1, %o1, 256, %t2;
\tbrev.b32 %o2, %a;
\tbfe.u32 %o3, %a, %b, %c;
\tbfe.s32 %o4, %a, %c, %b;
\tbfi.b32 %o5, %a, %b, %c, %d;
\tmov.b64 %l1, {%a, %b};
\tbfe.s64 %l2, %l1, %c, %d;
\tpopc.b64 %t3, %l2;
\tclz.b64 %t4, %l1;
\tbfind.s64 %t5, %l2;
\tmad.lo.u32 %o6, %t3, 65536, %t4;
\tmad.lo.u32 %o6, %o6, 256, %t5;
\tbfi.b64 %l3, %l1, %l2, %c, %d;
\txor.b64 %l3, %l3, %l2;
\tbrev.b64 %l3, %l3;
\tcvt.u32.u64 %o7, %l3;
""")
kernel("int", "i_prmt", "xxxxxxxx", """
\tprmt.b32 %o0, %a, %b, %c;
\tprmt.b32.f4e %o1, %a, %b, %c;
\tprmt.b32.b4e %o2, %a, %b, %c;
\tprmt.b32.rc8 %o3, %a, %b, %c;
\tprmt.b32.ecl %o4, %a, %b, %c;
\tprmt.b32.ecr %o5, %a, %b, %c;
\tprmt.b32.rc16 %o6, %a, %b, %c;
\tprmt.b32 %o7, %a, %b, %d;
""")
kernel("int", "i_shf", "xxxxxxxx", """
\tshf.l.wrap.b32 %o0, %a, %b, %c;
\tshf.r.wrap.b32 %o1, %a, %b, %c;
\tshf.l.clamp.b32 %o2, %a, %b, %c;
\tshf.r.clamp.b32 %o3, %a, %b, %c;
\tbmsk.clamp.b32 %o4, %c, %d;
\tbmsk.wrap.b32 %o5, %c, %d;
\tszext.clamp.s32 %o6, %a, %c;
\tszext.wrap.u32 %o7, %a, %d;
""")
kernel("int", "i_dp", "xxxxxxxx", """
\tdp4a.u32.u32 %o0, %a, %b, %c;
\tdp4a.s32.s32 %o1, %a, %b, %c;
\tdp4a.s32.u32 %o2, %a, %b, %c;
\tdp4a.u32.s32 %o3, %a, %b, %c;
\tdp2a.lo.u32.u32 %o4, %a, %b, %c;
\tdp2a.hi.s32.s32 %o5, %a, %b, %c;
\tdp2a.lo.s32.u32 %o6, %a, %b, %c;
\tdp2a.hi.u32.s32 %o7, %a, %b, %c;
""")
kernel("int", "i_minmax", "xxxxxxxx", """
\tmin.u16x2 %o0, %a, %b;
\tmax.s16x2 %o1, %a, %b;
\tmax.relu.s16x2 %o2, %a, %b;
\tmin.relu.s32 %o3, %a, %b;
\tmax.relu.s32 %o4, %a, %b;
\tmin.s32 %o5, %a, %b;
\tmul.hi.s32 %o6, %a, %b;
\tmov.b32 {%h0, %h1}, %c;
\tmul.wide.u16 %o7, %h0, %h1;
""")
LOP = "\n".join("\tlop3.b32 %%t0, %%a, %%b, %%c, %d;\n\tshf.l.wrap.b32 %%o%d, %%o%d, %%o%d, %d;\n\txor.b32 %%o%d, %%o%d, %%t0;"
                % (k, k // 32, k // 32, k // 32, k % 32 + 1, k // 32, k // 32) for k in range(256))
kernel("int", "i_lop3", "xxxxxxxx", LOP)

# ---- floats ------------------------------------------------------------------
kernel("float", "f_round", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tmov.b32 %f1, %b;
\tmov.b32 %f2, %c;
\tadd.rz.f32 %f3, %f0, %f1;
\tmov.b32 %o0, %f3;
\tmul.rm.f32 %f3, %f0, %f1;
\tmov.b32 %o1, %f3;
\tfma.rp.f32 %f3, %f0, %f1, %f2;
\tmov.b32 %o2, %f3;
\tdiv.rz.f32 %f3, %f0, %f1;
\tmov.b32 %o3, %f3;
\tsqrt.rm.f32 %f3, %f0;
\tmov.b32 %o4, %f3;
\trcp.rp.f32 %f3, %f1;
\tmov.b32 %o5, %f3;
\tdiv.rn.f32 %f3, %f0, %f1;
\tmov.b32 %o6, %f3;
\tsqrt.rn.f32 %f3, %f1;
\tmov.b32 %o7, %f3;
""")
kernel("float", "d_round", "xxxxxxxx", """
\tmov.b64 %fd0, {%a, %b};
\tmov.b64 %fd1, {%c, %d};
\tsqrt.rz.f64 %fd2, %fd0;
\tmov.b64 {%o0, %o1}, %fd2;
\trcp.rm.f64 %fd2, %fd1;
\tmov.b64 {%o2, %o3}, %fd2;
\tdiv.rp.f64 %fd2, %fd0, %fd1;
\tmov.b64 {%o4, %o5}, %fd2;
\tfma.rz.f64 %fd2, %fd0, %fd1, %fd0;
\tmov.b64 {%o6, %o7}, %fd2;
""")
kernel("float", "f_minmax", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tmov.b32 %f1, %b;
\tmin.f32 %f3, %f0, %f1;
\tmov.b32 %o0, %f3;
\tmax.NaN.f32 %f3, %f0, %f1;
\tmov.b32 %o1, %f3;
\tmin.xorsign.abs.f32 %f3, %f0, %f1;
\tmov.b32 %o2, %f3;
\tmax.ftz.f32 %f3, %f0, %f1;
\tmov.b32 %o3, %f3;
\tcopysign.f32 %f3, %f0, %f1;
\tmov.b32 %o4, %f3;
\tslct.f32.f32 %f3, %f0, %f1, %f0;
\tmov.b32 %o5, %f3;
\tslct.s32.s32 %o6, %a, %b, %c;
\tsetp.lt.s32 %p0, %c, %d;
\tselp.b32 %o7, %a, %b, %p0;
""")
kernel("float", "f_cmp", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tmov.b32 %f1, %b;
\tsetp.equ.f32 %p0, %f0, %f1;
\tsetp.neu.f32 %p1, %f0, %f1;
\tsetp.ltu.and.f32 %p2, %f0, %f1, %p0;
\tsetp.leu.or.f32 %p3, %f0, %f1, %p1;
\tsetp.gtu.xor.f32 %p4, %f0, %f1, %p2;
\tsetp.geu.f32 %p5|%p6, %f0, %f1;
\tsetp.num.and.f32 %p7, %f0, %f1, !%p3;
\tselp.u32 %t0, 1, 0, %p0;
\tselp.u32 %t1, 2, 0, %p1;
\tor.b32 %o0, %t0, %t1;
\tselp.u32 %t0, 4, 0, %p2;
\tor.b32 %o0, %o0, %t0;
\tselp.u32 %t0, 8, 0, %p3;
\tor.b32 %o0, %o0, %t0;
\tselp.u32 %t0, 16, 0, %p4;
\tor.b32 %o0, %o0, %t0;
\tselp.u32 %t0, 32, 0, %p5;
\tor.b32 %o0, %o0, %t0;
\tselp.u32 %t0, 64, 0, %p6;
\tor.b32 %o0, %o0, %t0;
\tselp.u32 %t0, 128, 0, %p7;
\tor.b32 %o0, %o0, %t0;
\tset.nan.u32.f32 %o1, %f0, %f1;
\tset.lt.or.f32.f32 %f3, %f0, %f1, %p7;
\tmov.b32 %o2, %f3;
\tset.ge.xor.s32.s32 %o3, %a, %b, %p0;
\tset.hi.u32.u32 %o4, %a, %b;
\ttestp.finite.f32 %p0, %f0;
\ttestp.infinite.f32 %p1, %f0;
\ttestp.number.f32 %p2, %f0;
\ttestp.notanumber.f32 %p3, %f0;
\ttestp.normal.f32 %p4, %f0;
\ttestp.subnormal.f32 %p5, %f0;
\tselp.u32 %o5, 1, 0, %p0;
\tselp.u32 %t0, 2, 0, %p1;
\tor.b32 %o5, %o5, %t0;
\tselp.u32 %t0, 4, 0, %p2;
\tor.b32 %o5, %o5, %t0;
\tselp.u32 %t0, 8, 0, %p3;
\tor.b32 %o5, %o5, %t0;
\tselp.u32 %t0, 16, 0, %p4;
\tor.b32 %o5, %o5, %t0;
\tselp.u32 %t0, 32, 0, %p5;
\tor.b32 %o5, %o5, %t0;
\tmov.b64 %fd0, {%c, %d};
\ttestp.subnormal.f64 %p0, %fd0;
\ttestp.normal.f64 %p1, %fd0;
\tselp.u32 %o6, 1, 0, %p0;
\tselp.u32 %t0, 2, 0, %p1;
\tor.b32 %o6, %o6, %t0;
\tsetp.ltu.f64 %p2, %fd0, 0d3FF0000000000000;
\tselp.u32 %o7, 1, 0, %p2;
""")
kernel("float", "f_approx", "fffrffxx", """
\tmov.b32 %f0, %a;
\tand.b32 %t0, %a, 0x807fffff;
\tor.b32 %t0, %t0, 0x3f000000;
\tmov.b32 %f1, %t0;
\tex2.approx.f32 %f3, %f1;
\tmov.b32 %o0, %f3;
\tex2.approx.ftz.f32 %f3, %f1;
\tmov.b32 %o1, %f3;
\tabs.f32 %f2, %f1;
\tlg2.approx.f32 %f3, %f2;
\tmov.b32 %o2, %f3;
\ttanh.approx.f32 %f3, %f1;
\tmov.b32 %o3, %f3;
\tsin.approx.f32 %f3, %f1;
\tmov.b32 %o4, %f3;
\tcos.approx.f32 %f3, %f1;
\tmov.b32 %o5, %f3;
""")

kernel("float", "f_cvt", "xxxxxxxx", """
\tmov.b32 %f0, %a;
\tcvt.rni.s32.f32 %o0, %f0;
\tcvt.rmi.u32.f32 %o1, %f0;
\tcvt.rn.f32.s32 %f1, %b;
\tmov.b32 %o2, %f1;
\tcvt.rz.f32.u32 %f1, %b;
\tmov.b32 %o3, %f1;
\tmov.b64 %l1, {%b, %c};
\tcvt.rp.f32.s64 %f1, %l1;
\tmov.b32 %o4, %f1;
\tmov.b64 %fd1, {%b, %c};
\tcvt.rm.f32.f64 %f1, %fd1;
\tmov.b32 %o5, %f1;
\tneg.f32 %f1, %f0;
\tmov.b32 %o6, %f1;
\tabs.f32 %f1, %f0;
\tmov.b32 %o7, %f1;
""")


def pack_forms():
    """Packs isa_forms.FORMS into kernels of eight words, a case never split."""
    for fam, forms in isa_forms.FORMS.items():
        words, checks, names, body = 0, "", [], []
        k = 0

        def flush():
            nonlocal words, checks, names, body, k
            if not words:
                return
            name = "%s_%d" % (fam, k)
            WORD_NAMES[name] = names + [""] * (8 - words)
            kernel(fam, name, checks + "-" * (8 - words), "\n".join(body), fmt="f16")
            k += 1
            words, checks, names, body = 0, "", [], []

        for fname, fbody, fchecks in forms:
            n = len(fchecks)
            if words + n > 8:
                flush()
            text = fbody.replace("$o", "%%o%d" % words).replace("$p", "%%o%d" % (words + 1))
            body.append("\t// %s" % fname)
            body.extend("\t" + s.strip() + ";" for s in text.split(";") if s.strip())
            checks += fchecks
            names.extend([fname] * n)
            words += n
        flush()


def write():
    pack_forms()
    rows = []
    for fam, kernels in FAMILIES.items():
        version, target = isa_forms.TARGETS.get(fam, DEFAULT_TARGET)
        path = os.path.join(HERE, "isa_%s.ptx" % fam)
        with open(path, "w") as f:
            f.write("// Generated by gen_isa.py: ISA tests for %s (see test_codegen_isa.c).\n" % fam)
            f.write(".version %s\n.target %s\n.address_size 64\n" % (version, target))
            for name, checks, fmt, body in kernels:
                f.write(FRAME_HEAD.format(name=name))
                f.write(isa_forms.EXTRA_DECLS.get(fam, ""))
                f.write(body + "\n")
                f.write(FRAME_TAIL)
                rows.append((fam, name, checks, fmt, "|".join(WORD_NAMES[name])))
    with open(os.path.join(HERE, "isa_cases.h"), "w") as f:
        f.write("/* Generated by gen_isa.py: the ISA test kernels, in golden-file order.\n")
        f.write(" * { PTX file, kernel, check kind per output word, half format for 'h'\n")
        f.write(" *   checks, the form each word checks ('|' between words) } */\n")
        for fam, name, checks, fmt, names in rows:
            f.write('ISA_CASE("isa_%s.ptx", "%s", "%s", "%s",\n         "%s")\n' % (fam, name, checks, fmt, names))
    forms = set(n for r in rows for n in r[4].split("|") if n)
    print("%d kernels, %d cases" % (len(rows), len(forms)))


if __name__ == "__main__":
    write()
