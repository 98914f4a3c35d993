#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-api.py --man DIR [--meson FILE] [--expect FILE] HEADER...

Keeps the table's headers the reference and the man pages in step with
them. Run by meson as the tests api-reference and api-reference-selftest
(suite docs); needs neither doxygen nor groff. By hand:
    python3 docs/check-api.py --man docs/man --meson docs/meson.build \\
        include/lfht/lfht.h include/lfht/extensions.h

The public names of a header are its functions (`LFHT_API type name(` and
`static inline type name(`), its function-like macros (`#define name(`),
its structs, typedefs and enum constants; a name that ends in '_' is
internal and left out, as in the reference (Doxyfile EXCLUDE_SYMBOLS).

1. Each public name has a Doxygen comment (`/** ... */`) right before its
   declaration (only blank space between), or for an enum constant a
   `/**< ... */` after it on its line.
2. A function's or macro's comment has \\brief, a \\param for each
   parameter, \\return unless the function returns void, and the labelled
   \\rcustate and \\ordering sections (docs/Doxyfile.in's aliases).
3. Each function and macro has a man page name in DIR: NAME.3, a page or a
   `.so man3/OTHER.3` alias to a page of DIR, and the page that holds the
   text lists NAME in its NAME section.
4. With --meson, every page of DIR is in that file's man_pages (as
   'man/PAGE.3'), so that it is installed.

Each violation is printed as FILE:LINE: message (FILE: message for a man
page), and the exit status is 1. With --expect FILE the script tests
itself: it succeeds only when the check fails with exactly the lines of
FILE (docs/check-api-fixture).
"""
import argparse
import pathlib
import re
import sys

import check_report

COMMENT = re.compile(r'/\*.*?\*/', re.S)
# On the text with comments blanked out, at the start of a line.
FUNCTION = re.compile(r'^(?:LFHT_API|static\s+inline)\b([^;{}()#]*?)\b([A-Za-z_]\w*)\s*\(',
                      re.M)
MACRO = re.compile(r'^#\s*define\s+([A-Za-z_]\w*)\(([^)]*)\)', re.M)
STRUCT = re.compile(r'^struct\s+([A-Za-z_]\w*)\s*[{;]', re.M)
TYPEDEF = re.compile(r'^typedef\b[^;]*?(?:\(\s*\*\s*([A-Za-z_]\w*)\s*\)|\b([A-Za-z_]\w*)\s*;)',
                     re.M)
ENUM = re.compile(r'^enum\b[^{;]*\{(.*?)\}', re.M | re.S)
ENUMERATOR = re.compile(r'^[ \t]*([A-Za-z_]\w*)\s*(?:=[^,\n]*)?,?', re.M)


def blank_comments(text):
    """The text with every comment replaced by spaces (newlines kept), and
    the comments' spans."""
    spans = [m.span() for m in COMMENT.finditer(text)]
    out = list(text)
    for start, end in spans:
        for i in range(start, end):
            if out[i] != '\n':
                out[i] = ' '
    return ''.join(out), spans


def params(text, open_paren):
    """The parameter names of the list that starts at text[open_paren]."""
    depth, i = 0, open_paren
    while i < len(text):
        if text[i] == '(':
            depth += 1
        elif text[i] == ')':
            depth -= 1
            if depth == 0:
                break
        i += 1
    inner = text[open_paren + 1:i]
    names, depth, part = [], 0, ''
    for ch in inner + ',':
        if ch == ',' and depth == 0:
            words = re.findall(r'[A-Za-z_]\w*', part)
            if words and part.strip() != 'void':
                names.append(words[-1])
            part = ''
            continue
        depth += ch in '([' and 1 or (ch in ')]' and -1 or 0)
        part += ch
    return names


def doc_before(text, spans, pos):
    """The Doxygen comment that ends right before pos (blank space only
    between), or None."""
    before = text[:pos].rstrip()
    for start, end in spans:
        if end == len(before):
            comment = text[start:end]
            return comment if comment.startswith('/**') else None
    return None


def line_of(text, pos):
    return text.count('\n', 0, pos) + 1


