#!/usr/bin/env python3
"""apply.py MUTANT TREE [--check]: plant MUTANT's replacement in TREE (or,
with --check, only say whether it applies).  Prints the header fields as
shell assignments (file=, suites=, targets=, why=).  Exit 3 when the
original text is not in the file exactly once: the mutant no longer
applies."""
import shlex
import sys


def parse(path):
    head, orig, repl, state = {}, [], [], 'head'
    for line in open(path).read().split('\n'):
        if state == 'head':
            if line == '<<<':
                state = 'orig'
            elif ':' in line and not line.startswith('#'):
                k, v = line.split(':', 1)
                head[k.strip()] = v.strip()
        elif state == 'orig':
            if line == '===':
                state = 'repl'
            else:
                orig.append(line)
        elif state == 'repl':
            if line == '>>>':
                state = 'end'
            else:
                repl.append(line)
    if state != 'end' or not orig or 'file' not in head:
        sys.exit('%s: not a mutant (file:, <<< original === replacement >>>)' % path)
    return head, '\n'.join(orig) + '\n', '\n'.join(repl) + '\n'


def main():
    mutant, tree = sys.argv[1], sys.argv[2]
    check = '--check' in sys.argv[3:]
    head, orig, repl = parse(mutant)
    target = tree + '/' + head['file']
    try:
        text = open(target).read()
    except OSError as e:
        print('echo %s' % shlex.quote('%s: %s' % (mutant, e)), file=sys.stderr)
        sys.exit(3)
    n = text.count(orig)
    if n != 1:
        sys.stderr.write('%s: its original text occurs %d times in %s (exactly once '
                         'expected): the mutant no longer applies\n' % (mutant, n, head['file']))
        sys.exit(3)
    if orig == repl:
        sys.exit('%s: the replacement is the original' % mutant)
    if not check:
        open(target, 'w').write(text.replace(orig, repl))
    for k in ('file', 'suites', 'targets', 'why'):
        print('%s=%s' % (k, shlex.quote(head.get(k, ''))))


main()
