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
  kthr%      CPU time of kmemattrd or the kdamonds as a share of one vCPU,
             over the whole run
  steady%    the same from 2 s after T90 to the end (the steady state; '-'
             when that leaves less than 5 s or T90 was never reached)
  sys%       the workload's system time (NUMA balancing's scans and
             hint faults land there) as a share of one vCPU
  ops/oracle throughput relative to the oracle's
  pingpong   pages that went back to the node they had left within 10 s
Then "memattr/best": memattr's median over the best baseline's (nb2 and the
DAMON settings; the best per column) for T90, final, access and kthr%+sys%.
With gnuplot, DIR/<scenario>.png: hot-set residency on the best node and
estimated access time over time, one line per configuration (its first run).
"""
import os
import re
import shutil
import statistics
import subprocess
import sys

# scenarios that reuse another's machine (harness/bench-tier.sh)
TOPOLOGY = {'s3': 's1', 's4': 's1', 's5': 's1', 's1c': 's1', 's1z': 's1'}
COLUMNS = ('T90', 'final', 'cold%', 'migr/hot', 'access', '/oracle', 'regret', 'kthr%',
           'steady%', 'sys%', 'ops/oracle', 'pingpong')
DIGITS = {'T90': 1, 'final': 3, 'cold%': 2, 'migr/hot': 2, 'access': 0, '/oracle': 3,
          'regret': 3, 'kthr%': 2, 'steady%': 2, 'sys%': 2, 'ops/oracle': 3, 'pingpong': 0}
BASELINES = ('nb2', 'damon1', 'damon5')
# lower is better, except residency
BETTER = {'T90': min, 'final': max, 'access': min, 'cpu%': min}


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
                                   'pingpong': int(kv.get('pingpong', 0)),
                                   'kcpu': float(kv['kcpu']) if 'kcpu' in kv else None,
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
    # the threads' time during the samples; older runs: all of it, setup too
    kthread = run['kthread']
    if s[0]['kcpu'] is not None:
        kthread = s[-1]['kcpu'] - s[0]['kcpu']
    m = {'T90': t90, 'final': res[-1] if res else None,
         'cold%': 100.0 * s[-1]['cold_moved'] / max(1, run.get('cold', 1)),
         'migr/hot': migrated / max(1, run['hot']),
         'access': acc[-1] if acc else None,
         'kthr%': 100.0 * kthread / dur,
         'sys%': 100.0 * run.get('stime', 0) / dur,
         'ops': statistics.mean(ops) if ops else 0,
         'pingpong': s[-1]['pingpong'],
         'cpu%': 100.0 * (kthread + run.get('stime', 0)) / dur}
    since = None if t90 is None else t0 + t90 + 2
    calm = [x for x in s if since is not None and x['t'] >= since and x['kcpu'] is not None]
    if len(calm) >= 2 and calm[-1]['t'] - calm[0]['t'] >= 5:
        m['steady%'] = 100.0 * (calm[-1]['kcpu'] - calm[0]['kcpu']) / \
            (calm[-1]['t'] - calm[0]['t'])
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


def median_of(ms, col):
    vals = [m.get(col) for m in ms if m.get(col) is not None]
    return statistics.median(vals) if vals else None


def ratio_lines(medians):
    """memattr's medians over the best baseline's, per column."""
    lines = []
    for ours in ('memattr', 'memattr-nb2'):
        if ours not in medians:
            continue
        parts = []
        for col, better in BETTER.items():
            base = [(medians[b][col], b) for b in BASELINES
                    if b in medians and medians[b][col] is not None]
            mine = medians[ours][col]
            if not base or mine is None:
                parts.append(f'{col} -')
                continue
            val, who = better(base)
            parts.append(f'{col} {mine / val:.2f}x {who}' if val else f'{col} - ({who} 0)')
        lines.append(f'{ours}/best baseline: ' + ', '.join(parts))
    return lines


def plot(out_dir, scen, runs, lat):
    """DIR/<scen>.png from each configuration's first run, if gnuplot exists."""
    if not shutil.which('gnuplot'):
        return
    series = []
    for config in sorted(runs):
        first = next((r for _, r in sorted(runs[config], key=lambda x: x[0]) if r), None)
        if not first:
            continue
        dat = os.path.join(out_dir, f'{scen}-{config}.dat')
        with open(dat, 'w') as f:
            for x in first['samples']:
                acc = access_time(x, lat)
                res = x['best'] / x['hot'] if x['hot'] else 0
                f.write(f"{x['t']:.2f} {res:.4f} {acc if acc is not None else 'NaN'}\n")
        series.append((config, dat))
    if not series:
        return
    png = os.path.join(out_dir, f'{scen}.png')
    res = ', '.join(f"'{d}' using 1:2 with lines lw 2 title '{c}'" for c, d in series)
    acc = ', '.join(f"'{d}' using 1:3 with lines lw 2 title '{c}'" for c, d in series)
    script = f"""set terminal png size 1000,800
set output '{png}'
set multiplot layout 2,1 title '{scen}: first run of each configuration'
set xlabel 'time (s)'
set ylabel 'hot set on the best node'
set yrange [0:1.05]
set key bottom right
plot {res}
set ylabel 'estimated access time (ns)'
set autoscale y
set key top right
plot {acc}
unset multiplot
"""
    subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)


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
        medians = {}
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
            medians[config] = {c: median_of(ms, c) for c in BETTER}
            text.append(f'{config:<8} ' + ' '.join(
                f'{fmt([m.get(c) for m in ms], DIGITS[c]):>16}' for c in COLUMNS))
        text += ratio_lines(medians)
        plot(out_dir, scen, runs, lat)
    open(os.path.join(out_dir, 'report.txt'), 'w').write('\n'.join(text) + '\n')
    open(os.path.join(out_dir, 'report.csv'), 'w').write('\n'.join(csv) + '\n')
    print('\n'.join(text))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
