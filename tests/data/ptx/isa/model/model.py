"""model.py: a small interpreter of the ISA conformance kernel bodies, an
independent model of the PTX semantics (written from the ISA text, not from
the translator) that check.py compares the CPU backend with. Registers hold
raw bits; Unknown marks what the model does not define (the ISA leaves it
to the machine), which check.py skips."""
import math
import re
from fractions import Fraction
import fp

TYPES = {'b8': 8, 'b16': 16, 'b32': 32, 'b64': 64, 'u8': 8, 'u16': 16, 'u32': 32, 'u64': 64, 's8': 8, 's16': 16,
         's32': 32, 's64': 64, 'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64, 'f16x2': 32, 'bf16x2': 32,
         'u16x2': 32, 's16x2': 32, 'pred': 1, 'tf32': 32, 'e4m3x2': 16, 'e5m2x2': 16, 'u4': 4, 's4': 4}
ANY = None


class Unknown(Exception):
    pass


def mask(w):
    return (1 << w) - 1


def sx(v, w):
    v &= mask(w)
    return v - (1 << w) if v >> (w - 1) else v


def regw(name):
    if name.startswith('%fd'):
        return 64
    if name.startswith('%h'):
        return 16
    if name.startswith('%l') or name.startswith('%r'):
        return 64
    if name.startswith('%p'):
        return 1
    return 32


def tw(t):
    return TYPES[t]


def fkind(t):
    return {'f16': 'f16', 'bf16': 'bf16', 'f32': 'f32', 'f64': 'f64', 'f16x2': 'f16', 'bf16x2': 'bf16'}.get(t)


class Machine:
    def __init__(self, a, b, c, d):
        self.r = {'%a': a, '%b': b, '%c': c, '%d': d}
        for i in range(8):
            self.r['%%o%d' % i] = 0
        self.cf = 0

    # ---- operands
    def read(self, op, t):
        w = tw(t)
        op = op.strip()
        if op.startswith('!'):
            return 1 - self.read(op[1:], t)
        if op.startswith('%'):
            if op not in self.r:
                raise Unknown('uninit ' + op)
            v = self.r[op]
            if v is ANY:
                raise Unknown('any')
            return v & mask(w)
        if op.startswith('0f'):
            return int(op[2:], 16)
        if op.startswith('0d'):
            return int(op[2:], 16)
        v = int(op, 0)
        return v & mask(w)

    def write(self, op, t, v):
        op = op.strip()
        if v is ANY:
            self.r[op] = ANY
            return
        w = tw(t) if t != 'pred' else 1
        rw = regw(op)
        v &= mask(w)
        if rw > w and t[0] == 's':
            v = sx(v, w) & mask(rw)
        self.r[op] = v & mask(rw)

    def readf(self, op, t):
        return fp.dec(self.read(op, t), fkind(t))


def split_ops(s):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch == '{':
            depth += 1
        elif ch == '}':
            depth -= 1
        if ch == ',' and depth == 0:
            out.append(cur.strip())
            cur = ''
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def parse(line):
    line = line.strip().rstrip(';')
    m = re.match(r'(\S+)\s*(.*)', line)
    opc, rest = m.group(1), m.group(2)
    parts = opc.split('.')
    name = parts[0]
    mods, types = [], []
    for p in parts[1:]:
        (types if p in TYPES else mods).append(p)
    return name, mods, types, split_ops(rest)


ROUND = {'rn': 'rn', 'rz': 'rz', 'rm': 'rm', 'rp': 'rp', 'rna': 'rna'}
IROUND = {'rni': 'rn', 'rzi': 'rz', 'rmi': 'rm', 'rpi': 'rp'}


def rmode(mods, default='rn'):
    for m in mods:
        if m in ROUND:
            return ROUND[m]
    return default


def ftz_in(v, k, mods):
    return fp.ftz(v, k) if 'ftz' in mods else v


def post(v, k, mods, mode):
    """round v to format k with result modifiers; returns bits"""
    if v[0] == 'nan':
        if 'sat' in mods:
            return 0
        return fp.enc(v, k)
    bits = fp.enc(v, k, mode)
    r = fp.dec(bits, k)
    if 'ftz' in mods and fp.is_sub(r, k):
        bits = fp.enc(('num', r[1], Fraction(0)), k)
        r = fp.dec(bits, k)
    if 'sat' in mods:
        if r[1] and not fp.is_zero(r) or r[0] == 'nan':
            return 0
        if r[1]:
            return 0
        if fp.cmp(r, ('num', 0, Fraction(1))) > 0:
            return fp.enc(('num', 0, Fraction(1)), k)
    if 'relu' in mods and r[1] and r[0] != 'nan':
        return 0
    if 'satfinite' in mods and r[0] == 'inf':
        E, M = fp.FMT[k]
        return (r[1] << (E + M)) | ((((1 << E) - 1) << M) - 1)
    return bits


