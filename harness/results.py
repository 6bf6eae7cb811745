#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn guest output into one "PASS|FAIL|SKIP name [reason]" line per test.

Usage: results.py kunit CONSOLE_LOG SUITE...   KTAP from a KUnit boot; every
                                                named suite must be present
       results.py tap TOPOLOGY OUTPUT BINARY... kselftest TAP framed by
                                                guest/run-selftests
"""
import re
import sys

TAP = re.compile(r'^(?P<indent> *)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*(?:#\s*(?P<dir>\S+)\s*(?P<why>.*))?$')
TIME = re.compile(r'^\[\s*\d+\.\d+\] ')


def verdict(m):
    if m.group('not'):
        return 'FAIL'
    if (m.group('dir') or '').upper() == 'SKIP':
        return 'SKIP'
    return 'PASS'


def kunit(log, suites):
    """Suite lines are at indent 0, test cases at indent 4 (deeper: params)."""
    seen = {}
    out = []
    suite_tests = []
    with open(log, errors='replace') as f:
        for raw in f:
            line = TIME.sub('', raw.rstrip('\r\n'))
            m = TAP.match(line)
            if not m:
                continue
            depth = len(m.group('indent')) // 4
            if depth == 1:
                suite_tests.append((verdict(m), m.group('name')))
            elif depth == 0:
                suite = m.group('name')
                seen[suite] = verdict(m)
                for v, name in suite_tests:
                    out.append(f'{v} kunit/{suite}/{name}')
                if not suite_tests:
                    out.append(f'{verdict(m)} kunit/{suite}')
                suite_tests = []
    for s in suites:
        if s not in seen:
            out.append(f'FAIL kunit/{s} (suite did not run or did not finish)')
    return out


def tap(topo, path, binaries):
    out = []
    current, cases = None, 0
    ended = set()
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        line = line.rstrip('\r')
        if line.startswith('MEMATTR-TEST-BEGIN: '):
            current, cases = line.split()[1], 0
            continue
        if line.startswith('MEMATTR-TEST-END: ') and current:
            status = line.split()[2]
            ended.add(current)
            if status not in ('0', '4') and not any(o.startswith(f'FAIL {topo}/{current}/') for o in out):
                out.append(f'FAIL {topo}/{current} (exit status {status})')
            if cases == 0 and status != '4':
                out.append(f'FAIL {topo}/{current} (no test result printed)')
            current = None
            continue
        m = TAP.match(line)
        if current and m and not m.group('indent'):
            cases += 1
            why = m.group('why') or ''
            out.append(f'{verdict(m)} {topo}/{current}/{m.group("name")}' + (f' ({why})' if why else ''))
    for b in binaries:
        if b not in ended:
            out.append(f'FAIL {topo}/{b} (did not finish: crash, hang or missing)')
    return out


def main(argv):
    if len(argv) >= 3 and argv[1] == 'kunit':
        lines = kunit(argv[2], argv[3:])
    elif len(argv) >= 4 and argv[1] == 'tap':
        lines = tap(argv[2], argv[3], argv[4:])
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
