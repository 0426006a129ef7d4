#!/usr/bin/env python3
"""make_corpus.py: (re)writes the seed corpora under tests/fuzz/corpus/.

  corpus/fatbin/     the containers of tests/data/fatbin, bare PTX, the
                     same fatbins behind a wrapper header (see
                     fuzz_fatbin.c), truncations at telling points and
                     header fields set to edge values.
  corpus/ptx_parse/  PTX of tests/data/ptx (the small, non -G files), of
  corpus/translate/  tests/data/ptx/isa and, when nvcc is on PATH, of each
                     tests/cuda program (nvcc -ptx -arch=sm_86), plus a few
                     hand-written malformed texts.
  corpus/cudnn_desc/ hand-made operation lists for fuzz_cudnn_desc.c (its
                     header gives the encoding): convolutions 2-D, 3-D and
                     grouped, NHWC and strided tensors, pooling, activation,
                     LRN and op-tensor descriptors, counts past CUDNN_DIM_MAX,
                     NULL arrays, descriptors of another kind, extreme sizes.
  corpus/cusparse_desc/ the same for fuzz_cusparse_desc.c: CSR, CSC, COO,
                     blocked ELL and sparse vectors of each index type and
                     base, dense matrices of both orders, attributes, strided
                     batches, pointers, sizes at INT64_MAX, descriptors of
                     another kind.
Deterministic: the same inputs give the same files. Run from anywhere.
"""
import glob, os, shutil, struct, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fuzz", "corpus")
WRAPPER_MAGIC = 0x466243B1


