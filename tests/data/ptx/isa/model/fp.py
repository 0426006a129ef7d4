"""fp.py: exact binary floating point for model.py: a value is (kind, sign,
magnitude) with kind 'num' (a Fraction), 'inf' or 'nan'; enc rounds to a
format (f16, bf16, tf32, f32, f64) in any IEEE mode, subnormals and
overflow included."""
from fractions import Fraction
import math

FMT = {'f16': (5, 10), 'bf16': (8, 7), 'f32': (8, 23), 'f64': (11, 52), 'tf32': (8, 10)}
WIDTH = {'f16': 16, 'bf16': 16, 'f32': 32, 'f64': 64}

NAN = ('nan', 0, None)


def dec(bits, fmt):
    E, M = FMT[fmt]
    w = 1 + E + M
    s = (bits >> (w - 1)) & 1
    e = (bits >> M) & ((1 << E) - 1)
    m = bits & ((1 << M) - 1)
    bias = (1 << (E - 1)) - 1
    if e == (1 << E) - 1:
        return ('nan', s, m) if m else ('inf', s, None)
    if e == 0:
        return ('num', s, Fraction(m, 1 << (M + bias - 1)))
    return ('num', s, Fraction((1 << M) | m) * Fraction(2) ** (e - bias - M))


def is_sub(v, fmt):
    E, M = FMT[fmt]
    bias = (1 << (E - 1)) - 1
    return v[0] == 'num' and v[2] != 0 and v[2] < Fraction(2) ** (1 - bias)


def ftz(v, fmt):
    if is_sub(v, fmt):
        return ('num', v[1], Fraction(0))
    return v


def ilog2(q):
    """floor(log2(q)) for Fraction q > 0"""
    n, d = q.numerator, q.denominator
    e = n.bit_length() - d.bit_length()
    if e >= 0:
        if n < (d << e):
            e -= 1
    else:
        if (n << -e) < d:
            e -= 1
    return e


def enc(v, fmt, mode='rn', canon=True):
    """v -> bits, rounding as mode. NaN -> canonical."""
    E, M = FMT[fmt]
    w = 1 + E + M
    bias = (1 << (E - 1)) - 1
    inf = ((1 << E) - 1) << M
    k, s, mag = v
    sb = s << (w - 1)
    if k == 'nan':
        return (1 << (w - 1)) - 1 if canon else sb | inf | (1 << (M - 1))
    if k == 'inf':
        return sb | inf
    if mag == 0:
        return sb
    e = ilog2(mag)
    if e < 1 - bias:
        e = 1 - bias
    if e > bias:
        bits = inf
    else:
        q = mag / Fraction(2) ** (e - M)
        n = q.numerator // q.denominator
        f = q - n
        if mode == 'rn':
            up = f > Fraction(1, 2) or (f == Fraction(1, 2) and (n & 1))
        elif mode == 'rna':
            up = f >= Fraction(1, 2)
        elif mode == 'rz':
            up = False
        elif mode == 'rm':
            up = f > 0 and s
        elif mode == 'rp':
            up = f > 0 and not s
        else:
            raise ValueError(mode)
        bits = ((e + bias - 1) << M) + n + int(up)
    if bits >= inf:
        if mode == 'rz' or (mode == 'rm' and not s) or (mode == 'rp' and s):
            bits = inf - 1
        else:
            bits = inf
    return sb | bits


def rnd(v, fmt, mode='rn'):
    """round value to fmt, returning the decoded rounded value"""
    return dec(enc(v, fmt, mode), fmt) if v[0] != 'nan' else v


def num(s, mag):
    return ('num', s, mag)


def add(x, y, mode='rn'):
    if x[0] == 'nan' or y[0] == 'nan':
        return NAN
    if x[0] == 'inf' and y[0] == 'inf':
        return x if x[1] == y[1] else NAN
    if x[0] == 'inf':
        return x
    if y[0] == 'inf':
        return y
    a = -x[2] if x[1] else x[2]
    b = -y[2] if y[1] else y[2]
    r = a + b
    if r == 0:
        if x[2] == 0 and y[2] == 0 and x[1] == y[1]:
            return num(x[1], Fraction(0))
        return num(1 if mode == 'rm' else 0, Fraction(0))
    return num(1 if r < 0 else 0, abs(r))


def neg(x):
    return (x[0], 1 - x[1], x[2])


def mul(x, y):
    if x[0] == 'nan' or y[0] == 'nan':
        return NAN
    s = x[1] ^ y[1]
    if x[0] == 'inf' or y[0] == 'inf':
        if (x[0] == 'num' and x[2] == 0) or (y[0] == 'num' and y[2] == 0):
            return NAN
        return ('inf', s, None)
    return num(s, x[2] * y[2])


def fma(x, y, z, mode='rn'):
    p = mul(x, y)
    return add(p, z, mode)


def div(x, y):
    if x[0] == 'nan' or y[0] == 'nan':
        return NAN
    s = x[1] ^ y[1]
    if x[0] == 'inf':
        return NAN if y[0] == 'inf' else ('inf', s, None)
    if y[0] == 'inf':
        return num(s, Fraction(0))
    if y[2] == 0:
        return NAN if x[2] == 0 else ('inf', s, None)
    return num(s, x[2] / y[2])


def sqrt(x):
    if x[0] == 'nan':
        return NAN
    if x[0] == 'num' and x[2] == 0:
        return x
    if x[1]:
        return NAN
    if x[0] == 'inf':
        return x
    m = x[2]
    k = 1200
    N = (m * (1 << (2 * k)))
    Ni = N.numerator // N.denominator
    r = math.isqrt(Ni)
    exact = (r * r == Ni) and N.denominator == 1
    val = Fraction(r, 1 << k) if exact else Fraction(2 * r + 1, 1 << (k + 1))
    return num(0, val)


def to_float(v):
    if v[0] == 'nan':
        return float('nan')
    if v[0] == 'inf':
        return -math.inf if v[1] else math.inf
    f = float(v[2]) if v[2] < Fraction(2) ** 1100 else math.inf
    return -f if v[1] else f


def from_float(f):
    if f != f:
        return NAN
    if math.isinf(f):
        return ('inf', 1 if f < 0 else 0, None)
    return num(1 if math.copysign(1, f) < 0 else 0, abs(Fraction(f)))


def from_int(i):
    return num(1 if i < 0 else 0, Fraction(abs(i)))


def cmp(x, y):
    """-1,0,1 or None (unordered)"""
    if x[0] == 'nan' or y[0] == 'nan':
        return None
    a, b = to_key(x), to_key(y)
    return (a > b) - (a < b)


def to_key(x):
    if x[0] == 'inf':
        return -(Fraction(10) ** 400) if x[1] else Fraction(10) ** 400
    return -x[2] if x[1] else x[2]


def is_zero(x):
    return x[0] == 'num' and x[2] == 0