def cmp_op(cmpn, x, y, fl):
    """comparison result (0/1)"""
    if fl:
        c = fp.cmp(x, y)
        unordered = c is None
        base = cmpn.rstrip('u') if cmpn not in ('num', 'nan') else cmpn
        if cmpn == 'num':
            return int(not unordered)
        if cmpn == 'nan':
            return int(unordered)
        if unordered:
            return int(cmpn.endswith('u'))
        return int({'eq': c == 0, 'ne': c != 0, 'lt': c < 0, 'le': c <= 0, 'gt': c > 0, 'ge': c >= 0}[base])
    c = (x > y) - (x < y)
    return int({'eq': c == 0, 'ne': c != 0, 'lt': c < 0, 'le': c <= 0, 'gt': c > 0, 'ge': c >= 0,
                'lo': c < 0, 'ls': c <= 0, 'hi': c > 0, 'hs': c >= 0}[cmpn])


CMPS = ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'lo', 'ls', 'hi', 'hs', 'equ', 'neu', 'ltu', 'leu', 'gtu', 'geu', 'num',
        'nan']


def ival(v, t):
    return sx(v, tw(t)) if t[0] == 's' else v


def fminmax(x, y, is_max, nanmode, k):
    if x[0] == 'nan' or y[0] == 'nan':
        if nanmode or (x[0] == 'nan' and y[0] == 'nan'):
            return fp.NAN
        return y if x[0] == 'nan' else x
    c = fp.cmp(x, y)
    if c == 0:
        # -0 < +0
        if is_max:
            return x if x[1] == 0 else y
        return x if x[1] == 1 else y
    return (x if c > 0 else y) if is_max else (x if c < 0 else y)


def round_int(v, mode):
    """Fraction-valued rounding to integer"""
    k, s, mag = v
    n = mag.numerator // mag.denominator
    f = mag - n
    if mode == 'rn':
        up = f > Fraction(1, 2) or (f == Fraction(1, 2) and n & 1)
    elif mode == 'rna':
        up = f >= Fraction(1, 2)
    elif mode == 'rz':
        up = False
    elif mode == 'rm':
        up = f > 0 and s
    else:
        up = f > 0 and not s
    n += int(up)
    return -n if s else n


def f2i(v, t, mode):
    w = tw(t)
    lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if t[0] == 's' else (0, (1 << w) - 1)
    if v[0] == 'nan':
        return 0
    if v[0] == 'inf':
        return (lo if v[1] else hi) & mask(w)
    n = round_int(v, mode)
    return max(lo, min(hi, n)) & mask(w)


def nan_convert(bits, sk, dk):
    (se, sm), (de, dm) = fp.FMT[sk], fp.FMT[dk]
    sign = bits >> (se + sm)
    pay = bits & mask(sm)
    pay = pay << (dm - sm) if dm >= sm else pay >> (sm - dm)
    return sign << (de + dm) | mask(de) << dm | 1 << (dm - 1) | pay


def nan64(v, srcs):
    """f64 NaN results: the first NaN operand, quieted, else the default NaN (as the GPU does)"""
    for b in srcs:
        if (b >> 52) & 0x7ff == 0x7ff and b & mask(52):
            return b | (1 << 51)
    return 0xfff8000000000000


def fp8_enc(v, f, relu):
    if v[0] == 'nan':
        return 0x7f
    if relu and v[1]:
        v = ('num', 0, Fraction(0))
    s = v[1] << 7
    if f == 0:  # e4m3 as e5m3 on x/2^8
        if v[0] == 'inf':
            return s | 0x7e
        mag = v[2] / 256
        fp.FMT['e5m3'] = (5, 3)
        b = fp.enc(('num', 0, mag), 'e5m3') & 0xff
        return s | min(b, 0x7e)
    fp.FMT['e5m2'] = (5, 2)
    if v[0] == 'inf':
        return s | 0x7b
    b = fp.enc(('num', 0, v[2]), 'e5m2') & 0x7f
    return s | min(b, 0x7b)


def fp8_dec(b, f):
    s = (b >> 7) & 1
    if f == 0:
        e, m = (b >> 3) & 15, b & 7
        if e == 15 and m == 7:
            return fp.NAN
        mag = Fraction(m, 512) if e == 0 else Fraction(8 + m) * Fraction(2) ** (e - 10)
        return ('num', s, mag)
    return fp.dec((b << 8) & 0xffff, 'f16')


