#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-reference.py HTML_DIR

Checks the HTML reference that doxygen wrote (run-doxygen.sh calls it after
a run without warnings); any finding fails the docs test:

- no internal name on any page but the verbatim header listings
  (*_source.html): nothing that ends in '_' (the headers' mark for
  internals), and none of the visibility and declaration macros;
- each header's page lists each name once (a macro and a function of the
  same name would be two entries);
- each function and function-like macro has its "RCU state:" and
  "Ordering:" sections (the \\rcustate and \\ordering aliases);
- the landing page (index.html) links to every function and macro, and to
  both flavours' entries for a name that both flavour headers give.
"""
import html
import pathlib
import re
import sys

# Internal names that do not end in '_'.
INTERNAL_MACROS = ('LFHT_API', 'RCU_API', 'RCU_DECLARE_FLAVOUR')
# Public names that end in '_': the last parameter of rcu_cmpxchg_pointer().
PUBLIC_TRAILING = {'new_'}
# The header pages: each API name is documented on exactly one of these
# (the flavour headers each give their own rcu_read_lock() and so on).
HEADER_PAGES = ('lfht_8h.html', 'extensions_8h.html', 'flavour_8h.html',
                'pointer_8h.html', 'qsbr_8h.html', 'memb_8h.html', 'bp_8h.html',
                'mb_8h.html')
# Constant macros: nothing to say about RCU state or ordering.
CONSTANTS = {'RCU_FLAVOUR_SELECTED', 'RCU_FLAVOUR_QSBR', 'RCU_FLAVOUR_MEMB', 'RCU_FLAVOUR_BP',
             'RCU_FLAVOUR_MB'}


def text_of(fragment):
    return html.unescape(re.sub(r'<[^>]+>', ' ', fragment))


def summary_members(page):
    """[(kind, name, anchor)] of the page's summary: kind is 'define' or
    'func' (other rows: structs, typedefs, enums, variables)."""
    out = []
    for row in re.findall(r'<tr class="memitem:[^"]*">(.*?)</tr>', page, re.S):
        left = text_of(re.search(r'<td class="memItemLeft"[^>]*>(.*?)</td>', row, re.S).group(1))
        right = re.search(r'<td class="memItemRight"[^>]*>(.*?)</td>', row, re.S).group(1)
        link = re.search(r'<a class="el" href="[^"#]*#([0-9a-f]+)">([A-Za-z_]\w*)</a>', right)
        if not link:
            continue
        anchor, name = link.groups()
        after = text_of(right[link.end():]).strip()
        if left.strip().startswith('#define'):
            kind = 'define' if after.startswith('(') or name not in CONSTANTS else 'constant'
            if name in CONSTANTS:
                kind = 'constant'
        elif after.startswith('('):
            kind = 'func'
        else:
            kind = 'other'
        out.append((kind, name, anchor))
    return out


def entries(page):
    """{anchor: html of the detailed entry}."""
    out = {}
    parts = re.split(r'<h2 class="memtitle">', page)
    for part in parts[1:]:
        # A part ends with the next entry's anchor (and perhaps a group
        # header): not this entry's, or a link to the next entry would
        # count as a link to this one.
        part = re.split(r'<h2 class="groupheader">|<a id="[^"]+" name="[^"]+"></a>\s*$',
                        part)[0]
        m = re.search(r'<a href="#([0-9a-f]+)">', part)
        if m:
            out[m.group(1)] = part
    return out


def main():
    root = pathlib.Path(sys.argv[1])
    errors = []

    # A name followed by '*' is prose about a prefix (`rcu_qsbr_*`).
    name_re = re.compile(r'\b[A-Za-z]\w*_\b(?!\*)')
    for path in sorted(root.glob('*.html')):
        if path.name.endswith('_source.html'):
            continue
        text = text_of(path.read_text(errors='replace'))
        leaked = sorted({n for n in name_re.findall(text) if n not in PUBLIC_TRAILING})
        leaked += [m for m in INTERNAL_MACROS if re.search(r'\b%s\b' % m, text)]
        for name in leaked:
            errors.append(f'{path.name}: internal name {name}')

    index = (root / 'index.html').read_text(errors='replace')
    linked = set(re.findall(r'<a class="el" href="([^"]+)"', index))
    for page_name in HEADER_PAGES:
        path = root / page_name
        if not path.exists():
            errors.append(f'{page_name}: missing')
            continue
        page = path.read_text(errors='replace')
        members = summary_members(page)
        seen = {}
        for kind, name, anchor in members:
            if name in seen:
                errors.append(f'{page_name}: {name} is listed twice')
            seen[name] = anchor
        docs = entries(page)
        for kind, name, anchor in members:
            if kind not in ('define', 'func'):
                continue
            entry = docs.get(anchor, '')
            for label in ('RCU state:', 'Ordering:'):
                if f'<dt>{label}</dt>' not in entry:
                    errors.append(f'{page_name}: {name} has no "{label}" section '
                                  '(\\rcustate / \\ordering at the declaration or in docs/reference)')
            # The member's own anchor, or an \anchor inside its entry (the
            # flavour headers' entries have one each: doxygen's \ref
            # cannot tell two same-named functions of two files apart).
            targets = {anchor} | set(re.findall(r'<a [^>]*\bid="([^"]+)"', entry))
            if not any(f'{page_name}#{t}' in linked for t in targets):
                errors.append(f'index.html: no link to {name} on {page_name} '
                              '(the table in docs/reference/mainpage.md)')

    for error in errors:
        print('check-reference.py:', error, file=sys.stderr)
    if not errors:
        print('check-reference.py: no internal names, one entry per name, every '
              'function and macro labelled and on the landing page')
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
