#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check-pairs.py [--known FILE:NAME]... [--expect FILE] --root DIR | PATH...

Keeps the ordering comments of lfht and rcu true. docs/memory-ordering.md
carries the proofs; which access pairs with which is said by a comment at
each access, and this script checks those comments. Run by meson as the
tests ordering-pairs and ordering-pairs-selftest (suite docs); by hand:
    python3 docs/check-pairs.py --root .

An explaining comment is one that contains "pair" (any case: pairs,
pairing), or one that names the other end, "with cb_enqueue()'s seq_cst
swap", or the explanation, "as in lfht_find_from_()", unless it begins
with "Relaxed" (a relaxed access's comment).

1. Dangling references. Each `name()` in an explaining comment must be a
   function of the scanned sources: a definition with a body (`type
   name(...) {`, the static inline ones of headers too, `type (name)(...)
   {`, and `type MACRO(name)(...) {` as in RCU_SYM_(wake_writer_)), a
   function-like macro (`#define name(`), or a macro that renames one
   (`#define name other`). A call, a prototype without a body or a struct
   member does not count. The functions of the C library and the kernel in
   EXTERNAL may be named too. Where `name()` is followed by its file, as in
   "gp_run() (src/gp.c, note 2)" or "lfht_lookup_inline_() in
   <lfht/lfht.h>", the function must be defined in a file of that name.

2. Unexplained ordering points. An ordering point is an atomic call whose
   arguments name a strong order: memory_order_acquire, _release,
   _acq_rel, _seq_cst, _consume, or the __ATOMIC_ constants of the
   builtins; an acquire or release on success or on failure, a seq_cst RMW,
   a fence (rcu_fence(memory_order_seq_cst)). Macro definitions are left
   out: they define the primitives (rcu/atomic.h, rcu/pointer.h) and their
   uses are the ordering points. Each one needs, in its function:
   a. an explaining comment in its statement. A statement starts where the
      one before it ended, so the comment right above it is in it; a
      `do {...} while (...)` and a `for (...; ...; ...)` are one statement;
   b. or a comment of its own that says "as above" (or "see above"), below
      an explaining comment;
   c. or the nearest explaining comment above it, ending at most WINDOW
      lines above it, when that comment: belongs to no other ordering
      point and at most one statement stands between them; or says that
      it stands for several accesses (SEVERAL: "Acquire (both loads)",
      "(all ->next loads here)", "each successor", "store then load"); or
      belongs to the same call on the same object with the same order
      (a retried exchange, a spin after a first try).
   So deleting the comment of an access fails the check, unless another
   comment says that it covers that access too.

Each violation is printed as FILE:LINE: message, and the exit status is 1.
--root DIR scans the library sources under DIR (ROOT_GLOBS); a directory
given as PATH is scanned for *.c and *.h, a file as it is. --known
FILE:NAME lets a dangling NAME() in FILE pass until it is fixed; once it no
longer dangles, the entry fails the check, so that it gets dropped. With
--expect FILE the script tests itself: it succeeds only when the check
fails with exactly the lines of FILE (docs/check-pairs-fixture).
"""
import argparse
import bisect
import pathlib
import re
import sys

import check_report

ROOT_GLOBS = [
    'lfht/*.c', 'lfht/*.h', 'include/**/*.h',
    'rcu/src/*.c', 'rcu/src/*.h', 'rcu/include/**/*.h',
    'ds/include/**/*.h',
]

# Functions from outside the sources that a comment may name.
EXTERNAL = {
    'membarrier', 'syscall', 'futex', 'fork', 'pthread_atfork',
    'pthread_create', 'pthread_join', 'pthread_mutex_lock',
    'pthread_mutex_unlock', 'pthread_cond_wait', 'pthread_cond_signal',
    'atomic_thread_fence', 'atomic_signal_fence', 'sched_yield',
}

DANGLING = ' in an ordering comment is not a function of the sources'

# Lines above an ordering point that a comment in the same function may end.
WINDOW = 15

STRONG_ORDER = re.compile(
    r'\bmemory_order_(?:acquire|release|acq_rel|seq_cst|consume)\b'
    r'|\b__ATOMIC_(?:ACQUIRE|RELEASE|ACQ_REL|SEQ_CST|CONSUME)\b')
MENTIONS_PAIR = re.compile(r'pair', re.I)
# A comment that stands for several accesses: "Acquire (both loads)",
# "pairs with the CAS that linked each successor", "store then load".
SEVERAL = re.compile(r'\b(?:all|both|each|then)\b'
                     r'|\b(?:Acquire|Release|Seq_cst|Acq_rel|Consume)\s+\(', re.I)
# A comment that points at the explanation above it.
BACK_REFERENCE = re.compile(r'\b(?:as|see)\s+above\b', re.I)
NAMES_OTHER_END = re.compile(r'\b(?:with|as in)\s+[A-Za-z_]\w*\(\)', re.I)
NAMED_FUNCTION = re.compile(r'\b([A-Za-z_]\w*)\(\)')
# "name() (src/gp.c, ...)", "name() in <lfht/lfht.h>", "name() in gp.c".
FILE_HINT = re.compile(r'\s+(?:\(\s*([\w./-]+\.[ch])\s*[,)]|in\s+<?([\w./-]+\.[ch])\b)')
# Words that may stand before a call but never before a defined name.
NOT_A_TYPE = {
    'return', 'sizeof', 'else', 'case', 'goto', 'do', 'if', 'while', 'for',
    'switch', 'defined', 'typeof', '__typeof__', 'alignof', '_Alignof',
    '_Static_assert', 'static_assert', '__attribute__', '__extension__',
}


def explains(comment):
    """Whether a comment says what an access pairs with: it says "pair",
    or, unless it is a relaxed access's comment, names the other end
    ("with cb_enqueue()'s seq_cst swap") or the comment that does ("as in
    lfht_find_from_()")."""
    if MENTIONS_PAIR.search(comment):
        return True
    return not comment.lstrip(' \t*\n').startswith('Relaxed') and \
        NAMES_OTHER_END.search(comment) is not None


class Source:
    """A file split into code (comments and literals blanked, newlines
    kept) and its comments as (start offset, end offset, text)."""

    def __init__(self, path, label):
        self.path = path
        self.label = label
        self.text = path.read_text(errors='replace')
        self.code, self.comments = split_comments(self.text)
        self.newlines = [i for i, c in enumerate(self.text) if c == '\n']
        self.directives = directive_spans(self.code)
        # The code outside preprocessor directives, for braces and
        # definitions.
        body = list(self.code)
        for start, end in self.directives:
            for i in range(start, end):
                if body[i] != '\n':
                    body[i] = ' '
        # The braces of a header's C++ linkage block (`extern "C" {`, its
        # string blanked here, and the `}` under `#ifdef __cplusplus`)
        # enclose no code of their own.
        for m in re.finditer(r'^extern "[ C]" \{$|(?<=^#ifdef __cplusplus\n)\}$',
                             self.code, re.M):
            for i in range(m.start(), m.end()):
                body[i] = ' '
        self.body = ''.join(body)
        self.depth_at, self.function_start = brace_depths(self.body)
        self.bounds = statement_bounds(self.body)

    def line(self, offset):
        return bisect.bisect_left(self.newlines, offset) + 1


def split_comments(text):
    """The code with comments and literals blanked, and the comments."""
    code = []
    comments = []
    i, n = 0, len(text)

    def blank(s):
        return ''.join('\n' if c == '\n' else ' ' for c in s)

    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            comments.append((i, end, text[i + 2:end - 2]))
            code.append(blank(text[i:end]))
            i = end
        elif text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            # Consecutive // lines make one comment.
            prev = comments[-1] if comments else None
            if prev and text.startswith('//', prev[0]) and text[prev[1]:i].strip() == '' \
                    and text.count('\n', prev[1], i) == 1:
                comments[-1] = (prev[0], end, prev[2] + '\n' + text[i + 2:end])
            else:
                comments.append((i, end, text[i + 2:end]))
            code.append(blank(text[i:end]))
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            end = min(j + 1, n)
            code.append(c + blank(text[i + 1:end - 1]) + (c if end - 1 > i else ''))
            i = end
        else:
            code.append(c)
            i += 1
    return ''.join(code), comments


def directive_spans(code):
    """(start, end) of each preprocessor directive, continuations included."""
    spans = []
    for m in re.finditer(r'^[ \t]*#', code, re.M):
        end = m.start()
        while True:
            nl = code.find('\n', end)
            if nl < 0:
                end = len(code)
                break
            if code[end:nl].rstrip(' \t').endswith('\\'):
                end = nl + 1
                continue
            end = nl
            break
        spans.append((m.start(), end))
    return spans


def brace_depths(body):
    """Brace depth at each offset (as a lookup) and, for each offset, where
    the outermost block around it opened (or -1 at file level)."""
    marks = [0]
    depths = [0]
    opens = [-1]
    depth = 0
    outer = -1
    for i, c in enumerate(body):
        if c == '{':
            depth += 1
            if depth == 1:
                outer = i
        elif c == '}':
            depth = max(depth - 1, 0)
            if depth == 0:
                outer = -1
        else:
            continue
        marks.append(i + 1)
        depths.append(depth)
        opens.append(outer)

    def depth_at(offset):
        return depths[bisect.bisect_right(marks, offset) - 1]

    def function_start(offset):
        return opens[bisect.bisect_right(marks, offset) - 1]

    return depth_at, function_start


def matching_paren(code, open_at):
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == '(':
            depth += 1
        elif code[i] == ')':
            depth -= 1
            if depth == 0:
                return i
    return -1


def has_body(code, close_at):
    """Whether the parameter list closing at close_at is followed by a
    function body (attributes allowed in between)."""
    i = close_at + 1
    while True:
        while i < len(code) and code[i].isspace():
            i += 1
        m = re.match(r'__attribute__\s*\(', code[i:])
        if not m:
            return code.startswith('{', i)
        end = matching_paren(code, i + m.end() - 1)
        if end < 0:
            return False
        i = end + 1


def definitions(src):
    """The function names that src defines, and the macros."""
    found = set()
    for start, end in src.directives:
        line = src.code[start:end]
        m = re.match(r'\s*#\s*define\s+([A-Za-z_]\w*)(\(|\s+([A-Za-z_]\w*)\s*$)?', line)
        if m and m.group(2):
            found.add(m.group(1))
        # A macro that writes functions (rcu/flavour-api.h's short names):
        # the inlines its body defines.
        found.update(re.findall(r'\bstatic\s+inline\s+[\w\s*]*?\b([A-Za-z_]\w*)\s*\(', line))
    body = src.body
    forms = [
        # type name(   (the word before the name is part of the type)
        re.compile(r'\b([A-Za-z_]\w*)[\s*]+([A-Za-z_]\w*)\s*(\()'),
        # type (name)(
        re.compile(r'\b([A-Za-z_]\w*)[\s*]*\(\s*([A-Za-z_]\w*)\s*\)\s*(\()'),
        # type MACRO(name)(
        re.compile(r'\b([A-Za-z_]\w*)[\s*]+[A-Z][A-Z0-9_]*\(\s*([A-Za-z_]\w*)\s*\)\s*(\()'),
    ]
    for form in forms:
        pos = 0
        while True:
            m = form.search(body, pos)
            if not m:
                break
            pos = m.start(2)
            if m.group(1) in NOT_A_TYPE or src.depth_at(m.start(2)) != 0:
                continue
            close = matching_paren(body, m.start(3))
            if close >= 0 and has_body(body, close):
                found.add(m.group(2))
    return found


def check_references(src, defined_in, problems):
    for start, _end, text in src.comments:
        if not explains(text):
            continue
        for m in NAMED_FUNCTION.finditer(text):
            name = m.group(1)
            line = src.line(start + 2 + m.start())
            if name in EXTERNAL:
                continue
            files = defined_in.get(name)
            if not files:
                problems.append((src.label, line, f'{name}(){DANGLING}'))
                continue
            hint = FILE_HINT.match(text, m.end())
            where = hint and (hint.group(1) or hint.group(2))
            if where and not any(f == where or f.endswith('/' + where) for f in files):
                problems.append((src.label, line,
                                 f'{name}() is not defined in {where} '
                                 f'(defined in {", ".join(sorted(files))})'))


def statement_bounds(body):
    """The offsets of ; { } that end statements: outside parentheses, so
    that a for header is one statement with its body."""
    bounds = []
    depth = 0
    for i, c in enumerate(body):
        if c == '(':
            depth += 1
        elif c == ')':
            depth = max(depth - 1, 0)
        elif c in ';{}' and depth == 0:
            bounds.append(i)
    return bounds


def statement_span(src, offset):
    """The statement around offset: from after the previous ; { } to the
    next one. The span so takes in the comments right above the statement.
    `do { ... } while (...);` is one statement, so is `for (...; ...; ...)`."""
    bounds, body = src.bounds, src.body
    k = bisect.bisect_left(bounds, offset)
    start = bounds[k - 1] + 1 if k > 0 else 0
    end = bounds[k] if k < len(bounds) else len(body)
    if start > 0 and body[start - 1] == '}' and body[start:offset].lstrip().startswith('while'):
        depth, i = 0, start - 1
        while i >= 0:
            depth += {'}': 1, '{': -1}.get(body[i], 0)
            if depth == 0:
                break
            i -= 1
        if body[:i].rstrip().endswith('do'):
            k = bisect.bisect_left(bounds, i)
            start = bounds[k - 1] + 1 if k > 0 else 0
    # A directive (say #if) ends the statement before it.
    for _d_start, d_end in src.directives:
        if start <= d_end <= offset:
            start = d_end
    return start, end


def in_directive(src, offset):
    return any(start <= offset < end for start, end in src.directives)


def enclosing_call(body, offset):
    """(offset of the call's name, its first argument) of the innermost call
    around offset."""
    depth = 0
    for i in range(offset - 1, -1, -1):
        c = body[i]
        if c == ')':
            depth += 1
        elif c == '(':
            if depth == 0:
                m = re.search(r'([A-Za-z_]\w*)\s*$', body[:i])
                close = matching_paren(body, i)
                args = body[i + 1:close if close >= 0 else len(body)]
                first, level = '', 0
                for ch in args:
                    level += {'(': 1, ')': -1}.get(ch, 0)
                    if ch == ',' and level == 0:
                        break
                    first += ch
                return (m.start(1) if m else i), ' '.join(first.split())
            depth -= 1
        elif c in ';{}':
            break
    return offset, ''


class Point:
    """An ordering point: an atomic call with a strong order."""

    def __init__(self, src, offset, order):
        self.call, self.target = enclosing_call(src.body, offset)
        self.name = re.match(r'\w*', src.body[self.call:]).group(0)
        self.order = order
        self.line = src.line(offset)
        self.span = statement_span(src, self.call)
        self.function = src.function_start(offset)
        self.own = [c for c in src.comments
                    if self.span[0] <= c[0] and c[1] <= self.span[1]]


def check_orders(src, problems):
    points = {}
    for m in STRONG_ORDER.finditer(src.code):
        # Macro bodies define the primitives (rcu/atomic.h, rcu/pointer.h);
        # their uses are the ordering points.
        if in_directive(src, m.start()):
            continue
        point = Point(src, m.start(), m.group(0))
        points.setdefault(point.call, point)
    owner = {}
    for point in points.values():
        for comment in point.own:
            owner.setdefault(comment, []).append(point)
    for point in points.values():
        if any(explains(c[2]) for c in point.own):
            continue
        if point.function >= 0 and any(BACK_REFERENCE.search(c[2]) for c in point.own) and \
                any(explains(c[2]) and point.function < c[0] < point.span[0]
                    for c in src.comments):
            continue
        above = [c for c in src.comments
                 if explains(c[2]) and point.function >= 0 and point.function < c[0]
                 and c[1] <= point.span[0]]
        if above and src.line(above[-1][1]) >= point.line - WINDOW:
            nearest = above[-1]
            others = [p for p in owner.get(nearest, []) if p is not point]
            between = bisect.bisect_left(src.bounds, point.span[0]) - \
                bisect.bisect_left(src.bounds, nearest[1])
            if others and SEVERAL.search(nearest[2]):
                continue
            if any((p.name, p.target, p.order) == (point.name, point.target, point.order)
                   for p in others):
                continue
            if not others and between <= 1:
                continue
        problems.append((src.label, point.line,
                         f'{point.order} without a comment that says what it pairs with'))


def collect(root, paths):
    """(path, label) of each file to scan."""
    files = []
    if root is not None:
        root = pathlib.Path(root)
        for pattern in ROOT_GLOBS:
            for path in sorted(root.glob(pattern)):
                files.append((path, path.relative_to(root).as_posix()))
        if not files:
            sys.exit(f'check-pairs.py: no sources under {root}')
    for arg in paths:
        path = pathlib.Path(arg)
        if path.is_dir():
            for sub in sorted(list(path.rglob('*.c')) + list(path.rglob('*.h'))):
                files.append((sub, sub.relative_to(path).as_posix()))
        else:
            files.append((path, arg))
    return files


def run(files, known=()):
    """The violations as (file, line, message), sorted, and the number of
    files. known: (file, name) pairs of dangling references to let pass;
    one that no longer dangles is a violation itself."""
    sources = [Source(path, label) for path, label in files]
    defined_in = {}
    for src in sources:
        for name in definitions(src):
            defined_in.setdefault(name, set()).add(src.label)
    problems = []
    for src in sources:
        check_references(src, defined_in, problems)
        check_orders(src, problems)
    kept = []
    used = set()
    for label, line, message in problems:
        name = message.split('()', 1)[0]
        if (label, name) in known and message.endswith(DANGLING):
            used.add((label, name))
        else:
            kept.append((label, line, message))
    for label, name in sorted(set(known) - used):
        kept.append((label, 0, f'{name}() no longer dangles here: drop --known {label}:{name}'))
    return sorted(set(kept)), len(sources)


def main():
    parser = argparse.ArgumentParser(
        description='Checks the ordering comments of the lfht and rcu sources.',
        epilog='See the top of this script for the rules.')
    parser.add_argument('--root', help="scan the project's library sources under ROOT")
    parser.add_argument('--expect', metavar='FILE',
                        help='self-test: succeed only when the check reports exactly '
                             'the violations listed in FILE')
    parser.add_argument('--known', action='append', default=[], metavar='FILE:NAME',
                        help='let the dangling NAME() in FILE (as reported) pass, '
                             'until it is fixed')
    parser.add_argument('paths', nargs='*', help='files, or directories to scan for *.c, *.h')
    args = parser.parse_args()
    if args.root is None and not args.paths:
        parser.error('give --root or paths')
    known = set()
    for entry in args.known:
        label, sep, name = entry.rpartition(':')
        if not sep or not label or not name:
            parser.error(f'--known {entry}: want FILE:NAME')
        known.add((label, name))
    problems, nr_files = run(collect(args.root, args.paths), known)
    return check_report.report(
        'check-pairs.py', problems, args.expect,
        f'{len(problems)} violations in {nr_files} files',
        f'{nr_files} files: every function that an ordering comment names exists, and '
        f'every acquire, release, seq_cst access and fence says what it pairs with')


if __name__ == '__main__':
    sys.exit(main())