class Runner(Machine):
    def step(self, line):
        name, mods, types, ops = parse(line)
        fn = getattr(self, 'op_' + name, None)
        if fn is None:
            raise Unknown('no model for ' + name)
        fn(mods, types, ops)

    # ---- moves
    def op_mov(self, mods, types, ops):
        t = types[0]
        d, s = ops
        if s.startswith('{'):
            parts = [p.strip() for p in s[1:-1].split(',')]
            w = tw(t) // len(parts)
            v = 0
            for i, p in enumerate(parts):
                v |= self.read(p, 'b%d' % w) << (w * i)
            self.write(d, t, v)
        elif d.startswith('{'):
            parts = [p.strip() for p in d[1:-1].split(',')]
            w = tw(t) // len(parts)
            v = self.read(s, t)
            for i, p in enumerate(parts):
                self.write(p, 'b%d' % w, (v >> (w * i)) & mask(w))
        else:
            self.write(d, t, self.read(s, t))

    def op_selp(self, mods, types, ops):
        t = types[0]
        d, x, y, p = ops
        self.write(d, t, self.read(x, t) if self.read(p, 'pred') else self.read(y, t))

    def op_slct(self, mods, types, ops):
        t, ct = types
        d, x, y, cc = ops
        if ct == 'f32':
            v = ftz_in(self.readf(cc, ct), 'f32', mods)
            if v[0] == 'nan':
                raise Unknown('slct NaN selector')
            ge = not v[1] or fp.is_zero(v)
        else:
            ge = ival(self.read(cc, ct), ct) >= 0
        self.write(d, t, self.read(x, t) if ge else self.read(y, t))

    # ---- integer arithmetic
    def int2(self, mods, types, ops, f):
        t = types[0]
        w = tw(t)
        if t.endswith('x2') or t in ('f16', 'bf16', 'f32', 'f64'):
            raise Unknown('not int')
        d = ops[0]
        args = [ival(self.read(o, t), t) for o in ops[1:]]
        r = f(w, *args)
        self.write(d, t, ANY if r is ANY else r & mask(w))

    def op_add(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.farith(mods, types, ops, 'add')
        w = tw(t)
        if 'cc' in mods or 'c' == 'x':
            a, b = (self.read(o, t) for o in ops[1:])
            s = a + b
            self.cf = s >> w & 1
            self.write(ops[0], t, s)
            return
        if 'sat' in mods:
            return self.int2(mods, types, ops, lambda w, a, b: max(-(1 << 31), min((1 << 31) - 1, a + b)))
        self.int2(mods, types, ops, lambda w, a, b: a + b)

    def op_addc(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a, b = (self.read(o, t) for o in ops[1:])
        s = a + b + self.cf
        if 'cc' in mods:
            self.cf = s >> w & 1
        self.write(ops[0], t, s)

    def op_sub(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.farith(mods, types, ops, 'sub')
        w = tw(t)
        if 'cc' in mods:
            a, b = (self.read(o, t) for o in ops[1:])
            s = a + (mask(w) ^ b) + 1
            self.cf = s >> w & 1
            self.write(ops[0], t, s)
            return
        if 'sat' in mods:
            return self.int2(mods, types, ops, lambda w, a, b: max(-(1 << 31), min((1 << 31) - 1, a - b)))
        self.int2(mods, types, ops, lambda w, a, b: a - b)

    def op_subc(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a, b = (self.read(o, t) for o in ops[1:])
        s = a + (mask(w) ^ b) + self.cf
        if 'cc' in mods:
            self.cf = s >> w & 1
        self.write(ops[0], t, s)

    def product(self, mods, t, a, b):
        w = tw(t)
        p = ival(a, t) * ival(b, t)
        if 'wide' in mods:
            return p & mask(2 * w), 2 * w
        if 'hi' in mods:
            return (p >> w) & mask(w), w
        return p & mask(w), w

    def op_mul(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.farith(mods, types, ops, 'mul')
        a, b = (self.read(o, t) for o in ops[1:])
        v, w = self.product(mods, t, a, b)
        self.write(ops[0], 'b%d' % w, v)

    def op_mad(self, mods, types, ops, carry=False):
        t = types[0]
        if fkind(t):
            return self.farith(mods, types, ops, 'fma')
        a, b = (self.read(o, t) for o in ops[1:3])
        v, w = self.product(mods, t, a, b)
        cv = self.read(ops[3], 'b%d' % w)
        if 'sat' in mods:
            r = sx(v, 32) + sx(cv, 32)
            r = max(-(1 << 31), min((1 << 31) - 1, r))
            self.write(ops[0], t, r)
            return
        s = v + cv + (self.cf if carry else 0)
        if 'cc' in mods:
            self.cf = s >> w & 1
        self.write(ops[0], 'b%d' % w, s)

    def op_madc(self, mods, types, ops):
        self.op_mad(mods, types, ops, True)

    def op_mul24(self, mods, types, ops):
        t = types[0]
        a, b = (self.read(o, t) for o in ops[1:3])
        if t == 's32':
            p = sx(a, 24) * sx(b, 24)
        else:
            p = (a & 0xffffff) * (b & 0xffffff)
        self.write(ops[0], 'b32', (p >> 16 if 'hi' in mods else p) & mask(32))

    def op_mad24(self, mods, types, ops):
        t = types[0]
        a, b = (self.read(o, t) for o in ops[1:3])
        p = sx(a, 24) * sx(b, 24) if t == 's32' else (a & 0xffffff) * (b & 0xffffff)
        v = (p >> 16) if 'hi' in mods else p
        v &= mask(32)
        c = self.read(ops[3], t)
        if 'sat' in mods:
            r = sx(v, 32) + sx(c, 32)
            self.write(ops[0], t, max(-(1 << 31), min((1 << 31) - 1, r)))
        else:
            self.write(ops[0], t, v + c)

    def op_div(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.farith(mods, types, ops, 'div')

        def f(w, a, b):
            if b == 0:
                return ANY
            q = abs(a) // abs(b)
            return -q if (a < 0) != (b < 0) else q
        self.int2(mods, types, ops, f)

    def op_rem(self, mods, types, ops):
        def f(w, a, b):
            if b == 0:
                return ANY
            r = abs(a) % abs(b)
            return -r if a < 0 else r
        self.int2(mods, types, ops, f)

    def op_abs(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.funary(mods, types, ops, 'abs')
        self.int2(mods, types, ops, lambda w, a: abs(a))

    def op_neg(self, mods, types, ops):
        t = types[0]
        if fkind(t):
            return self.funary(mods, types, ops, 'neg')
        self.int2(mods, types, ops, lambda w, a: -a)

    def op_min(self, mods, types, ops, is_max=False):
        t = types[0]
        if fkind(t):
            return self.fminmax(mods, types, ops, is_max)
        if t in ('u16x2', 's16x2'):
            a, b = (self.read(o, 'b32') for o in ops[1:])
            r = 0
            for i in range(2):
                x, y = (a >> 16 * i) & 0xffff, (b >> 16 * i) & 0xffff
                if t[0] == 's':
                    x, y = sx(x, 16), sx(y, 16)
                v = max(x, y) if is_max else min(x, y)
                if 'relu' in mods and v < 0:
                    v = 0
                r |= (v & 0xffff) << 16 * i
            self.write(ops[0], 'b32', r)
            return

        def f(w, a, b):
            v = max(a, b) if is_max else min(a, b)
            return max(v, 0) if 'relu' in mods else v
        self.int2(mods, types, ops, f)

    def op_max(self, mods, types, ops):
        self.op_min(mods, types, ops, True)

    def op_sad(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a, b, c: c + abs(a - b))

    def op_and(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a, b: a & b)

    def op_or(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a, b: a | b)

    def op_xor(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a, b: a ^ b)

    def op_not(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a: ~a)

    def op_cnot(self, mods, types, ops):
        self.int2(mods, types, ops, lambda w, a: int(a == 0))

    def op_shl(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a = self.read(ops[1], t)
        n = self.read(ops[2], 'u32')
        self.write(ops[0], t, 0 if n >= w else a << n)

    def op_shr(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a = ival(self.read(ops[1], t), t)
        n = self.read(ops[2], 'u32')
        self.write(ops[0], t, (a >> min(n, w)) if t[0] == 's' else (0 if n >= w else a >> n))

    def op_popc(self, mods, types, ops):
        self.write(ops[0], 'u32', bin(self.read(ops[1], types[0])).count('1'))

    def op_clz(self, mods, types, ops):
        w = tw(types[0])
        self.write(ops[0], 'u32', w - self.read(ops[1], types[0]).bit_length())

    def op_brev(self, mods, types, ops):
        w = tw(types[0])
        v = self.read(ops[1], types[0])
        self.write(ops[0], types[0], int(format(v, '0%db' % w)[::-1], 2))

    def op_bfind(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        v = ival(self.read(ops[1], t), t)
        if t[0] == 's' and v < 0:
            v = ~v
        if v == 0:
            r = 0xffffffff
        else:
            r = v.bit_length() - 1
            if 'shiftamt' in mods:
                r = w - 1 - r
        self.write(ops[0], 'u32', r)

    def op_bfe(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a = self.read(ops[1], t)
        pos = self.read(ops[2], 'u32') & (0xff if w == 32 else mask(32))
        ln = self.read(ops[3], 'u32') & (0xff if w == 32 else mask(32))
        ln = min(ln, 128)
        if t[0] == 's':
            sbit = (a >> min(pos + ln - 1, w - 1)) & 1 if ln else 0
        else:
            sbit = 0
        r = 0
        for i in range(w):
            if i < ln and pos + i <= w - 1:
                r |= ((a >> (pos + i)) & 1) << i
            else:
                r |= sbit << i
        self.write(ops[0], t, r)

    def op_bfi(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a, b = self.read(ops[1], t), self.read(ops[2], t)
        pos = self.read(ops[3], 'u32') & (0xff if w == 32 else mask(32))
        ln = min(self.read(ops[4], 'u32') & (0xff if w == 32 else mask(32)), 128)
        f = b
        for i in range(ln):
            if pos + i >= w:
                break
            f = (f & ~(1 << (pos + i))) | (((a >> i) & 1) << (pos + i))
        self.write(ops[0], t, f)

    def op_prmt(self, mods, types, ops):
        a, b, c = (self.read(o, 'b32') for o in ops[1:4])
        x = a | b << 32
        modes = {'f4e': [0x3210, 0x4321, 0x5432, 0x6543], 'b4e': [0x5670, 0x6701, 0x7012, 0x0123],
                 'rc8': [0, 0x1111, 0x2222, 0x3333], 'ecl': [0x3210, 0x3211, 0x3222, 0x3333],
                 'ecr': [0, 0x1110, 0x2210, 0x3210], 'rc16': [0x1010, 0x3232, 0x1010, 0x3232]}
        m = [m for m in mods if m in modes]
        if m:
            sel = modes[m[0]][c & 3]
            signrep = False
        else:
            sel = c & 0xffff
            signrep = True
        r = 0
        for i in range(4):
            s = (sel >> 4 * i) & 0xf
            byte = (x >> 8 * (s & 7)) & 0xff
            if signrep and s & 8:
                byte = 0xff if byte & 0x80 else 0
            r |= byte << 8 * i
        self.write(ops[0], 'b32', r)

    def op_lop3(self, mods, types, ops):
        a, b, c = (self.read(o, 'b32') for o in ops[1:4])
        lut = int(ops[4], 0)
        r = 0
        for i in range(32):
            idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1)
            r |= ((lut >> idx) & 1) << i
        self.write(ops[0], 'b32', r)

    def op_shf(self, mods, types, ops):
        a, b = self.read(ops[1], 'b32'), self.read(ops[2], 'b32')
        n = self.read(ops[3], 'u32')
        n = n & 31 if 'wrap' in mods else min(n, 32)
        x = b << 32 | a
        if 'l' in mods:
            r = ((x << n) >> 32) & mask(32)
        else:
            r = (x >> n) & mask(32)
        self.write(ops[0], 'b32', r)

    def op_bmsk(self, mods, types, ops):
        a, b = self.read(ops[1], 'u32'), self.read(ops[2], 'u32')
        if 'wrap' in mods:
            a, b = a & 31, b & 31
        if a >= 32:
            self.write(ops[0], 'b32', 0)
            return
        m = mask(32) if b >= 32 else mask(b)
        self.write(ops[0], 'b32', (m << a) & mask(32))

    def op_szext(self, mods, types, ops):
        t = types[0]
        a, b = self.read(ops[1], 'u32'), self.read(ops[2], 'u32')
        n = b & 31 if 'wrap' in mods else min(b, 32)
        if n >= 32:
            r = a
        elif n == 0:
            r = 0
        else:
            v = a & mask(n)
            r = sx(v, n) if t[0] == 's' else v
        self.write(ops[0], 'b32', r)

    def op_dp4a(self, mods, types, ops):
        ta, tb = types
        a, b, c = (self.read(o, 'b32') for o in ops[1:4])
        s = 0
        for i in range(4):
            x, y = (a >> 8 * i) & 0xff, (b >> 8 * i) & 0xff
            s += (sx(x, 8) if ta[0] == 's' else x) * (sx(y, 8) if tb[0] == 's' else y)
        self.write(ops[0], 'b32', c + s)

    def op_dp2a(self, mods, types, ops):
        ta, tb = types
        a, b, c = (self.read(o, 'b32') for o in ops[1:4])
        hi = 'hi' in mods
        s = 0
        for i in range(2):
            x, y = (a >> 16 * i) & 0xffff, (b >> 8 * (i + 2 * hi)) & 0xff
            s += (sx(x, 16) if ta[0] == 's' else x) * (sx(y, 8) if tb[0] == 's' else y)
        self.write(ops[0], 'b32', c + s)

    # ---- predicates and compares
    def compare(self, mods, t, x, y):
        cmpn = [m for m in mods if m in CMPS][0]
        k = fkind(t)
        if k:
            xv, yv = fp.dec(x, k), fp.dec(y, k)
            if 'ftz' in mods:
                xv, yv = fp.ftz(xv, k), fp.ftz(yv, k)
            return cmp_op(cmpn, xv, yv, True)
        return cmp_op(cmpn, ival(x, t), ival(y, t), False)

    def combine(self, mods, v, ops, idx):
        for bop in ('and', 'or', 'xor'):
            if bop in mods:
                p = self.read(ops[idx], 'pred')
                return {'and': v & p, 'or': v | p, 'xor': v ^ p}[bop]
        return v

    def op_setp(self, mods, types, ops):
        t = types[0]
        dsts = ops[0].split('|')
        if t in ('f16x2', 'bf16x2'):
            x, y = self.read(ops[1], t), self.read(ops[2], t)
            for i, d in enumerate(dsts):
                v = self.compare(mods, t, (x >> 16 * i) & 0xffff, (y >> 16 * i) & 0xffff)
                self.write(d, 'pred', self.combine(mods, v, ops, 3))
            return
        x, y = self.read(ops[1], t), self.read(ops[2], t)
        v = self.compare(mods, t, x, y)
        self.write(dsts[0], 'pred', self.combine(mods, v, ops, 3))
        if len(dsts) > 1:
            self.write(dsts[1], 'pred', self.combine(mods, 1 - v, ops, 3))

    def op_set(self, mods, types, ops):
        dt, st = types
        one = {'u32': 0xffffffff, 's32': 0xffffffff, 'f32': 0x3f800000, 'f16': 0x3c00, 'bf16': 0x3f80}
        if st in ('f16x2', 'bf16x2'):
            x, y = self.read(ops[1], st), self.read(ops[2], st)
            r = 0
            for i in range(2):
                v = self.combine(mods, self.compare(mods, st, (x >> 16 * i) & 0xffff, (y >> 16 * i) & 0xffff), ops, 3)
                lane = {'u32': 0xffff, 's32': 0xffff, 'f16x2': 0x3c00, 'bf16x2': 0x3f80}[dt] if v else 0
                r |= lane << 16 * i
            self.write(ops[0], 'b32', r)
            return
        x, y = self.read(ops[1], st), self.read(ops[2], st)
        v = self.combine(mods, self.compare(mods, st, x, y), ops, 3)
        self.write(ops[0], dt, one[dt] if v else 0)

    def op_testp(self, mods, types, ops):
        t = types[0]
        v = self.readf(ops[1], t)
        k = fkind(t)
        m = mods[0]
        r = {'finite': v[0] == 'num', 'infinite': v[0] == 'inf', 'number': v[0] != 'nan', 'notanumber': v[0] == 'nan',
             'normal': v[0] == 'num' and not fp.is_sub(v, k),   # the GPU counts zero as normal
             'subnormal': fp.is_sub(v, k)}[m]
        self.write(ops[0], 'pred', int(r))

    def op_copysign(self, mods, types, ops):
        t = types[0]
        w = tw(t)
        a, b = self.read(ops[1], t), self.read(ops[2], t)
        self.write(ops[0], t, (b & ~(1 << (w - 1))) | (a & (1 << (w - 1))))

    # ---- floating point
    def lanes(self, t):
        return 2 if t.endswith('x2') else 1

    def farith(self, mods, types, ops, op):
        t = types[0]
        k = fkind(t)
        w = 16 if self.lanes(t) == 2 else tw(t)
        if 'approx' in mods or 'full' in mods:
            return self.fapprox(mods, types, ops, op)
        mode = rmode(mods)
        srcs = [self.read(o, t) for o in ops[1:]]
        r = 0
        for lane in range(self.lanes(t)):
            vs = [ftz_in(fp.dec((s >> w * lane) & mask(w), k), k, mods) for s in srcs]
            if op == 'add':
                v = fp.add(vs[0], vs[1], mode)
            elif op == 'sub':
                v = fp.add(vs[0], fp.neg(vs[1]), mode)
            elif op == 'mul':
                v = fp.mul(vs[0], vs[1])
            elif op == 'fma':
                v = fp.fma(vs[0], vs[1], vs[2], mode)
            elif op == 'div':
                v = fp.div(vs[0], vs[1])
            r |= (nan64(v, [(s >> w * lane) & mask(w) for s in srcs]) if k == 'f64' and v[0] == 'nan'
                  else post(v, k, mods, mode)) << w * lane
        self.write(ops[0], t, r)

    def op_fma(self, mods, types, ops):
        self.farith(mods, types, ops, 'fma')

    def fapprox(self, mods, types, ops, op):
        t = types[0]
        k = fkind(t)
        a, b = (ftz_in(self.readf(o, t), k, mods) for o in ops[1:3])
        if op != 'div':
            raise Unknown('approx ' + op)
        # the ISA: div.approx is a * (1/b); for 2^126 < |b| < 2^128 the result is 0 (NaN for a infinite)
        if b[0] == 'num' and b[2] > Fraction(2) ** 126 and 'approx' in mods and a[0] != 'nan':
            v = fp.NAN if a[0] == 'inf' else fp.num(a[1] ^ b[1], Fraction(0))
            self.write(ops[0], t, fp.enc(v, k) if v[0] != 'nan' else 0x7fffffff)
            return
        v = fp.div(a, b)
        self.write(ops[0], t, post(v, k, mods, 'rn'))

    def funary(self, mods, types, ops, op):
        t = types[0]
        k = fkind(t)
        w = 16 if self.lanes(t) == 2 else tw(t)
        src = self.read(ops[1], t)
        r = 0
        for lane in range(self.lanes(t)):
            v = ftz_in(fp.dec((src >> w * lane) & mask(w), k), k, mods)
            if v[0] == 'nan':
                bits = fp.enc(v, k)
            elif op == 'neg':
                bits = fp.enc(fp.neg(v), k)
            elif op == 'abs':
                bits = fp.enc((v[0], 0, v[2]), k)
            else:
                raise Unknown(op)
            r |= bits << w * lane
        self.write(ops[0], t, r)

    def fminmax(self, mods, types, ops, is_max):
        t = types[0]
        k = fkind(t)
        w = 16 if self.lanes(t) == 2 else tw(t)
        x, y = self.read(ops[1], t), self.read(ops[2], t)
        r = 0
        for lane in range(self.lanes(t)):
            a = ftz_in(fp.dec((x >> w * lane) & mask(w), k), k, mods)
            b = ftz_in(fp.dec((y >> w * lane) & mask(w), k), k, mods)
            sgn = a[1] ^ b[1]
            if 'xorsign' in mods:
                a, b = (a[0], 0, a[2]), (b[0], 0, b[2])
            v = fminmax(a, b, is_max, 'NaN' in mods, k)
            if 'xorsign' in mods and v[0] != 'nan':
                v = (v[0], sgn, v[2])
            r |= fp.enc(v, k) << w * lane
        self.write(ops[0], t, r)

    def op_rcp(self, mods, types, ops):
        t = types[0]
        k = fkind(t)
        a = ftz_in(self.readf(ops[1], t), k, mods)
        v = fp.div(fp.num(0, Fraction(1)), a)
        if k == 'f64' and v[0] == 'nan':
            self.write(ops[0], t, nan64(v, [self.read(ops[1], t)]))
            return
        if 'approx' in mods and k == 'f64':
            # rcp.approx.ftz.f64: subnormal results flush
            mods = mods + ['ftz']
        self.write(ops[0], t, post(v, k, mods, rmode(mods)))

    def op_sqrt(self, mods, types, ops):
        t = types[0]
        k = fkind(t)
        a = ftz_in(self.readf(ops[1], t), k, mods)
        if k == 'f64' and fp.sqrt(a)[0] == 'nan':
            self.write(ops[0], t, nan64(a, [self.read(ops[1], t)]))
            return
        self.write(ops[0], t, post(fp.sqrt(a), k, mods, rmode(mods)))

    def op_rsqrt(self, mods, types, ops):
        t = types[0]
        k = fkind(t)
        a = ftz_in(self.readf(ops[1], t), k, mods)
        s = fp.sqrt(a)
        v = fp.div(fp.num(0, Fraction(1)), s) if s[0] != 'nan' else s
        if k == 'f64' and v[0] == 'nan':
            self.write(ops[0], t, nan64(v, [self.read(ops[1], t)]))
            return
        self.write(ops[0], t, post(v, k, mods, 'rn'))

    def mathf(self, mods, types, ops, f):
        t = types[0]
        k = fkind(t)
        w = 16 if self.lanes(t) == 2 else tw(t)
        src = self.read(ops[1], t)
        r = 0
        for lane in range(self.lanes(t)):
            v = ftz_in(fp.dec((src >> w * lane) & mask(w), k), k, mods)
            x = fp.to_float(v)
            try:
                y = f(x)
            except (ValueError, OverflowError):
                y = float('nan') if x < 0 or x != x else math.inf
            r |= post(fp.from_float(y), k, mods, 'rn') << w * lane
        self.write(ops[0], t, r)

    def op_ex2(self, mods, types, ops):
        self.mathf(mods, types, ops, lambda x: x if x != x else 2.0 ** x if x < 2000 else math.inf)

    def op_lg2(self, mods, types, ops):
        self.mathf(mods, types, ops, lambda x: -math.inf if x == 0 else float('nan') if x < 0 else math.log2(x))

    def op_sin(self, mods, types, ops):
        self.mathf(mods, types, ops, math.sin)

    def op_cos(self, mods, types, ops):
        self.mathf(mods, types, ops, math.cos)

    def op_tanh(self, mods, types, ops):
        self.mathf(mods, types, ops, math.tanh)

    # ---- conversions
    def op_cvt(self, mods, types, ops):
        if 'pack' in mods:
            dt = types[0]
            bits = tw(dt)
            lo, hi = (-(1 << bits - 1), (1 << bits - 1) - 1) if dt[0] == 's' else (0, (1 << bits) - 1)
            a, b = (sx(self.read(o, 'b32'), 32) for o in ops[1:3])
            r = (max(lo, min(hi, b)) & mask(bits)) | (max(lo, min(hi, a)) & mask(bits)) << bits
            if len(ops) > 3:
                r |= self.read(ops[3], 'b32') << 2 * bits
            self.write(ops[0], 'b32', r)
            return
        dt, st = types
        dk, sk = fkind(dt), fkind(st)
        if dt in ('e4m3x2', 'e5m2x2'):
            f = 0 if dt == 'e4m3x2' else 1
            relu = 'relu' in mods
            if st == 'f32':
                a, b = (self.readf(o, 'f32') for o in ops[1:3])
                r = fp8_enc(a, f, relu) << 8 | fp8_enc(b, f, relu)
            else:
                x = self.read(ops[1], 'b32')
                r = fp8_enc(fp.dec(x >> 16, 'f16'), f, relu) << 8 | fp8_enc(fp.dec(x & 0xffff, 'f16'), f, relu)
            self.write(ops[0], 'b16', r)
            return
        if st in ('e4m3x2', 'e5m2x2'):
            f = 0 if st == 'e4m3x2' else 1
            x = self.read(ops[1], 'b16')
            r = 0
            for i in range(2):
                v = fp8_dec((x >> 8 * i) & 0xff, f)
                r |= post(v, 'f16', mods, 'rn') << 16 * i
            self.write(ops[0], 'b32', r)
            return
        if dt == 'tf32':
            v = self.readf(ops[1], 'f32')
            if v[0] == 'nan':
                self.write(ops[0], 'b32', ANY)
                return
            r = fp.enc(v, 'tf32', rmode(mods)) << 13
            if 'satfinite' in mods and v[0] != 'nan' and (r & 0x7fffffff) == 0x7f800000:
                r = (r & 0x80000000) | 0x7f7fe000
            self.write(ops[0], 'b32', r)
            return
        if dt in ('f16x2', 'bf16x2'):
            a, b = (self.readf(o, 'f32') for o in ops[1:3])
            k = fkind(dt)
            m = rmode(mods)
            r = post(a, k, mods, m) << 16 | post(b, k, mods, m)
            self.write(ops[0], 'b32', r)
            return
        if dk and sk:
            v = self.readf(ops[1], st)
            if v[0] == 'nan' and (sk == 'f64' or dk == 'f64') and 'sat' not in mods and \
                    not [m for m in mods if m in IROUND]:
                # to or from f64 the GPU keeps a NaN's sign and top payload bits (quieted)
                self.write(ops[0], dt, nan_convert(self.read(ops[1], st), sk, dk))
                return
            if v[0] == 'nan' and sk == 'bf16' and dk == 'f32':
                self.write(ops[0], dt, self.read(ops[1], st) << 16)   # a shift, payload and all
                return
            if 'ftz' in mods and sk == 'f32':
                v = fp.ftz(v, sk)
            irm = [IROUND[m] for m in mods if m in IROUND]
            if irm:
                if v[0] == 'num':
                    n = round_int(v, irm[0])
                    v = ('num', v[1], Fraction(abs(n)))
                self.write(ops[0], dt, post(v, dk, mods, 'rn'))
                return
            self.write(ops[0], dt, post(v, dk, mods, rmode(mods)))
            return
        if sk:  # float -> int
            v = self.readf(ops[1], st)
            if 'ftz' in mods:
                v = fp.ftz(v, sk)
            irm = [IROUND[m] for m in mods if m in IROUND]
            self.write(ops[0], dt, f2i(v, dt, irm[0] if irm else 'rz'))
            return
        if dk:  # int -> float
            x = ival(self.read(ops[1], st), st)
            self.write(ops[0], dt, post(fp.from_int(x), dk, mods, rmode(mods)))
            return
        # int -> int
        x = ival(self.read(ops[1], st), st)
        if 'sat' in mods:
            w = tw(dt)
            lo, hi = (-(1 << (w - 1)), (1 << (w - 1)) - 1) if dt[0] == 's' else (0, (1 << w) - 1)
            x = max(lo, min(hi, x))
        self.write(ops[0], dt, x)


# and/or/xor/not also take .pred operands
for _n in ('and', 'or', 'xor', 'not'):
    _orig = getattr(Runner, 'op_' + _n)
    setattr(Runner, '_int_' + _n, _orig)

    def _make(n, orig):
        def g(self, mods, types, ops):
            if types[0] == 'pred':
                vals = [self.read(o, 'pred') for o in ops[1:]]
                r = {'and': lambda a, b: a & b, 'or': lambda a, b: a | b, 'xor': lambda a, b: a ^ b,
                     'not': lambda a: 1 - a}[n](*vals)
                self.write(ops[0], 'pred', r)
            else:
                orig(self, mods, types, ops)
        return g
    setattr(Runner, 'op_' + _n, _make(_n, _orig))