def write(kind, name, data):
    d = os.path.join(OUT, kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def wrapper(version, body, a=0, b=0):
    return struct.pack("<IIQQ", WRAPPER_MAGIC, version, a, b) + body


def fatbin_seeds():
    files = sorted(glob.glob(os.path.join(ROOT, "tests/data/fatbin/*.fatbin")))
    files += [os.path.join(ROOT, "tests/data/fatbin", n) for n in ("prog.nv_fatbin", "add86.cubin", "add75.ptx")]
    for path in files:
        base = os.path.basename(path).replace(".", "_")
        data = open(path, "rb").read()
        write("fatbin", base, data)
        if not data.startswith(b"\x50\xed\x55\xba"):
            continue
        write("fatbin", base + "_wrap1", wrapper(1, data))
        write("fatbin", base + "_wrap2", wrapper(2, data + data, 0, len(data)))
        for cut in (4, 8, 15, 16, 24, 63, 64, 65, len(data) // 2, len(data) - 1):
            if 0 < cut < len(data):
                write("fatbin", "%s_cut%d" % (base, cut), data[:cut])
        # header_size, files_size and the first entry's kind/offset/size set to edges.
        for off, fmt, vals in ((6, "<H", (0, 8, 0xffff)), (8, "<Q", (0, 1, 2**63)),
                               (16, "<H", (0, 3, 0xffff)), (20, "<I", (0, 0xffffffff)),
                               (24, "<Q", (0, 2**64 - 1))):
            for v in vals:
                if off + struct.calcsize(fmt) <= len(data):
                    m = bytearray(data)
                    struct.pack_into(fmt, m, off, v)
                    write("fatbin", "%s_f%d_%x" % (base, off, v), bytes(m))


BAD_PTX = {
    "bad_opcode.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1, 1;\n\tret;\n}\n",
    "bad_reg.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tadd.u32 %r9, %r1, 1;\n\tret;\n}\n",
    "unterminated.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k(\n\t.param .u64 p\n",
    "empty_entry.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n}\n",
    "label_loop.ptx": b".version 8.0\n.target sm_86\n.address_size 64\n.visible .entry k()\n{\n.reg .pred %p<2>;\nL1:\n@%p1 bra L1;\nbra.uni L2;\nL2:\nret;\n}\n",
}


def ptx_seeds():
    paths = [p for p in sorted(glob.glob(os.path.join(ROOT, "tests/data/ptx/*.ptx"))) if not p.endswith(".debug.ptx")]
    paths += sorted(glob.glob(os.path.join(ROOT, "tests/data/ptx/isa/*.ptx")))
    texts = {os.path.basename(p): open(p, "rb").read() for p in paths}
    texts.update(BAD_PTX)
    nvcc = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)
    if nvcc:
        with tempfile.TemporaryDirectory() as tmp:
            for cu in sorted(glob.glob(os.path.join(ROOT, "tests/cuda/*.cu"))):
                out = os.path.join(tmp, "k.ptx")
                r = subprocess.run([nvcc, "-ptx", "-arch=sm_86", "-I", os.path.dirname(cu), cu, "-o", out],
                                   capture_output=True)
                if r.returncode == 0:
                    texts["cuda_" + os.path.basename(cu)[:-3] + ".ptx"] = open(out, "rb").read()
    for name, data in texts.items():
        write("ptx_parse", name, data)
        write("translate", name, data)


INT_MAX, INT_MIN = 2**31 - 1, -2**31


def num(*vals):
    """fuzz_cudnn_desc's numbers: one byte for -8..231, else a marker."""
    out = b""
    for v in vals:
        if -8 <= v <= 231:
            out += bytes([v + 8])
        elif v == INT_MAX:
            out += b"\xf1"
        elif v == INT_MIN:
            out += b"\xf2"
        elif v == 65536:
            out += b"\xf3"
        else:
            out += b"\xf0" + struct.pack("<i", v)
    return out


def dbl(*vals):
    return b"".join(struct.pack("<d", v) for v in vals)


# fuzz_cudnn_desc.c's operations, in its order.
(T4, T4EX, TND, TNDEX, TGET, F4, FND, FGET, C2, CND, CATTR, COUT, HANDLE, P2, PND, POUT, ACT, LRN, OPT, BN,
 RECREATE, CONFUSE, LASTERR) = range(23)
NCHW, NHWC = 0, 1
FLOAT, DOUBLE, HALF, INT8, INT32, INT8x32 = 0, 1, 2, 3, 4, 8


def op(code, *parts):
    return bytes([code]) + b"".join(parts)


def cudnn_desc_seeds():
    conv2d = (op(T4, b"\0", num(NCHW, FLOAT, 2, 3, 8, 8)) + op(F4, b"\0", num(FLOAT, NCHW, 4, 3, 3, 3)) +
              op(C2, b"\0", num(1, 1, 1, 1, 1, 1, 1, FLOAT)) + op(COUT, b"\0\0\0", num(4)) +
              op(T4, b"\1", num(NCHW, FLOAT, 2, 4, 8, 8)) + op(HANDLE, b"\0\0\1\0", num(0, 8)) +
              op(TGET, b"\0", num(4)) + op(FGET, b"\0", num(4)))
    conv3d = (op(TND, b"\0", num(HALF, 5), b"\0", num(1, 4, 6, 6, 6), num(864, 216, 36, 6, 1)) +
              op(FND, b"\0", num(HALF, NCHW, 5), b"\0", num(8, 2, 3, 3, 3)) +
              op(CND, b"\0", num(3), b"\0", num(1, 1, 1), num(1, 1, 1), num(1, 1, 1), num(1, FLOAT, 3)) +
              op(CATTR, b"\0\1", num(2)) + op(CATTR, b"\0\0", num(1)) + op(CATTR, b"\0\2", num(1)) +
              op(COUT, b"\0\0\0", num(5)))
    layouts = (op(TNDEX, b"\1", num(NHWC, FLOAT, 4), b"\0", num(2, 3, 5, 7)) +
               op(T4EX, b"\2", num(DOUBLE, 1, 2, 3, 4, 24, 12, 4, 1)) +
               op(T4, b"\0", num(NHWC, INT8x32, 1, 32, 4, 4)) +
               op(BN, b"\0\1", num(1)) + op(BN, b"\2\1", num(0)) + op(TGET, b"\2", num(8)) +
               op(F4, b"\1", num(INT8, NHWC, 16, 8, 3, 3)) + op(FGET, b"\1", num(2)))
    pool = (op(T4, b"\0", num(NCHW, FLOAT, 1, 2, 9, 9)) + op(P2, b"\0", num(0, 0, 2, 2, 0, 0, 2, 2)) +
            op(POUT, b"\0\0", num(4)) +
            op(TND, b"\1", num(FLOAT, 5), b"\0", num(1, 1, 4, 4, 4), num(64, 64, 16, 4, 1)) +
            op(PND, b"\1", num(2, 1, 3), b"\0", num(2, 2, 2), num(1, 1, 1), num(2, 2, 2), num(3)) +
            op(POUT, b"\1\1", num(5)))
    small = (op(ACT, num(4, 1), dbl(1.0, 1.5)) + op(ACT, num(1, 0), dbl(6.0, 1.0)) +
             op(LRN, num(5), dbl(1e-4, 0.75, 2.0)) + op(OPT, num(0, FLOAT, 0)) + op(OPT, num(5, HALF, 1)) +
             op(LASTERR, b"\x40\0") + op(CONFUSE, b"\0") + op(CONFUSE, b"\1") + op(CONFUSE, b"\2") +
             op(CONFUSE, b"\3") + op(LASTERR, b"\1\0") + op(RECREATE, b"\0\0") + op(RECREATE, b"\2\1"))
    counts = (op(TND, b"\0", num(FLOAT, 16), b"\0", num(*[1] * 16), num(*[1] * 16)) +
              op(TND, b"\1", num(FLOAT, -1), b"\0") + op(TND, b"\1", num(FLOAT, INT_MIN), b"\0") +
              op(TND, b"\2", num(FLOAT, 4), b"\3", num(1, 1, 1, 1), num(1, 1, 1, 1)) +
              op(TNDEX, b"\2", num(NCHW, FLOAT, 9), b"\0", num(*[1] * 9)) +
              op(FND, b"\0", num(FLOAT, NCHW, 2), b"\0", num(1, 1)) +
              op(CND, b"\0", num(16), b"\0", num(*[0] * 16), num(*[1] * 16), num(*[1] * 16), num(1, FLOAT, 16)) +
              op(CND, b"\1", num(2), b"\7", num(0, 0), num(1, 1), num(1, 1), num(1, FLOAT, -3)) +
              op(PND, b"\0", num(0, 0, 9), b"\0", num(*[1] * 9), num(*[0] * 9), num(*[1] * 9), num(64)) +
              op(TGET, b"\0", num(16)) + op(TGET, b"\0", num(INT_MAX)) + op(FGET, b"\0", num(-5)))
    # Sizes at the limits: 2^31 - 1 elements, strides and paddings of INT_MAX.
    huge = (op(T4EX, b"\0", num(FLOAT, 1, 1, 1, INT_MAX, 1, 1, 1, 1)) +
            op(T4, b"\1", num(NCHW, FLOAT, 65536, 65536, 1, 1)) +
            op(T4EX, b"\2", num(FLOAT, 2, 2, 2, 2, INT_MAX, INT_MAX, INT_MAX, INT_MAX)) +
            op(TGET, b"\0", num(4)) + op(TGET, b"\2", num(4)))
    huge_pad = (op(T4, b"\0", num(NCHW, FLOAT, 1, 1, 1, 1000)) + op(F4, b"\0", num(FLOAT, NCHW, 1, 1, 1, 1)) +
                op(C2, b"\0", num(0, 1 << 30, 1, 1, 1, 1, 1, FLOAT)) + op(COUT, b"\0\0\0", num(4)) +
                op(P2, b"\0", num(0, 0, 1, 1, 0, 1 << 30, 1, 1)) + op(POUT, b"\0\0", num(4)) +
                op(C2, b"\1", num(0, 0, 1, 1, INT_MAX, INT_MAX, 1, FLOAT)) + op(COUT, b"\1\0\0", num(4)))
    seeds = {"conv2d": conv2d, "conv3d_groups": conv3d, "layouts": layouts, "pool": pool, "small_descs": small,
             "counts": counts, "huge": huge, "huge_pad": huge_pad}
    for name, data in seeds.items():
        write("cudnn_desc", name, data)


INT64_MAX, INT64_MIN = 2**63 - 1, -2**63


def num64(*vals):
    """fuzz_cusparse_desc's numbers: one byte for -8..231, else a marker."""
    marks = {INT64_MAX: b"\xf1", INT64_MIN: b"\xf2", 2**31: b"\xf3", 2**32: b"\xf4"}
    out = b""
    for v in vals:
        if -8 <= v <= 231:
            out += bytes([v + 8])
        elif v in marks:
            out += marks[v]
        else:
            out += b"\xf0" + struct.pack("<q", v)
    return out


# fuzz_cusparse_desc.c's operations, in its order.
(SP_CSR, SP_CSC, SP_COO, SP_BELL, SP_VEC, SP_DNMAT, SP_DNVEC, SP_ATTR, SP_BATCH, SP_DNBATCH, SP_POINTERS,
 SP_CONFUSE) = range(12)
I16, I32, I64 = 1, 2, 3
R32F, R64F, R16F, C32F = 0, 1, 2, 4
COL, ROW = 1, 2


def cusparse_desc_seeds():
    ptrs = num64(0x1000, 0x2000, 0x3000)
    csr = (op(SP_CSR, b"\0", num64(4, 5, 7), ptrs, num64(I32, I32, 0, R32F)) +
           op(SP_CSR, b"\1", num64(3, 3, 9), ptrs, num64(I64, I64, 1, R64F)) +
           op(SP_CSR, b"\2", num64(3, 3, 9), ptrs, num64(I16, I16, 0, R32F)) +
           op(SP_ATTR, b"\0", num64(0), b"\4", num64(1)) + op(SP_ATTR, b"\0", num64(1), b"\4", num64(0)) +
           op(SP_ATTR, b"\1", num64(0), b"\x08", num64(1)) + op(SP_BATCH, b"\0", num64(3, 5, 7), b"\0") +
           op(SP_POINTERS, b"\0", num64(0x10, 0x20, 0x30), b"\0") + op(SP_POINTERS, b"\0", num64(0, 0, 0x40), b"\3"))
    formats = (op(SP_CSC, b"\0", num64(6, 2, 12), ptrs, num64(I32, I32, 1, C32F)) +
               op(SP_COO, b"\1", num64(10, 10, 3), ptrs, num64(0, I32, 0, R16F)) +
               op(SP_BATCH, b"\1", num64(2, 3, 0), b"\1") +
               op(SP_BELL, b"\2", num64(8, 8, 2, 4), num64(0x100, 0x200), num64(I32, 0, R32F)) +
               op(SP_POINTERS, b"\1", num64(1, 2, 3), b"\2") + op(SP_POINTERS, b"\0", num64(1, 2, 3), b"\1"))
    vectors = (op(SP_VEC, b"\0", num64(100, 10), num64(0x500, 0x600), num64(I64, 1, R64F)) +
               op(SP_DNVEC, b"\0", num64(100), num64(0x700), num64(R32F)) +
               op(SP_DNMAT, b"\1", num64(4, 3, 4), num64(0x800), num64(R32F, COL)) +
               op(SP_DNMAT, b"\1", num64(4, 3, 3), num64(0x800), num64(R64F, ROW)) +
               op(SP_DNBATCH, b"\1", num64(5, 12)) + op(SP_DNBATCH, b"\1", num64(5, 11)) +
               op(SP_DNBATCH, b"\0", num64(2, 100)))
    confuse = (op(SP_CSR, b"\0", num64(4, 5, 7), ptrs, num64(I32, I32, 0, R32F)) +
               op(SP_DNMAT, b"\0", num64(4, 3, 4), num64(0x800), num64(R32F, COL)) +
               op(SP_VEC, b"\1", num64(9, 3), num64(1, 2), num64(I32, 0, R32F)) +
               op(SP_DNVEC, b"\1", num64(9), num64(3), num64(R32F)) +
               op(SP_CONFUSE, b"\0\0") + op(SP_CONFUSE, b"\1\1") + op(SP_ATTR, b"\1", num64(0), b"\4", num64(1)) +
               op(SP_BATCH, b"\1", num64(2, 1, 1), b"\0"))
    huge = (op(SP_CSR, b"\0", num64(INT64_MAX, INT64_MAX, INT64_MAX), ptrs, num64(I64, I64, 0, R32F)) +
            op(SP_COO, b"\1", num64(2**32, 2**32, INT64_MAX), ptrs, num64(0, I64, 0, R32F)) +
            op(SP_VEC, b"\2", num64(INT64_MAX, INT64_MAX), ptrs[:2], num64(I64, 0, R32F)) +
            op(SP_DNMAT, b"\0", num64(2**32, 2**32, 2**32), num64(0x800), num64(R32F, COL)) +
            op(SP_DNBATCH, b"\0", num64(2, INT64_MAX)) +
            op(SP_CSR, b"\1", num64(-1, 5, 0), ptrs, num64(I32, I32, 0, R32F)) +
            op(SP_CSR, b"\1", num64(5, 5, 26), ptrs, num64(I32, I32, 0, R32F)) +
            op(SP_CSR, b"\1", num64(5, 5, 5), ptrs, num64(I32, I64, 0, R32F)) +
            op(SP_CSR, b"\1", num64(5, 5, 5), ptrs, num64(I32, I32, 2, R32F)) +
            op(SP_CSR, b"\1", num64(5, 5, 5), ptrs, num64(I32, I32, 0, 99)) +
            op(SP_BELL, b"\2", num64(2**32, 2**32, 2**31, 2**32), num64(1, 2), num64(I64, 0, R32F)))
    seeds = {"csr": csr, "formats": formats, "vectors": vectors, "confuse": confuse, "huge": huge}
    for name, data in seeds.items():
        write("cusparse_desc", name, data)


# fuzz_cudnn_backend.c's attribute names, in its order (a name byte b
# picks NAMES[b % len] unless b % 8 == 7).
BK_NAMES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 100, 101, 102, 103, 104, 105, 106, 200, 201, 202, 203, 204, 300, 301,
            302, 303, 304, 400, 401, 402, 403, 404, 405, 407, 600, 601, 700, 701, 702, 703, 704, 705, 706, 707,
            708, 709, 710, 711, 712, 713, 714, 715, 716, 717, 750, 751, 752, 753, 754, 755, 756, 757, 758, 800,
            801, 802, 803, 900, 901, 902, 903, 904, 905, 906, 907, 908, 909, 1000, 1001, 1002, 1003, 1300, 1301,
            1302, 1303, 1305, 1306, 1500, 1520, 1521, 1522, 1523, 1600, 1601, 1602, 1610, 1611, 1612]


