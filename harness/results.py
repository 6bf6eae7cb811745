#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn guest output into one "PASS|FAIL|SKIP|MEASURE name [reason]" line per test.

Usage: results.py kunit CONSOLE_LOG SUITE...   KTAP from a KUnit boot; every
                                                named suite must be present
       results.py tap TOPOLOGY OUTPUT BINARY... kselftest TAP framed by
                                                guest/run-selftests
       results.py coverage RESULTS              tests skipped everywhere,
                                                topologies without results

A skip keeps its reason. An expected failure (XFAIL) is a SKIP, not a PASS:
it shows nothing works. A test whose name starts with "measure_" reports a
number; it is a MEASURE line (a failure still FAILs), never counted as a
pass. A binary whose TAP plan and results disagree FAILs.
"""
import re
import sys

TAP = re.compile(r'^(?P<indent> *)(?P<not>not )?ok \d+ (?P<name>[^#]*?)\s*'
                 r'(?:#\s*(?P<dir>\S+)\s*(?P<why>.*))?$')
PLAN = re.compile(r'^1\.\.(?P<n>\d+)(?:\s*#\s*(?P<dir>\S+)\s*(?P<why>.*))?$')
TIME = re.compile(r'^\[\s*\d+\.\d+\] ')


def verdict(m):
    """PASS, FAIL, SKIP or MEASURE, and the reason to keep."""
    directive = (m.group('dir') or '').upper()
    why = m.group('why') or ''
    name = m.group('name').split('.')[-1].split('/')[-1]
    if m.group('not'):
        return 'FAIL', why
    if directive == 'SKIP':
        return 'SKIP', why
    if directive == 'XFAIL':
        return 'SKIP', 'expected failure: ' + why
    if directive == 'XPASS':
        return 'FAIL', 'passed although marked as expected to fail'
    if name.startswith('measure_'):
        return 'MEASURE', why
    return 'PASS', why


def line(v, name, why):
    return f'{v} {name}' + (f' ({why})' if why else '')


def kunit(log, suites):
    """Suite lines are at indent 0, test cases at indent 4 (deeper: params)."""
    seen = {}
    out = []
    suite_tests = []
    with open(log, errors='replace') as f:
        for raw in f:
            text = TIME.sub('', raw.rstrip('\r\n'))
            m = TAP.match(text)
            if not m:
                continue
            depth = len(m.group('indent')) // 4
            if depth == 1:
                suite_tests.append((*verdict(m), m.group('name')))
            elif depth == 0:
                suite = m.group('name')
                v, why = verdict(m)
                seen[suite] = v
                for tv, twhy, name in suite_tests:
                    out.append(line(tv, f'kunit/{suite}/{name}', twhy))
                if not suite_tests:
                    out.append(line(v, f'kunit/{suite}', why))
                suite_tests = []
    for s in suites:
        if s not in seen:
            out.append(f'FAIL kunit/{s} (suite did not run or did not finish)')
    return out


class Binary:
    """What one framed selftest binary printed."""

    def __init__(self, name):
        self.name = name
        self.plan = None        # tests announced by "1..N"
        self.plan_skip = None   # reason of a "1..0 # SKIP" plan
        self.results = []       # result lines

    def close(self, topo, status):
        out = list(self.results)
        prefix = f'{topo}/{self.name}'
        failed = any(r.startswith('FAIL ') for r in out)
        if self.plan == 0 and not out:
            why = self.plan_skip or 'no tests to run'
            if status == '4':
                return [f'SKIP {prefix} ({why})']
            return out + [f'FAIL {prefix} (plan 1..0, exit status {status})']
        if self.plan is None:
            out.append(f'FAIL {prefix} (no TAP plan printed, exit status {status})')
        elif self.plan != len(out):
            out.append(f'FAIL {prefix} (plan announced {self.plan} tests, '
                       f'{len(out)} results)')
        if status not in ('0', '4') and not failed:
            out.append(f'FAIL {prefix} (exit status {status})')
        if not out and status != '4':
            out.append(f'FAIL {prefix} (no test result printed)')
        return out


def tap(topo, path, binaries):
    out = []
    current = None
    ended = set()
    try:
        lines = open(path, errors='replace').read().splitlines()
    except OSError:
        lines = []
    for text in lines:
        text = text.rstrip('\r')
        if text.startswith('MEMATTR-TEST-BEGIN: '):
            current = Binary(text.split()[1])
            continue
        if current is None:
            continue
        if text.startswith('MEMATTR-TEST-END: '):
            ended.add(current.name)
            out += current.close(topo, text.split()[2])
            current = None
            continue
        p = PLAN.match(text)
        if p and current.plan is None:
            current.plan = int(p.group('n'))
            if (p.group('dir') or '').upper() == 'SKIP':
                current.plan_skip = p.group('why')
            continue
        m = TAP.match(text)
        if m and not m.group('indent'):
            v, why = verdict(m)
            current.results.append(line(v, f'{topo}/{current.name}/{m.group("name")}', why))
    for b in binaries:
        if b not in ended:
            out.append(f'FAIL {topo}/{b} (did not finish: crash, hang or missing)')
    return out


def coverage(path):
    """A test that is skipped on every topology tests nothing; a topology
    that gave no result at all was not tested."""
    ran, skipped, per_topo = set(), {}, {}
    with open(path, errors='replace') as f:
        for text in f:
            parts = text.split(' ', 2)
            if len(parts) < 2 or parts[0] not in ('PASS', 'FAIL', 'SKIP', 'MEASURE'):
                continue
            name = parts[1].rstrip()
            fields = name.split('/')
            # A test that runs only under the debug kernel (what it needs is
            # built only there) is tested there.
            if fields[0] == 'debug' and len(fields) >= 3 and parts[0] != 'SKIP':
                ran.add('/'.join(fields[2:]))
                continue
            # mm-6.12 skips only what 6.12 itself fails or skips: the
            # base kernel's verdict, not a property of our topologies.
            if fields[0] in ('kunit', 'harness', 'tools', 'checkpatch', 'compare',
                             'coverage', 'debug', 'build', 'build-base',
                             'mm-6.12') or len(fields) < 2:
                continue
            topo, test = fields[0], '/'.join(fields[1:])
            if test in ('boot', 'console'):
                continue
            per_topo[topo] = per_topo.get(topo, 0) + 1
            if parts[0] == 'SKIP':
                skipped.setdefault(test, []).append(topo)
            else:
                ran.add(test)
    out = []
    for test in sorted(set(skipped) - ran):
        out.append(f'FAIL coverage/{test} (skipped on every topology: '
                   f'{", ".join(sorted(skipped[test]))})')
    return out, per_topo


def main(argv):
    if len(argv) >= 3 and argv[1] == 'kunit':
        lines = kunit(argv[2], argv[3:])
    elif len(argv) >= 4 and argv[1] == 'tap':
        lines = tap(argv[2], argv[3], argv[4:])
    elif len(argv) >= 3 and argv[1] == 'coverage':
        lines, per_topo = coverage(argv[2])
        for topo in argv[3:]:
            if not per_topo.get(topo):
                lines.append(f'FAIL coverage/{topo} (no test result on this topology)')
    else:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    print('\n'.join(lines))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
