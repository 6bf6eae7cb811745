#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables from the tiering benchmark's runs (harness/bench-tier.sh).

Usage: bench-report.py DIR TOPOLOGY_DIR SCENARIO...

Reads DIR/<scenario>-<config>-<run>.out and writes DIR/report.txt and
DIR/report.csv (also printed). Per scenario and configuration, medians over
the runs with min-max:
  T90        first sample with >= 90% of the hot set on the best node (s);
             with a shift, counted from the shift ("T90 after the shift")
  final      hot-set residency on the best node at the end
  cold%      pages outside the hot set that left the start node
  migr/hot   pgmigrate_success during the run / hot-set pages
  access     estimated access time of the hot set, sum(share_i * L_i),
             latencies from the topology's HMAT (initiator 0), ns
  /oracle    access time relative to the oracle's
  regret     mean over samples of access(t) / oracle's - 1
  kthr%      kdamond CPU time as a share of one vCPU
  sys%       the workload's system time (NUMA balancing's scans and
             hint faults land there) as a share of one vCPU
  ops/oracle throughput relative to the oracle's
"""
import os
import re
import statistics
import sys

# scenarios that reuse another's machine (harness/bench-tier.sh)
TOPOLOGY = {'s3': 's1', 's4': 's1', 's5': 's1'}
COLUMNS = ('T90', 'final', 'cold%', 'migr/hot', 'access', '/oracle', 'regret', 'kthr%',
           'sys%', 'ops/oracle')


def latencies(topo_file):
    lat = {}
    for line in open(topo_file):
        w = line.split('#', 1)[0].split()
        if len(w) >= 3 and w[0] == 'hmat' and w[1] == '0':
            kv = dict(x.split('=', 1) for x in w[3:])
            lat[int(w[2])] = int(kv['read-latency'])
    return lat


def parse(path):
    run = {'samples': [], 'vm_before': {}, 'vm_after': {}, 'kthread': 0.0}
    for line in open(path, errors='replace'):
        w = line.split()
        if line.startswith('# tierbench'):
            run.update({k: int(v) for k, v in re.findall(r'(\w+)=(-?\d+)', line)})
        elif line.startswith('sample ') and 'error=' not in line:
            kv = dict(x.split('=', 1) for x in w[1:])
            hot_nodes = {}
            if kv.get('hot_nodes', '-') != '-':
                hot_nodes = {int(a): int(b) for a, b in
                             (x.split(':') for x in kv['hot_nodes'].split(','))}
            run['samples'].append({'t': float(kv['t']), 'ops': int(kv['ops']),
                                   'hot': int(kv['hot']), 'best': int(kv['hot_best']),
                                   'cold_moved': int(kv['cold_moved']),
                                   'hot_nodes': hot_nodes})
        elif line.startswith('vmstat-') and len(w) == 3:
            run['vm_' + w[0][7:]][w[1]] = int(w[2])
        elif line.startswith('kthread-cpu') and len(w) == 3:
            run['kthread'] += float(w[2])
        elif line.startswith('end '):
            run.update({k: float(v) for k, v in re.findall(r'(\w+)=([\d.]+)', line)})
    return run if run['samples'] and 't' in run else None


def access_time(sample, lat):
    total = sum(sample['hot_nodes'].values())
    if not total:
        return None
    return sum(n * lat.get(node, 0) for node, n in sample['hot_nodes'].items()) / total


def metrics(run, lat, oracle_access):
    s = run['samples']
    res = [x['best'] / x['hot'] for x in s if x['hot']]
    shift = run.get('shift_s', -1)
    t0 = shift if shift >= 0 else 0
    t90 = next((x['t'] - t0 for x in s
                if x['t'] > t0 and x['hot'] and x['best'] / x['hot'] >= 0.9), None)
    if shift < 0 and s and s[0]['hot'] and s[0]['best'] / s[0]['hot'] >= 0.9:
        t90 = 0.0
    dur = run['t'] or 1
    migrated = run['vm_after'].get('pgmigrate_success', 0) - \
        run['vm_before'].get('pgmigrate_success', 0)
    acc = [access_time(x, lat) for x in s]
    acc = [a for a in acc if a is not None]
    ops = [x['ops'] for x in s[1:]]
    m = {'T90': t90, 'final': res[-1] if res else None,
         'cold%': 100.0 * s[-1]['cold_moved'] / max(1, run.get('cold', 1)),
         'migr/hot': migrated / max(1, run['hot']),
         'access': acc[-1] if acc else None,
         'kthr%': 100.0 * run['kthread'] / dur,
         'sys%': 100.0 * run.get('stime', 0) / dur,
         'ops': statistics.mean(ops) if ops else 0}
    if oracle_access and acc:
        m['/oracle'] = acc[-1] / oracle_access
        m['regret'] = statistics.mean(a / oracle_access - 1 for a in acc)
    return m


def fmt(vals, digits):
    vals = [v for v in vals if v is not None]
    if not vals:
        return '-'
    med = statistics.median(vals)
    if len(vals) == 1 or min(vals) == max(vals):
        return f'{med:.{digits}f}'
    return f'{med:.{digits}f} ({min(vals):.{digits}f}-{max(vals):.{digits}f})'


def main(argv):
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir, topo_dir, scenarios = argv[1], argv[2], argv[3:]
    text, csv = [], ['scenario,config,run,' + ','.join(COLUMNS)]
    header = os.path.join(out_dir, 'header')
    if os.path.exists(header):
        text += open(header).read().splitlines()
    for scen in scenarios:
        lat = latencies(os.path.join(topo_dir, TOPOLOGY.get(scen, scen) + '.topo'))
        runs = {}
        for name in sorted(os.listdir(out_dir)):
            mt = re.fullmatch(rf'{re.escape(scen)}-([\w-]+)-(\d+)\.out', name)
            if mt:
                r = parse(os.path.join(out_dir, name))
                runs.setdefault(mt.group(1), []).append((int(mt.group(2)), r))
        oracle = [r for _, r in runs.get('oracle', []) if r]
        oracle_acc = statistics.median(
            [a for a in (access_time(r['samples'][-1], lat) for r in oracle) if a] or [0]) or None
        oracle_ops = statistics.median(
            [statistics.mean(x['ops'] for x in r['samples'][1:]) for r in oracle] or [0]) or None
        text.append(f'\n{scen}: latencies {lat} ns; medians (min-max) over runs')
        text.append(f'{"config":<8} ' + ' '.join(f'{c:>16}' for c in COLUMNS))
        for config in sorted(runs):
            ms = []
            for n, r in sorted(runs[config]):
                if r is None:
                    text.append(f'{config:<8} run {n}: no result (see its .out)')
                    continue
                m = metrics(r, lat, oracle_acc)
                m['ops/oracle'] = m['ops'] / oracle_ops if oracle_ops else None
                ms.append(m)
                csv.append(f'{scen},{config},{n},' + ','.join(
                    '' if m.get(c) is None else f'{m[c]:.4g}' for c in COLUMNS))
            if not ms:
                continue
            digits = {'T90': 1, 'final': 3, 'cold%': 2, 'migr/hot': 2, 'access': 0,
                      '/oracle': 3, 'regret': 3, 'kthr%': 2, 'sys%': 2, 'ops/oracle': 3}
            text.append(f'{config:<8} ' + ' '.join(
                f'{fmt([m.get(c) for m in ms], digits[c]):>16}' for c in COLUMNS))
    open(os.path.join(out_dir, 'report.txt'), 'w').write('\n'.join(text) + '\n')
    open(os.path.join(out_dir, 'report.csv'), 'w').write('\n'.join(csv) + '\n')
    print('\n'.join(text))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
