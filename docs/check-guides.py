#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-guides.py EXAMPLES_DIR [--meson MESON_BUILD] GUIDE.md...

Keeps the guides honest: every ```c block in a guide must appear verbatim
(line for line, trailing blanks ignored) in one of the example programs
(every ```cpp block in one of the C++ ones, *.cc),
which meson compiles and runs (suite 'docs'). Every example must be quoted
or named by at least one guide, so none rots unread. With --meson, every
```meson block must likewise appear in that file (the consumer fixture's
meson.build, which the 'consumer' suite builds).
"""
import pathlib
import re
import sys


def lines(text):
    return [line.rstrip() for line in text.splitlines()]


def contains(haystack, needle):
    n = len(needle)
    return any(haystack[i:i + n] == needle for i in range(len(haystack) - n + 1))


def main():
    examples_dir = pathlib.Path(sys.argv[1])
    args = sys.argv[2:]
    meson_file = None
    if args[:1] == ['--meson']:
        meson_file = pathlib.Path(args[1])
        args = args[2:]
    guides = [pathlib.Path(p) for p in args]
    examples = {p.name: lines(p.read_text())
                for p in sorted([*examples_dir.glob('*.c'), *examples_dir.glob('*.cc')])}
    used = set()
    errors = []
    blocks = 0
    for guide in guides:
        text = guide.read_text()
        for name in examples:
            if name in text:
                used.add(name)
        for match in re.finditer(r'^```(c|cpp)\n(.*?)^```', text, re.S | re.M):
            blocks += 1
            lang, block = match.group(1), lines(match.group(2))
            suffix = '.c' if lang == 'c' else '.cc'
            while block and not block[-1]:
                block.pop()
            line_no = text.count('\n', 0, match.start()) + 1
            found = [name for name, body in examples.items()
                     if name.endswith(suffix) and contains(body, block)]
            if not found:
                errors.append(f'{guide.name}:{line_no}: ```{lang} block is in no '
                              f'docs/examples/*{suffix} file')
            used.update(found)
        if meson_file is None:
            continue
        meson_lines = lines(meson_file.read_text())
        for match in re.finditer(r'^```meson\n(.*?)^```', text, re.S | re.M):
            blocks += 1
            block = lines(match.group(1))
            if not contains(meson_lines, block):
                line_no = text.count('\n', 0, match.start()) + 1
                errors.append(f'{guide.name}:{line_no}: ```meson block is not in {meson_file}')
    for name in examples:
        if name not in used:
            errors.append(f'examples/{name}: neither quoted nor named by any guide')
    for error in errors:
        print(error, file=sys.stderr)
    if not errors:
        print(f'check-guides.py: {blocks} code blocks in {len(guides)} guides, '
              f'all from the {len(examples)} examples')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