def check_header(path, label, problems, public):
    text = path.read_text()
    code, spans = blank_comments(text)

    def need_doc(pos, name, kind):
        doc = doc_before(text, spans, code.rfind('\n', 0, pos) + 1)
        if doc is None:
            problems.append((label, line_of(text, pos),
                             f'{name}: {kind} without a Doxygen comment (/** ... */) '
                             'right before its declaration'))
        return doc

    def need_fields(doc, pos, name, names, returns):
        if doc is None:
            return
        missing = [tag for tag in ('\\brief', '\\rcustate', '\\ordering') if tag not in doc]
        missing += [f'\\param {p}' for p in names
                    if not re.search(r'\\param(\[[a-z,]+\])?\s+%s\b' % re.escape(p), doc)]
        if returns and '\\return' not in doc:
            missing.append('\\return')
        if missing:
            problems.append((label, line_of(text, pos),
                             f'{name}: its comment lacks {", ".join(missing)}'))

    # Functions, then macros: where, name, kind, parameters, whether it returns.
    callables = [(m.start(), m.group(2), 'function', params(code, m.end() - 1),
                  m.group(1).split() != ['void']) for m in FUNCTION.finditer(code)]
    callables += [(m.start(), m.group(1), 'macro', re.findall(r'[A-Za-z_]\w*', m.group(2)),
                   False) for m in MACRO.finditer(code)]
    for pos, name, kind, names, returns in callables:
        if name.endswith('_'):
            continue
        public.append(name)
        need_fields(need_doc(pos, name, kind), pos, name, names, returns)
    for m in STRUCT.finditer(code):
        if not m.group(1).endswith('_'):
            need_doc(m.start(), 'struct ' + m.group(1), 'type')
    for m in TYPEDEF.finditer(code):
        name = m.group(1) or m.group(2)
        if not name.endswith('_'):
            need_doc(m.start(), name, 'type')
    for m in ENUM.finditer(code):
        body_start = m.start(1)
        for e in ENUMERATOR.finditer(m.group(1)):
            name = e.group(1)
            if name.endswith('_'):
                continue
            pos = body_start + e.start(1)
            line_end = text.find('\n', pos)
            trailing = text[pos:line_end]
            if '/**<' in trailing:
                continue
            need_doc(pos, name, 'enum constant')


def man_name_section(page):
    m = re.search(r'^\.SH NAME\s*\n(.*?)^\.SH ', page, re.M | re.S)
    return m.group(1) if m else ''


def check_man(mandir, names, problems):
    for name in names:
        page = mandir / f'{name}.3'
        if not page.is_file():
            problems.append((name, 0, f'no man page name: {mandir.name}/{name}.3 is '
                                      'missing (a page, or a .so alias to one)'))
            continue
        text = page.read_text()
        first = text.split('\n', 1)[0]
        if first.startswith('.so '):
            target = mandir / pathlib.PurePath(first[4:].strip()).name
            if not target.is_file():
                problems.append((f'{mandir.name}/{page.name}', 0,
                                 f'.so target {first[4:].strip()} does not exist'))
                continue
            page, text = target, target.read_text()
        if not re.search(r'(?<![\w\\])%s(?!\w)' % re.escape(name), man_name_section(text)):
            problems.append((f'{mandir.name}/{page.name}', 0,
                             f'{name} is not in the NAME section'))


def check_meson(mandir, meson, problems):
    listed = set(re.findall(r"'man/([^']+\.3)'", meson.read_text()))
    for page in sorted(mandir.glob('*.3')):
        if page.name not in listed:
            problems.append((f'{mandir.name}/{page.name}', 0,
                             f'not in man_pages of {meson.name} (not installed)'))


def main():
    parser = argparse.ArgumentParser(
        description='Checks that the public headers carry the reference and '
                    'that each function and macro has a man page.',
        epilog='See the top of this script for the rules.')
    parser.add_argument('--man', required=True, metavar='DIR', help='the section 3 pages')
    parser.add_argument('--meson', metavar='FILE', help='the meson.build that installs them')
    parser.add_argument('--expect', metavar='FILE',
                        help='self-test: succeed only when the check reports exactly '
                             'the violations listed in FILE')
    parser.add_argument('headers', nargs='+')
    args = parser.parse_args()

    problems, public = [], []
    for header in args.headers:
        path = pathlib.Path(header)
        check_header(path, path.name, problems, public)
    mandir = pathlib.Path(args.man)
    check_man(mandir, public, problems)
    if args.meson:
        check_meson(mandir, pathlib.Path(args.meson), problems)

    return check_report.report(
        'check-api.py', problems, args.expect,
        f'{len(problems)} violations',
        f'{len(public)} functions and macros, each with its Doxygen comment '
        f'(\\brief, \\param, \\return, \\rcustate, \\ordering) and a man page name; '
        f'every type and constant commented; every page installed')


if __name__ == '__main__':
    sys.exit(main())
