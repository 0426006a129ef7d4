#!/usr/bin/env python3
"""Checks the CPU backend's results on the ISA conformance corpus against
model.py, an independent Python model of the PTX semantics, where no GPU
golden data exists yet (and, where it does, the model against the GPU).

Usage: check.py CPU_DUMP INPUTS [FILTER]
  CPU_DUMP: CB_ISA_DUMP=FILE test_codegen_isa writes it (golden format);
  INPUTS:   CB_ISA_INPUTS=FILE test_codegen_isa writes it (4 words a thread);
  FILTER:   only PTX files or kernels whose name contains it.
Prints each case where the CPU and the model differ (a NaN-payload-only
difference is marked "nan": the ISA leaves most payloads to the machine),
with the first inputs, and a count per case. Results the ISA leaves
unspecified (integer division by zero, slct with a NaN selector) are not
compared. Known limits: transcendental .approx results are compared with
the word's check kind, the lop3 kernel is skipped (slow).
"""
import collections
import math
import os
import re
import struct
import sys

sys.dont_write_bytecode = True

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import model  # noqa: E402

D = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), '')

def load_bin(path):
    data = open(path, 'rb').read()
    n, t = struct.unpack_from('<II', data, 8)
    out = {}
    rec = 64 + t * 32
    for k in range(n):
        off = 16 + k * rec
        name = data[off:off + 64].rstrip(b'\0').decode()
        out[name] = struct.unpack_from('<%dI' % (t * 8), data, off + 64)
    return out, t

if len(sys.argv) < 3:
    sys.exit(__doc__)
inp = open(sys.argv[2], 'rb').read()
NT = len(inp) // 16
IN = [struct.unpack_from('<4I', inp, 16 * i) for i in range(NT)]
cpu, _ = load_bin(sys.argv[1])
gold, GT = load_bin(D + 'isa_golden.bin')
cases = re.findall(r'ISA_CASE\("([^"]+)", "([^"]+)", "([^"]+)", "([^"]+)",\s*"([^"]*)"\)', open(D + 'isa_cases.h').read())

def bodies(fname):
    txt = open(D + fname).read()
    out = {}
    for m in re.finditer(r'\.entry (\w+)\(.*?mov\.b32 %o4, 0; mov\.b32 %o5, 0; mov\.b32 %o6, 0; mov\.b32 %o7, 0;\n(.*?)\tst\.global', txt, re.S):
        lines = []
        for l in m.group(2).split('\n'):
            l = l.strip()
            if not l or l.startswith('//'):
                continue
            lines.extend(x.strip() + ';' for x in l.split(';') if x.strip())
        out[m.group(1)] = lines
    return out

def f32nan(v): return (v & 0x7fffffff) > 0x7f800000
def hnan(v, bf): return (v & 0x7fff) > (0x7f80 if bf else 0x7c00)
def ulp(a, b, bits):
    s = 1 << (bits - 1)
    x = -(a & (s - 1)) if a & s else a
    y = -(b & (s - 1)) if b & s else b
    return abs(x - y)

def ok(k, got, want, fmt):
    if got == want or k == '-': return True
    if k == 'x': return False
    if k in 'fr':
        if f32nan(got) or f32nan(want): return f32nan(got) and f32nan(want)
        g = struct.unpack('<f', struct.pack('<I', got))[0]; w = struct.unpack('<f', struct.pack('<I', want))[0]
        if math.isinf(w) or math.isinf(g): return g == w
        return abs(g - w) <= (2e-6 * max(1, abs(w)) if k == 'f' else 1e-3 * abs(w) + 1e-6)
    if k == 'u':
        if f32nan(got) or f32nan(want): return f32nan(got) and f32nan(want)
        return ulp(got, want, 32) <= 4
    bf = k == 'b' or fmt[0] == 'b'
    for s in (0, 16):
        g, w = (got >> s) & 0xffff, (want >> s) & 0xffff
        if not ((hnan(g, bf) and hnan(w, bf)) or ulp(g, w, 16) <= 2): return False
    return True

def nanish(a, b):
    if f32nan(a) and f32nan(b): return True
    if (a & 0x7ff00000) == 0x7ff00000 and (b & 0x7ff00000) == 0x7ff00000: return True
    for bf in (0, 1):
        if all((hnan((a >> s) & 0xffff, bf) and hnan((b >> s) & 0xffff, bf)) or ((a >> s) & 0xffff) == ((b >> s) & 0xffff) for s in (0, 16)):
            return True
    return False

only = sys.argv[3] if len(sys.argv) > 3 else None
cache = {}
report = collections.OrderedDict()
for fname, kname, checks, fmt, names in cases:
    if only and only not in fname and only not in kname: continue
    if kname == "i_lop3": continue
    if fname not in cache: cache[fname] = bodies(fname)
    body = cache[fname][kname]
    names = names.split('|')
    c = cpu[fname + ':' + kname]
    g = gold.get(fname + ':' + kname)
    for i in range(NT):
        m = model.Runner(*IN[i])
        err = None
        for l in body:
            try:
                m.step(l)
            except model.Unknown as e:
                _, _, _, ops = model.parse(l)
                for d in ops[0].strip('{}').replace('|', ',').split(','):
                    m.r[d.strip()] = None
                if str(e).startswith('no model'):
                    err = str(e)
            except Exception as e:
                err = 'EXC ' + repr(e) + ' ' + l
                break
        for w in range(8):
            n = names[w]
            if not n: continue
            r = report.setdefault(n, collections.Counter())
            r['words'] += 1
            o = m.r.get('%%o%d' % w)
            cw = c[i * 8 + w]
            if g is not None and i < GT:
                gw = g[i * 8 + w]
                if err is None and o is not None:
                    if not ok(checks[w], o, gw, fmt):
                        key = 'model!=gpu' + (' nan' if nanish(o, gw) else '')
                        r[key] += 1
                        if r[key] <= 2: print('  %s %s: %s thread %d in %08x %08x %08x %08x model %08x gpu %08x cpu %08x' % (key, n, kname, i, *IN[i], o, gw, cw))
            if err is not None:
                r['unmodeled'] += 1
                if r['unmodeled'] == 1: print('  unmodeled %s: %s' % (n, err))
                continue
            if o is None:
                r['any'] += 1
                continue
            if not ok(checks[w], cw, o, fmt):
                key = 'cpu!=model' + (' nan' if nanish(o, cw) else '')
                r[key] += 1
                if r[key] <= 3: print('  %s %s: %s thread %d in %08x %08x %08x %08x model %08x cpu %08x' % (key, n, kname, i, *IN[i], o, cw))
print()
bad = 0
for n, r in report.items():
    keys = {k: v for k, v in r.items() if k not in ('words', 'any')}
    if keys:
        bad += 1
        print('%-40s %s' % (n, dict(keys)))
print('cases with issues:', bad, 'of', len(report))
