#!/usr/bin/env python3
"""transform.py SRC_ROOT DST_ROOT — a development aid (`make test-gpu-emu`).

Copies the headers of kernels/ and base/ from SRC_ROOT into DST_ROOT and
rewrites every kernels/cuda/*.cu into DST_ROOT/kernels/cuda/*.cpp that a
host C++ compiler builds against tests/gpu/emu/cuda_runtime.h:

    name<<<grid, block, smem, stream>>>(args)
        -> emu_launch(dim3(grid), dim3(block), smem, [&]{ name(args); })
    extern __shared__ float sm[];
        -> float *sm = (float *)emu_dyn_smem();

Nothing else changes, so the emulated kernels are the real kernels' text.
"""
import glob
import os
import re
import shutil
import sys


def split_top(s):
    """Splits s at the commas outside parentheses and brackets."""
    parts, depth, cur = [], 0, ''
    for ch in s:
        depth += ch in '([' and 1 or 0
        depth -= ch in ')]' and 1 or 0
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def closing_paren(text, k):
    """Index of the parenthesis closing the one at text[k]."""
    depth = 0
    for e in range(k, len(text)):
        depth += {'(': 1, ')': -1}.get(text[e], 0)
        if depth == 0:
            return e
    raise SystemExit('transform.py: unbalanced launch arguments')


def transform(text):
    text = re.sub(r'extern __shared__ (\w+) (\w+)\[\];',
                  r'\1 *\2 = (\1 *)emu_dyn_smem();', text)
    out, pos = '', 0
    while True:
        i = text.find('<<<', pos)
        if i < 0:
            return out + text[pos:]
        name = re.search(r'([A-Za-z_]\w*(?:<[^<>;]*>)?)$', text[pos:i])
        start = pos + name.start(1)
        j = text.find('>>>', i)
        cfg = split_top(text[i + 3:j])
        k = j + 3
        if text[k] != '(':
            raise SystemExit('transform.py: expected ( after >>>')
        e = closing_paren(text, k)
        smem = cfg[2] if len(cfg) > 2 else '0'
        out += text[pos:start] + 'emu_launch(dim3(%s), dim3(%s), %s, [&]{ %s%s; })' % (
            cfg[0], cfg[1], smem, text[start:i], text[k:e + 1])
        pos = e + 1


def main():
    src, dst = sys.argv[1], sys.argv[2]
    for d in ['kernels', 'kernels/cpu', 'kernels/cuda', 'base']:
        os.makedirs(os.path.join(dst, d), exist_ok=True)
        for f in glob.glob(os.path.join(src, d, '*.h')) + glob.glob(os.path.join(src, d, '*.cuh')):
            shutil.copy(f, os.path.join(dst, d))
    for f in sorted(glob.glob(os.path.join(src, 'kernels/cuda/*.cu'))):
        with open(f) as fin:
            text = transform(fin.read())
        name = os.path.basename(f)[:-3] + '.cpp'
        with open(os.path.join(dst, 'kernels/cuda', name), 'w') as fout:
            fout.write(text)


if __name__ == '__main__':
    main()
