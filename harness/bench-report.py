#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Tables from the tiering benchmark's runs (harness/bench-tier.sh).

Usage: bench-report.py DIR TOPOLOGY_DIR SCENARIO... [--results FILE]

Reads DIR/<scenario>-<config>-<rep>.out (one run each; nb2-base is nb2 on
unpatched 6.12) and DIR/tax-<config>-<rep>.out (the -icount runs), writes
DIR/report.txt, DIR/report.csv and DIR/results.txt (the short table that is
committed under harness/bench/results/ and that the cover letter quotes;
--results writes it elsewhere too). Every cell: median over the runs, with
min-max in brackets. A run that never reached 90% counts as "not reached"
(n.r.), a time longer than any other, in T90's median: never dropped.

Placement, per scenario and configuration:
  T90        first sample with >= 90% of the hot set on the best node (s);
             with a shift, counted from the shift. Resolution: the 1 s
             sample interval; a run shorter than T90 says n.r.
  final      hot-set residency on the best node at the end
  cold%      pages outside the hot set that left the start node
  migr/hot   pages migrated (pgmigrate_success) per hot-set page
  shift-migr/hot  (S3) the same counted from the shift: what moving from
             one hot set to the other cost. The whole run's migr/hot
             cannot be below 2.4 there: set A promoted (1), set B promoted
             (1), and A demoted as far as B does not fit in the 16 MiB
             left (0.4 of a 25.6 MiB set), more with any free-memory
             margin kept; after the shift the least is 1.4
  est.ns     ESTIMATED access time of the hot set at the end,
             sum(share_i * L_i) with L_i the HMAT read latency from
             initiator 0 in the topology: under TCG every node is host RAM
             at the same speed, so this is placement quality turned into
             the nanoseconds the firmware claims, the same latencies
             kmemattrd ranks nodes by
  est./ideal that over the whole hot set on the best node (the oracle's
             placement: the best node's latency)
  pingpong   pages back on a node they left within 10 s
Cost, measured the same way for every mechanism:
  kthr%      CPU of kmemattrd or the kdamonds, share of one vCPU, whole run
  kthr-ss%   the same in the steady state: from T90 + 2 s to the end (the
             last half of the run when 90% was never reached)
  sys%       the workload's system time, share of one vCPU (NUMA
             balancing's scanning, task_numa_work, and its hint faults run
             there, in the task's context)
  sys-ss%    the same in the steady state
  tlb/s      TLB shootdown IPIs (/proc/interrupts TLB, all CPUs) per second
  migrated   pages migrated during the run
  ops/none   the workload's operations per second over those of none in
             the same boot (every boot runs none), under plain TCG: noisy
             (every node runs at host speed, so only management can lower
             it, but TCG's own speed varies), its range shown; -icount
             (BENCH_TAX=1) is too slow for the whole benchmark
The real workload (sb: sysbench memory) adds sysbench's own MiB/s and its
ratio to none's, and the buffer's numa_maps at the end; the bind scenario
adds the share of the region that left the node the task is bound to.
"""
import math
import os
import re
import shutil
import statistics
import subprocess
import sys

# scenarios that reuse another's machine (harness/bench-tier.sh)
TOPOLOGY = {'s3': 's1', 's4': 's1', 's5': 's1', 's1c': 's1', 's1z': 's1', 'sb': 's1',
            'bind': 's1'}
TITLE = {
    's1': 'S1 one task, scattered 10% hot set, room on the fast node',
    's2': 'S2 CPU-less HBM-like node fastest (outside what NUMA balancing can do: '
          'it promotes only to the faulting CPU\'s node)',
    's3': 'S3 hot set shifts while the fast node is nearly full (T90 from the shift)',
    's4': 'S4 page-cache hot set read with pread(2) (outside what NUMA balancing can '
          'do: it sees only mapped pages, through hint faults)',
    's5': 'S5 three processes share the region',
    's1c': 'S1c S1 with a contiguous hot set',
    's1z': 'S1z S1 with a Zipf-like skew inside the hot set',
    'sb': 'SB sysbench memory (Debian), Pareto-skewed random writes, buffer moved to '
          'the slow node; hot set: its first 20% (80% of the writes)',
    'bind': 'BIND S1 with the task bound (MPOL_BIND) to the slow node: a mechanism '
            'that respects task policy moves nothing',
}
ORDER = ('none', 'oracle', 'nb2', 'nb2-base', 'damon-plain', 'damon-tuned', 'memattr',
         'memattr-nb2')
PLACEMENT = (('T90', 1), ('final', 3), ('cold%', 2), ('migr/hot', 2), ('shift-migr/hot', 2),
             ('est.ns', 0),
             ('est./ideal', 3), ('avg/ideal', 3), ('pingpong', 0))
# kmemattrd with one knob changed (harness/bench-tier.sh, BENCH_GRID=1)
GRID = re.compile(r'^memattr-([itb])([0-9]+)$')
GRID_KNOB = {'i': 'scan_interval_ms', 't': 'hot_threshold', 'b': 'scan_budget'}
COST = (('kthr%', 2), ('kthr-ss%', 2), ('sys%', 2), ('sys-ss%', 2), ('tlb/s', 0),
        ('migrated', 0), ('ops/none', 2))
INF = math.inf


def latencies(topo_file):
    lat = {}
    for line in open(topo_file):
        w = line.split('#', 1)[0].split()
        if len(w) >= 3 and w[0] == 'hmat' and w[1] == '0':
            kv = dict(x.split('=', 1) for x in w[3:])
            lat[int(w[2])] = int(kv['read-latency'])
    return lat


def parse(path):
    run = {'samples': [], 'vm_before': {}, 'vm_after': {}, 'kthread': 0.0, 'tiers': [],
           'demotion': [], 'sb': [], 'boot': '', 'numa_maps': ''}
    for line in open(path, errors='replace'):
        w = line.split()
        if line.startswith('# tierbench'):
            run.update({k: int(v) for k, v in re.findall(r'(\w+)=(-?\d+)', line)})
        elif line.startswith('boot '):
            run['boot'] = line.strip()
        elif line.startswith('boot-tier '):
            run['tiers'].append(' '.join(w[1:]))
        elif line.startswith('boot-demotion '):
            run['demotion'].append(' '.join(w[1:]))
        elif line.startswith('sample ') and 'error=' not in line:
            kv = dict(x.split('=', 1) for x in w[1:])
            hot_nodes, nodes = {}, {}
            for key, d in (('hot_nodes', hot_nodes), ('nodes', nodes)):
                if kv.get(key, '-') != '-':
                    d.update({int(a): int(b) for a, b in
                              (x.split(':') for x in kv[key].split(','))})
            run['samples'].append({'t': float(kv['t']), 'ops': int(kv['ops']),
                                   'hot': int(kv['hot']), 'best': int(kv['hot_best']),
                                   'cold_moved': int(kv['cold_moved']),
                                   'pingpong': int(kv.get('pingpong', 0)),
                                   'kcpu': float(kv.get('kcpu', 0)),
                                   'stime': float(kv.get('stime', 0)),
                                   'hot_nodes': hot_nodes, 'nodes': nodes})
        elif line.startswith('vmstat-') and len(w) == 3:
            run['vm_' + w[0][7:]][w[1]] = int(w[2])
        elif line.startswith('tlb-') and len(w) == 2:
            run['vm_' + w[0][4:]]['tlb'] = int(w[1])
        elif line.startswith('kthread-cpu') and len(w) == 3:
            run['kthread'] += float(w[2])
        elif line.startswith('sysbench-total '):
            run['sb_total'] = float(w[1].split('=')[1])
        elif line.startswith('sysbench-mibs '):
            run['sb'].append(float(w[2]))
        elif line.startswith('numa_maps-buffer'):
            run['numa_maps'] = ' '.join(x for x in w[1:] if re.match(r'N\d+=', x))
        elif line.startswith('shift ') and 'pgmigrate_success=-1' not in line:
            run['shift_migrated'] = int(line.split('pgmigrate_success=')[1])
        elif line.startswith('end '):
            run.update({k: float(v) for k, v in re.findall(r'(\w+)=([\d.]+)', line)})
    return run if run['samples'] and 't' in run else None


def access_time(sample, lat):
    total = sum(sample['hot_nodes'].values())
    if not total:
        return None
    return sum(n * lat.get(node, 0) for node, n in sample['hot_nodes'].items()) / total


def delta(run, key):
    return run['vm_after'].get(key, 0) - run['vm_before'].get(key, 0)


def metrics(run, lat):
    s = run['samples']
    shift = run.get('shift_s', -1)
    t0 = shift if shift >= 0 else 0
    t90 = next((x['t'] - t0 for x in s
                if x['t'] >= t0 and x['hot'] and x['best'] / x['hot'] >= 0.9), INF)
    if shift < 0 and s[0]['hot'] and s[0]['best'] / s[0]['hot'] >= 0.9:
        t90 = 0.0
    dur = max(s[-1]['t'] - s[0]['t'], 1e-3)
    last = s[-1]
    m = {'T90': t90, 'final': last['best'] / last['hot'] if last['hot'] else None,
         'cold%': 100.0 * last['cold_moved'] / max(1, run.get('cold', 1)),
         'migrated': delta(run, 'pgmigrate_success'),
         'pingpong': last['pingpong'],
         'est.ns': access_time(last, lat),
         'kthr%': 100.0 * (last['kcpu'] - s[0]['kcpu']) / dur,
         'sys%': 100.0 * (last['stime'] - s[0]['stime']) / dur,
         'tlb/s': delta(run, 'tlb') / max(run['t'], 1e-3),
         'ops': statistics.mean(x['ops'] for x in s[1:]) if len(s) > 1 else 0}
    m['migr/hot'] = m['migrated'] / max(1, run['hot'])
    if 'shift_migrated' in run and 'pgmigrate_success' in run['vm_after']:
        m['shift-migr/hot'] = ((run['vm_after']['pgmigrate_success'] - run['shift_migrated']) /
                               max(1, run['hot']))
    # steady state: from T90 + 2 s, else the last half of the run
    since = t0 + t90 + 2 if t90 != INF else (s[0]['t'] + s[-1]['t']) / 2
    calm = [x for x in s if x['t'] >= since]
    if len(calm) >= 2 and calm[-1]['t'] - calm[0]['t'] >= 3:
        span = calm[-1]['t'] - calm[0]['t']
        m['kthr-ss%'] = 100.0 * (calm[-1]['kcpu'] - calm[0]['kcpu']) / span
        m['sys-ss%'] = 100.0 * (calm[-1]['stime'] - calm[0]['stime']) / span
    start = run.get('start')
    total = sum(last['nodes'].values())
    if start is not None and total:
        m['left%'] = 100.0 * (total - last['nodes'].get(start, 0)) / total
    if 'sb_total' in run:
        m['sb_mibs'] = run['sb_total']
    m['numa_maps'] = run['numa_maps']
    m['boot'] = run['boot'].split()[1] if run['boot'] else ''
    if lat and run.get('best') in lat and m['est.ns'] is not None:
        m['est./ideal'] = m['est.ns'] / lat[run['best']]
        # the whole run's mean (after the shift in S3): how soon it got there
        est = [access_time(x, lat) for x in s if x['t'] >= t0]
        est = [e for e in est if e is not None]
        if est:
            m['avg/ideal'] = statistics.mean(est) / lat[run['best']]
    return m


def fmt(vals, digits):
    """median (min-max); n.r. for runs that never reached 90%."""
    vals = sorted(v for v in vals if v is not None)
    if not vals:
        return '-'

    def one(v):
        return 'n.r.' if v == INF else f'{v:.{digits}f}'
    med = statistics.median(vals)
    nr = vals.count(INF)
    # how many never reached 90%, when only some did not
    some = f'{nr} of {len(vals)} n.r.' if 0 < nr < len(vals) else ''
    if len(vals) == 1 or vals[0] == vals[-1]:
        return one(med) + (f' ({some})' if some else '')
    return f'{one(med)} ({one(vals[0])}-{one(vals[-1])}' + (f'; {some})' if some else ')')


def median(vals):
    vals = sorted(v for v in vals if v is not None)
    if not vals:
        return None
    return statistics.median(vals)


def table(rows, cols):
    """rows: [(config, [metrics])]; each column as wide as its widest cell."""
    cells = [[fmt([m.get(c) for m in ms], d) for c, d in cols] for _, ms in rows]
    width = [max([len(c)] + [len(r[i]) for r in cells]) for i, (c, _) in enumerate(cols)]
    out = [f'  {"config":<12}' + ''.join(f'  {c:>{w}}' for (c, _), w in zip(cols, width))]
    for (config, _), r in zip(rows, cells):
        out.append(f'  {config:<12}' + ''.join(f'  {v:>{w}}' for v, w in zip(r, width)))
    return out


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
set ylabel 'estimated access time (ns, from HMAT; not measured)'
set autoscale y
set key top right
plot {acc}
unset multiplot
"""
    subprocess.run(['gnuplot'], input=script, text=True, capture_output=True)


def load(out_dir, prefix):
    """{config: [(rep, run or None)]} for DIR/<prefix>-<config>-<rep>.out"""
    runs = {}
    for name in sorted(os.listdir(out_dir)):
        mt = re.fullmatch(rf'{re.escape(prefix)}-([\w-]+?)-(\d+)\.out', name)
        if mt:
            runs.setdefault(mt.group(1), []).append(
                (int(mt.group(2)), parse(os.path.join(out_dir, name))))
    return runs


def ordered(runs):
    return sorted(runs, key=lambda c: (ORDER.index(c) if c in ORDER else len(ORDER), c))


def boots_lines(all_runs):
    """The memory tiers and demotion targets of every boot, grouped."""
    seen = {}
    for scen, runs in all_runs:
        for config in runs:
            for _, r in runs[config]:
                if not r or not r['boot']:
                    continue
                name, kern = r['boot'].split()[1], r['boot'].split()[2][7:]
                what = ('tiers ' + '; '.join(r['tiers']) + ' | demotion ' +
                        ('; '.join(r['demotion']) or 'none logged'))
                seen.setdefault((TOPOLOGY.get(scen, scen), kern, what), set()).add(name)
    out = ['', 'Memory tiers and demotion targets of every boot (sysfs memory_tiering, '
           'the kernel\'s "Demotion targets" lines)']
    for (topo, kern, what), names in sorted(seen.items()):
        out.append(f'  {topo} on {kern}, {len(names)} boots: {what}')
    return out


def main(argv):
    results_copy = None
    if '--results' in argv:
        i = argv.index('--results')
        results_copy = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    out_dir, topo_dir, scenarios = argv[1], argv[2], argv[3:]
    text, csv = [], ['scenario,config,rep,' + ','.join(c for c, _ in PLACEMENT + COST)]
    summary = {}
    header = os.path.join(out_dir, 'header')
    if os.path.exists(header):
        text += open(header).read().splitlines()
    text.append('# est.: estimated from HMAT read latencies and residency, not measured '
                '(TCG runs every node at host RAM speed); kmemattrd ranks nodes by the same '
                'latencies. n.r.: never reached 90% (counted as longer than any run).')
    all_runs = []
    for scen in scenarios:
        lat = latencies(os.path.join(topo_dir, TOPOLOGY.get(scen, scen) + '.topo'))
        runs = load(out_dir, scen)
        if not runs:
            continue
        all_runs.append((scen, runs))
        ms_by = {}
        for config in ordered(runs):
            ms = []
            for n, r in sorted(runs[config]):
                if r is None:
                    text.append(f'{scen} {config} run {n}: no result (see its .out)')
                    continue
                ms.append(metrics(r, lat))
            ms_by[config] = ms
        # throughput against none of the same boot (paired), else none's median
        none = {m['boot']: m for m in ms_by.get('none', [])}
        none_ops = median([m['ops'] for m in ms_by.get('none', [])])
        none_sb = median([m.get('sb_mibs') for m in ms_by.get('none', [])])
        for config, ms in ms_by.items():
            for m in ms:
                ref = none.get(m['boot'], {})
                base = ref.get('ops') or none_ops
                if base:
                    m['ops/none'] = m['ops'] / base
                base = ref.get('sb_mibs') or none_sb
                if base and m.get('sb_mibs'):
                    m['sb/none'] = m['sb_mibs'] / base
        text.append('')
        text.append(f'{TITLE.get(scen, scen)}')
        text.append(f'  HMAT read latency from the CPUs\' node: {lat} ns; '
                    f'runs per configuration: ' + ', '.join(
                        f'{c} {len(ms)}' for c, ms in ms_by.items()))
        rows = [(c, ms) for c, ms in ms_by.items() if ms]
        placement = PLACEMENT
        if scen == 'sb':
            placement = PLACEMENT[:3] + (('sb_mibs', 0), ('sb/none', 2)) + PLACEMENT[3:6]
        if scen == 'bind':
            placement = PLACEMENT[:3] + (('left%', 1),) + PLACEMENT[3:5]
        text.append(' placement')
        text += table(rows, placement)
        text.append(' cost')
        text += table(rows, COST)
        if scen == 'sb':
            text.append(' the buffer at the end (numa_maps), first run of each')
            for c, ms in rows:
                text.append(f'  {c:<12} {ms[0]["numa_maps"] or "-"}')
        for c, ms in rows:
            for n, m in enumerate(ms, 1):
                csv.append(f'{scen},{c},{n},' + ','.join(
                    '' if m.get(k) is None else ('inf' if m[k] == INF else f'{m[k]:.4g}')
                    for k, _ in PLACEMENT + COST))
            summary[(scen, c)] = ms
        plot(out_dir, scen, runs, lat)
    knobs = knob_table(summary)
    if knobs:
        text += [''] + knobs
        open(os.path.join(out_dir, 'knobs.txt'), 'w').write('\n'.join(
            [h for h in (open(header).read().splitlines() if os.path.exists(header) else [])
             if h.startswith('#')] + knobs) + '\n')
    text += boots_lines(all_runs)
    tax = tax_runs(out_dir)
    text += tax_table(tax)
    text.append('')
    results = results_table(open(header).read().splitlines() if os.path.exists(header) else [],
                            summary, tax)
    open(os.path.join(out_dir, 'report.txt'), 'w').write('\n'.join(text) + '\n')
    open(os.path.join(out_dir, 'report.csv'), 'w').write('\n'.join(csv) + '\n')
    open(os.path.join(out_dir, 'results.txt'), 'w').write(results)
    if results_copy:
        open(results_copy, 'w').write(results)
    print('\n'.join(text))
    return 0


# The steady-state CPU goal, % of one vCPU: a knob setting that buys
# placement speed with more CPU than that is not a tuning to beat; nor is
# one that buys it by moving cold pages or by migrating more than the
# defaults do (hot_threshold=1 promotes every page touched once: the
# whole freshly written region in S1). MIGR_SLACK: run-to-run noise.
CPU_GOAL = 2.0
MIGR_SLACK = 1.1


def within_goals(point, dflt):
    """Medians of a grid point against the defaults'. Not measured: not held against it."""
    cpu, cold, migr = point.get('kthr-ss%'), point.get('cold%'), point.get('migr/hot')
    return ((cpu is None or cpu <= CPU_GOAL) and
            (cold is None or cold <= (dflt.get('cold%') or 0.0) + 1.0) and
            (migr is None or dflt.get('migr/hot') is None or
             migr <= dflt['migr/hot'] * MIGR_SLACK))


def grid_point(config):
    """memattr-i250 -> scan_interval_ms=250"""
    g = GRID.match(config)
    return f'{GRID_KNOB[g.group(1)]}={g.group(2)}'


def grid_order(config):
    g = GRID.match(config)
    return ('itb'.index(g.group(1)), int(g.group(2)))


def knob_table(summary):
    """Defaults against the best point of the knob grid, per scenario."""
    scens = sorted({sc for sc, c in summary if GRID.match(c)})
    if not scens:
        return []
    out = ['Knob grid (kmemattrd, one knob changed at a time; defaults: scan_interval_ms '
           '500, hot_threshold 2, scan_budget 262144). avg/ideal: the hot set\'s estimated '
           'access time averaged over the run (S3: after the shift) over the ideal; '
           'best point: the lowest avg/ideal of the points whose steady-state CPU '
           f'(kthr-ss%) is within the {CPU_GOAL:g}% goal, that move no more cold pages '
           f'(cold%, +1) and migrate at most {MIGR_SLACK:g}x as much (migr/hot) as the '
           'defaults; '
           'beats: how much lower the best point\'s is than the defaults\'',
           '# grid: ' + ', '.join(grid_point(c) for c in sorted(
               {c for _, c in summary if GRID.match(c)}, key=grid_order)),
           '# scenario | defaults avg/ideal | best point | its avg/ideal | beats % | '
           'defaults kthr-ss% | best\'s kthr-ss% | final est./ideal defaults, best']

    def med(ms, k):
        return median([m.get(k) for m in ms])
    for sc in scens:
        dflt = summary.get((sc, 'memattr'))
        if not dflt or med(dflt, 'avg/ideal') is None:
            continue
        d = med(dflt, 'avg/ideal')
        medians = {k: med(dflt, k) for k in ('cold%', 'migr/hot')}
        points = [(med(ms, 'avg/ideal'), c) for (s2, c), ms in summary.items()
                  if s2 == sc and GRID.match(c) and med(ms, 'avg/ideal') is not None
                  and within_goals({k: med(ms, k) for k in ('kthr-ss%', 'cold%', 'migr/hot')},
                                   medians)]
        # the defaults stand when no point within the goals does better
        b, c = min(points + [(d, 'memattr')])
        name = grid_point(c) if GRID.match(c) else 'the defaults'

        beats = 100.0 * (d - b) / d if b < d else 0.0

        def f(v, n=2):
            return '-' if v is None else f'{v:.{n}f}'
        out.append(f'{sc} | {d:.3f} | {name} | {b:.3f} | {beats:.1f} | '
                   f'{f(med(dflt, "kthr-ss%"))} | {f(med(summary[(sc, c)], "kthr-ss%"))} | '
                   f'{f(med(dflt, "est./ideal"))}, {f(med(summary[(sc, c)], "est./ideal"))}')
    return out


TAX_COLS = (('ops/s', 0), ('tax%', 2), ('kthr%', 2), ('sys%', 2), ('tlb/s', 0),
            ('migrated', 0))


def tax_runs(out_dir):
    runs = load(out_dir, 'tax')
    ms_by = {c: [metrics(r, {}) for _, r in sorted(runs[c]) if r] for c in ordered(runs)}
    base = median([m['ops'] for m in ms_by.get('none', [])])
    for ms in ms_by.values():
        for m in ms:
            m['ops/s'] = m['ops']
            m['tax%'] = 100.0 * (1 - m['ops'] / base) if base else None
    return {c: ms for c, ms in ms_by.items() if ms}


def tax_table(tax):
    if not tax:
        return []
    out = ['', 'Throughput tax under QEMU -icount (S1, 256 MiB, 8 s of guest time; guest '
           'time counts instructions, so ops/s drop only by what management takes: '
           'threads, hint faults, IPIs; tax% = 1 - ops/s over none\'s median)']
    out += table(list(tax.items()), TAX_COLS)
    return out


# The committed results table (harness/bench/results/tiering.txt): what the
# cover letter quotes, one line per cell. Columns are fixed: series.py reads
# them by name.
RESULT_COLS = (('T90', 1), ('final', 2), ('cold%', 1), ('est./ideal', 2), ('kthr-ss%', 2),
               ('sys-ss%', 2), ('tlb/s', 0), ('migr/hot', 2), ('ops/none', 2))


def results_table(header, summary, tax):
    lines = [h for h in header if h.startswith('#')]
    lines.append('# median (min-max) over the runs; n.r. = never reached 90% (counted '
                 'as the longest); est. = estimated from HMAT latencies, not measured')
    lines.append('# sb: sysbench memory, hot set = first 20% of its buffer; bind: task '
                 'bound to the slow node, left% = region share that left it')
    lines.append('# scenario config | ' + ' | '.join(c for c, _ in RESULT_COLS) + ' | extra')
    for (scen, config), ms in summary.items():
        vals = ' | '.join(fmt([m.get(c) for m in ms], d) for c, d in RESULT_COLS)
        extra = f'runs={len(ms)}'
        if scen == 'sb':
            extra += ' sb/none=' + fmt([m.get('sb/none') for m in ms], 2).replace(' ', '')
        if scen == 's3':
            extra += ' shift-migr/hot=' + fmt([m.get('shift-migr/hot') for m in ms],
                                              2).replace(' ', '')
        if scen == 'bind':
            extra += ' left%=' + fmt([m.get('left%') for m in ms], 1).replace(' ', '')
        lines.append(f'{scen} {config} | {vals} | {extra}')
    if tax:
        lines.append('# -icount tax on S1: tax config | ' +
                     ' | '.join(c for c, _ in TAX_COLS) + ' | extra')
        for config, ms in tax.items():
            vals = ' | '.join(fmt([m.get(c) for m in ms], d) for c, d in TAX_COLS)
            lines.append(f'tax {config} | {vals} | runs={len(ms)}')
    return '\n'.join(lines) + '\n'


if __name__ == '__main__':
    sys.exit(main(sys.argv))