def bk_name(name):
    for b in range(256):
        if b % 8 != 7 and BK_NAMES[b % len(BK_NAMES)] == name:
            return bytes([b])
    raise ValueError(name)


def bk_num(v):
    return bytes([v + 4]) if -4 <= v < 0xF0 - 4 else b"\xf0" + struct.pack("<i", v)


def cudnn_backend_seeds():
    CREATE, SET, GET, FIN, EXEC = 0, 2, 4, 5, 7
    INT64, DTYPE, BOOL, DOUBLE, DESC, ENUM_PW, ENUM_CONV, ENUM_RED = 3, 1, 2, 5, 15, 14, 7, 18

    def create(slot, t):
        return bytes([CREATE, slot, t])

    def set_(slot, name, t, elems, n=None):
        n = len(elems) if n is None else n
        body = b"".join(elems)
        return bytes([SET, slot]) + bk_name(name) + bytes([t]) + bk_num(n) + body + b"\1"

    def i64(*v):
        return [struct.pack("<q", x) for x in v]

    def i32(*v):
        return [struct.pack("<i", x) for x in v]

    def get(slot, name, t, n):
        return bytes([GET, slot]) + bk_name(name) + bytes([t]) + bk_num(n) + bytes(range(n)) + b"\1"

    def tensor(slot, uid, dims, virtual=False):
        strides, acc = [], 1
        for d in reversed(dims):
            strides.insert(0, acc)
            acc *= d
        out = (create(slot, 17) + set_(slot, 901, DTYPE, i32(0)) + set_(slot, 902, INT64, i64(*dims)) +
               set_(slot, 903, INT64, i64(*strides)) + set_(slot, 906, INT64, i64(uid)) +
               set_(slot, 900, INT64, i64(16)))
        if virtual:
            out += set_(slot, 907, BOOL, [b"\1"])
        return out + bytes([FIN, slot]) + get(slot, 902, INT64, 8)

    conv = (tensor(0, 1, [1, 2, 5, 5]) + tensor(1, 2, [3, 2, 3, 3]) + tensor(2, 3, [1, 3, 5, 5]) +
            create(3, 1) + set_(3, 100, DTYPE, i32(0)) + set_(3, 101, ENUM_CONV, i32(1)) +
            set_(3, 106, INT64, i64(2)) + set_(3, 105, INT64, i64(1, 1)) + set_(3, 104, INT64, i64(1, 1)) +
            set_(3, 103, INT64, i64(1, 1)) + set_(3, 102, INT64, i64(1, 1)) + bytes([FIN, 3]) +
            create(4, 10) + set_(4, 704, DESC, [b"\0"]) + set_(4, 703, DESC, [b"\1"]) + set_(4, 705, DESC, [b"\2"]) +
            set_(4, 702, DESC, [b"\3"]) + set_(4, 700, DOUBLE, [struct.pack("<d", 1.0)]) + bytes([FIN, 4]) +
            create(5, 15) + set_(5, 801, DESC, [b"\4"]) + bytes([FIN, 5]) + get(4, 700, DOUBLE, 1))
    pointwise = (tensor(0, 1, [2, 3]) + tensor(1, 2, [1, 3]) + tensor(2, 3, [2, 3], True) +
                 create(3, 0) + set_(3, 0, ENUM_PW, i32(0)) + set_(3, 1, DTYPE, i32(0)) + bytes([FIN, 3]) +
                 get(3, 0, ENUM_PW, 1) + create(4, 13) + set_(4, 750, DESC, [b"\3"]) +
                 set_(4, 751, DESC, [b"\0"]) + set_(4, 752, DESC, [b"\1"]) + set_(4, 753, DESC, [b"\2"]) +
                 bytes([FIN, 4]) + create(5, 15) + set_(5, 801, DESC, [b"\4", b"\4"]) + bytes([FIN, 5]) +
                 create(6, 4) + set_(6, 201, DESC, [b"\5"]) + bytes([FIN, 6]) + get(6, 202, DESC, 1) +
                 bytes([EXEC, 6, 5]))
    misc = (create(0, 18) + set_(0, 1500, DTYPE, i32(0)) + bytes([FIN, 0]) + create(1, 21) +
            set_(1, 1600, ENUM_RED, i32(3)) + bytes([FIN, 1]) + get(1, 1600, ENUM_RED, 1) + create(2, 16) +
            set_(2, 1000, INT64, i64(1, 2, 3)) + set_(2, 1001, 6, i64(0, 0, 0)) + bytes([FIN, 2]) +
            get(2, 1000, INT64, 2) + create(3, 7) + set_(3, 600, 9, i32(1)) + bytes([FIN, 3]) +
            create(4, 40) + create(5, 2) + bytes([FIN, 5]) + set_(0, 1500, DTYPE, i32(0)))
    seeds = {"conv": conv, "pointwise": pointwise, "misc": misc}
    for name, data in seeds.items():
        write("cudnn_backend", name, data)


def main():
    for kind in ("fatbin", "ptx_parse", "translate", "cudnn_desc", "cudnn_backend", "cusparse_desc"):
        shutil.rmtree(os.path.join(OUT, kind), ignore_errors=True)
    fatbin_seeds()
    ptx_seeds()
    cudnn_desc_seeds()
    cudnn_backend_seeds()
    cusparse_desc_seeds()
    for kind in ("fatbin", "ptx_parse", "translate", "cudnn_desc", "cudnn_backend", "cusparse_desc"):
        print(kind, len(os.listdir(os.path.join(OUT, kind))))


if __name__ == "__main__":
    sys.exit(main())
