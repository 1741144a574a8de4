#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""callgraph.py - the file-level call graph of a directory of C files, and
its circles (strongly connected components), measured from the code.

A file A calls file B when a function body or an initializer at file scope
in A names a function that B defines (a call, or its address taken) and A does not define
a function of that name itself (a static one of its own shadows it).  Only
the .c files of the directory count (not its subdirectories, not headers:
macros and static inline functions in headers are not seen).  The scan is
lexical: comments, string and character literals and preprocessor lines are
removed, function definitions are found at brace depth 0 (a ')' before the
'{', no '=' in between), and identifiers after '.' or '->' (members) or after
struct, union or enum (tags) are not names of functions.

  tests/arch/callgraph.py DIR...            circles, largest first, with
                                            the arrows inside each
  tests/arch/callgraph.py --edges DIR       also every arrow of the graph
  tests/arch/callgraph.py --max-circle N DIR  exit 1 if a circle has more
                                            than N files
  --max-file-lines N, --max-func-lines N    exit 1 if a .c or .h file of DIR
                                            is longer than N lines, or a
                                            function longer than N lines
                                            (its first line to its closing
                                            brace); each one is named

Exit status: 0, 1 when a limit is exceeded, 2 on a usage error.
"""
import argparse
import os
import re
import sys

IDENT = re.compile(r'[A-Za-z_][A-Za-z0-9_]*')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do',
            'else', 'case', 'default', 'goto', 'break', 'continue',
            '__attribute__', '_Static_assert', 'defined', '_Alignof',
            'alignof', '__typeof__', 'typeof'}


def strip(text):
    """comments, strings, character literals and preprocessor lines
    blanked (newlines kept, so line numbers stay)"""
    out = []
    i, n = 0, len(text)
    bol = True
    while i < n:
        c = text[i]
        if bol and c in ' \t':
            out.append(c)
            i += 1
            continue
        if bol and c == '#':
            # a preprocessor line, with its continuations
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append('\n')
                    i += 2
                    continue
                i += 1
            continue
        bol = False
        if c == '\n':
            bol = True
            out.append(c)
            i += 1
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * max(0, min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def definitions(code):
    """[(name, static, first_line, last_line, body_start, body_end)] of the
    function definitions at brace depth 0"""
    defs = []
    depth = 0
    stmt_start = 0
    i = 0
    n = len(code)
    while i < n:
        c = code[i]
        if c == '{':
            if depth == 0:
                head = code[stmt_start:i]
                d = head_function(head)
                if d:
                    name, static, off = d
                    end = match_brace(code, i)
                    first = code.count('\n', 0, stmt_start + off) + 1
                    last = code.count('\n', 0, end) + 1
                    defs.append((name, static, first, last, i, end))
                    i = end + 1
                    stmt_start = i
                    continue
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                stmt_start = i + 1
        elif c == ';' and depth == 0:
            stmt_start = i + 1
        i += 1
    return defs


def match_brace(code, i):
    depth = 0
    for j in range(i, len(code)):
        if code[j] == '{':
            depth += 1
        elif code[j] == '}':
            depth -= 1
            if depth == 0:
                return j
    return len(code) - 1


def head_function(head):
    """(name, static, offset of the head's first non-blank) when the text
    before a depth-0 '{' is a function's head"""
    h = head.rstrip()
    if not h.endswith(')') or '=' in h:
        return None
    depth = 0
    for j in range(len(h) - 1, -1, -1):
        if h[j] == ')':
            depth += 1
        elif h[j] == '(':
            depth -= 1
            if depth == 0:
                break
    else:
        return None
    m = re.search(r'([A-Za-z_][A-Za-z0-9_]*)\s*$', h[:j])
    if not m or m.group(1) in KEYWORDS:
        return None
    lead = len(head) - len(head.lstrip())
    static = re.search(r'\bstatic\b', h[:m.start()]) is not None
    return m.group(1), static, lead


def code_spans(code, defs):
    """where names are used: the function bodies, and the initializers at
    depth 0 ('=' to ';'); not declarations (a struct's members)"""
    spans = [(d[4], d[5] + 1) for d in defs]
    bodies = {d[4]: d[5] + 1 for d in defs}
    depth = 0
    init = None
    i = 0
    while i < len(code):
        if i in bodies:
            i = bodies[i]
            continue
        c = code[i]
        if c in '{(':
            depth += 1
        elif c in '})':
            depth -= 1
        elif c == '=' and depth == 0 and init is None:
            init = i
        elif c == ';' and depth == 0 and init is not None:
            spans.append((init, i))
            init = None
        i += 1
    return spans


def names_used(code, spans):
    """identifiers in the spans that are neither members nor tags"""
    used = set()
    for a, b in spans:
        for m in IDENT.finditer(code, a, b):
            k = m.start() - 1
            while k >= 0 and code[k] in ' \t\n':
                k -= 1
            if k >= 0 and (code[k] == '.' or
                           (code[k] == '>' and k > 0 and code[k - 1] == '-')):
                continue
            if re.search(r'\b(struct|union|enum)\s*$', code[max(0, k - 7):k + 1]):
                continue             # a tag, not a function
            used.add(m.group(0))
    return used


def scan(directory):
    files = sorted(f for f in os.listdir(directory) if f.endswith('.c'))
    info = {}
    for f in files:
        with open(os.path.join(directory, f), encoding='utf-8', errors='replace') as fh:
            code = strip(fh.read())
        defs = definitions(code)
        info[f] = {'defs': defs, 'used': names_used(code, code_spans(code, defs))}
    exported = {}
    for f in files:
        for d in info[f]['defs']:
            if not d[1]:
                exported.setdefault(d[0], f)
    graph = {f: {} for f in files}
    for f in files:
        own = {d[0] for d in info[f]['defs']}
        for name in info[f]['used']:
            g = exported.get(name)
            if g and g != f and name not in own:
                graph[f].setdefault(g, set()).add(name)
    return files, info, graph


def sccs(nodes, graph):
    """Tarjan's strongly connected components"""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in nodes:
        if v not in index:
            visit(v)
    return out


def line_count(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        return sum(1 for _ in fh)


def main():
    ap = argparse.ArgumentParser(
        description='file-level call graph of C files and its circles')
    ap.add_argument('dirs', nargs='+', metavar='DIR')
    ap.add_argument('--edges', action='store_true',
                    help='print every arrow of the graph')
    ap.add_argument('--max-circle', type=int, metavar='N',
                    help='exit 1 if a circle has more than N files')
    ap.add_argument('--max-file-lines', type=int, metavar='N')
    ap.add_argument('--max-func-lines', type=int, metavar='N')
    a = ap.parse_args()
    bad = False
    for d in a.dirs:
        if not os.path.isdir(d):
            print('callgraph: %s: not a directory' % d, file=sys.stderr)
            return 2
        files, info, graph = scan(d)
        narrows = sum(len(t) for t in graph.values())
        comps = [c for c in sccs(files, graph) if len(c) > 1]
        comps.sort(key=lambda c: (-len(c), c))
        largest = len(comps[0]) if comps else 1
        print('%s: %d files, %d arrows, %d circle%s, largest %d file%s' % (
            d, len(files), narrows, len(comps), '' if len(comps) == 1 else 's',
            largest, '' if largest == 1 else 's'))
        for c in comps:
            inside = [(f, g) for f in c for g in sorted(graph[f]) if g in c]
            print('  circle of %d files, %d arrows inside: %s' % (
                len(c), len(inside), ' '.join(c)))
            for f, g in inside:
                print('    %s -> %s: %s' % (f, g, ' '.join(sorted(graph[f][g]))))
        if a.edges:
            for f in files:
                for g in sorted(graph[f]):
                    print('  arrow %s -> %s: %s' % (f, g, ' '.join(sorted(graph[f][g]))))
        if a.max_circle is not None and largest > a.max_circle:
            print('%s: FAIL: a circle of %d files (at most %d allowed)' % (
                d, largest, a.max_circle))
            bad = True
        if a.max_file_lines is not None:
            for f in sorted(os.listdir(d)):
                if f.endswith(('.c', '.h')):
                    n = line_count(os.path.join(d, f))
                    if n > a.max_file_lines:
                        print('%s/%s: FAIL: %d lines (at most %d)' % (
                            d, f, n, a.max_file_lines))
                        bad = True
        if a.max_func_lines is not None:
            for f in files:
                for name, _, first, last, _, _ in info[f]['defs']:
                    n = last - first + 1
                    if n > a.max_func_lines:
                        print('%s/%s:%d: FAIL: %s() is %d lines (at most %d)' % (
                            d, f, first, name, n, a.max_func_lines))
                        bad = True
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
