#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Malformed memattr= boot parameters, generated from the documented grammar.

Usage: bootfuzz.py gen SEED BOOTS WORDS NODES DIR
           write DIR/bootN.words (kernel words) and DIR/bootN.expect for
           BOOTS boots of WORDS memattr= words each, on a machine with nodes
           0..NODES-1 (node 0 has the CPUs and is never made special)
       bootfuzz.py judge EXPECT OUTPUT
           compare what the guest printed (debugfs records, node/special,
           the kernel log's memattr= warnings) with EXPECT; print one
           PASS/FAIL line per boot

The model below is written from Documentation/admin-guide/mm/memattr.rst
("The boot parameter"), not from the kernel's parser: values are decimal
with an optional unit, bare persistent/special mean 1, a malformed item is
warned about and skipped, a malformed node list (bad syntax, an id at or
above MAX_NUMNODES) drops that whole word, the last value wins.
"""
import json
import random
import sys

MAX_NUMNODES = 64
FIELDS = {  # name: (largest value, unit suffixes and their factors)
    'read_latency': (1000000, {'ns': 1, 'us': 1000}),
    'write_latency': (1000000, {'ns': 1, 'us': 1000}),
    'read_bandwidth': (1000000000, {'MB/s': 1, 'GB/s': 1000}),
    'write_bandwidth': (1000000000, {'MB/s': 1, 'GB/s': 1000}),
    'power': (4294967295, {'mW': 1, 'W': 1000}),
    'persistent': (1, {}),
    'special': (1, {}),
}
FLAGS = ('persistent', 'special')
U32_MAX = 4294967295
CMDLINE_BUDGET = 1200


# ---- the model ----

def parse_nodelist(text):
    """A set of node ids, or None if the list is malformed."""
    nodes = set()
    if not text:
        return None
    for part in text.split(','):
        ends = part.split('-')
        if len(ends) > 2 or not all(e.isdigit() and e.isascii() for e in ends):
            return None
        lo, hi = int(ends[0]), int(ends[-1])
        if lo > hi or hi >= MAX_NUMNODES:
            return None
        nodes.update(range(lo, hi + 1))
    return nodes


def parse_item(item):
    """(field, value) for a well-formed item, None otherwise."""
    name, eq, text = item.partition('=')
    if name not in FIELDS:
        return None
    top, units = FIELDS[name]
    if not eq:
        return (name, 1) if name in FLAGS else None
    digits = len(text) - len(text.lstrip('0123456789'))
    if not digits:
        return None
    number, suffix = int(text[:digits]), text[digits:]
    if number > U32_MAX:
        return None
    factor = units.get(suffix) if suffix else 1
    if factor is None or number * factor > top:
        return None
    return name, number * factor


def model(words, nodes):
    """Expected cmdline values {node: {field: value}} and warnings [(word, item)]."""
    values = {n: {} for n in range(nodes)}
    warnings = []
    for word in words:
        arg = word[len('memattr='):]
        head, colon, items = arg.partition(':')
        ids = parse_nodelist(head) if colon else None
        if ids is None:
            warnings.append((arg, None))
            continue
        parsed = {}
        for item in items.split(','):
            good = parse_item(item)
            if good is None:
                warnings.append((arg, item))
            else:
                parsed[good[0]] = good[1]
        for n in ids:
            if n < nodes:
                values[n].update(parsed)
    return values, warnings


# ---- the generator ----

def gen_number(rng, name):
    top, units = FIELDS[name]
    choice = rng.random()
    if name in FLAGS:
        return rng.choice(['0', '1', '1', '2', '01', '-1', '', 'yes', '1x', '10'])
    if choice < 0.5:
        value = str(rng.randint(0, min(top, 5000)))
    elif choice < 0.6:
        value = str(top)
    elif choice < 0.7:
        value = str(top + rng.randint(1, 1000))
    elif choice < 0.75:
        value = str(U32_MAX + 1)
    elif choice < 0.8:
        value = '9' * rng.randint(11, 40)
    elif choice < 0.85:
        value = '-' + str(rng.randint(1, 100))
    elif choice < 0.9:
        value = rng.choice(['', '0x10', '1e3', '+5', '3.5', '12x'])
    else:
        value = str(rng.randint(0, 3000))
    unit_roll = rng.random()
    if units and unit_roll < 0.3:
        value += rng.choice(list(units))
    elif unit_roll < 0.4:
        value += rng.choice(['ms', 'kB', 'Mb/s', 'w', 'us ', 'GB', '/s'])
    return value.strip()


def gen_item(rng):
    roll = rng.random()
    if roll < 0.08:
        return rng.choice(['colour=blue', 'Power=5', 'latency=3', 'speciall', '', 'power',
                           'read_latency', '=5', 'special=', 'read-latency=4'])
    name = rng.choice(list(FIELDS))
    if name in FLAGS and rng.random() < 0.4:
        return name
    return f'{name}={gen_number(rng, name)}'


def gen_nodelist(rng, nodes):
    roll = rng.random()
    if roll < 0.12:
        # (not "1," or ",1": the documented "usual list syntax" leaves
        # an empty element open, so no expectation would be fair)
        return rng.choice(['x', '1-', '-1', '', '2-1', '0-x', '1--2', '64',
                           '0-64', '99', '1000', f'{nodes - 1},70', '1a'])
    ids = sorted(rng.sample(range(nodes), rng.randint(1, nodes)))
    if rng.random() < 0.3 and len(ids) > 1:
        return f'{ids[0]}-{ids[-1]}'
    if rng.random() < 0.15:
        return str(rng.randint(nodes, MAX_NUMNODES - 1))  # a node this machine lacks
    return ','.join(map(str, ids))


def gen_word(rng, nodes):
    """One memattr= word; special=1 never reaches node 0 (the CPUs' node)."""
    while True:
        head = gen_nodelist(rng, nodes)
        items = [gen_item(rng) for _ in range(rng.randint(1, 5))]
        word = f'memattr={head}:' + ','.join(items)
        if rng.random() < 0.04:
            word = f'memattr={head}'           # no colon at all
        ids = parse_nodelist(head) or set()
        special = dict(g for g in map(parse_item, items) if g).get('special')
        if 0 in ids and special == 1:
            continue
        if not any(c.isspace() or c in '"\\' for c in word):
            return word


def cmd_gen(seed, boots, words, nodes, outdir):
    rng = random.Random(seed)
    nwords = nbad_words = nbad_items = 0
    for b in range(boots):
        ws = []
        # x86 keeps 2048 bytes of command line: leave room for the rest
        while len(ws) < words and sum(len(w) + 1 for w in ws) < CMDLINE_BUDGET:
            ws.append(gen_word(rng, nodes))
        values, warnings = model(ws, nodes)
        with open(f'{outdir}/boot{b}.words', 'w') as f:
            f.write(' '.join(ws) + '\n')
        with open(f'{outdir}/boot{b}.expect', 'w') as f:
            json.dump({'words': ws, 'values': {str(n): v for n, v in values.items()},
                       'warnings': warnings}, f)
        nwords += len(ws)
        nbad_words += len({w for w, _ in warnings})
        nbad_items += len(warnings)
    # The caller holds the volume to a minimum: print what was made
    print(f'{nwords} {nbad_words} {nbad_items}')
    return 0


# ---- the judge ----

def read_output(path):
    """The cmdline column of debugfs, node/special and the warning lines."""
    cmdline, special, warns, node, col = {}, None, [], None, None
    for line in open(path, errors='replace'):
        words = line.split()
        if line.startswith('node') and len(words) == 1:
            node = int(words[0][4:])
            cmdline[node] = {}
        elif words[:3] == ['field', 'value', 'winner'] and 'cmdline' in words:
            # the header names the sources: find the cmdline column
            col = words.index('cmdline')
        elif (node is not None and col is not None and len(words) > col and
              words[0] in FIELDS):
            if words[col] != '-':
                cmdline[node][words[0]] = int(words[col])
        elif line.startswith('SPECIAL '):
            special = line[len('SPECIAL '):].strip()
        elif 'memattr=' in line and ('malformed' in line or 'needs' in line):
            warns.append(line[line.index('memattr='):].strip())
    return cmdline, special, warns


def expected_warning(arg, item):
    if item is None:
        return f'memattr={arg}: malformed node list, entry ignored'
    return f"memattr={arg}: ignoring malformed '{item}'"


def cmd_judge(expect_path, output_path, label):
    exp = json.load(open(expect_path))
    cmdline, special, warns = read_output(output_path)
    problems = []
    for n, want in exp['values'].items():
        got = cmdline.get(int(n))
        if got is None:
            problems.append(f'node {n} missing from debugfs records')
        elif got != want:
            problems.append(f'node {n} cmdline values {got}, expected {want}')
    want_special = sorted(int(n) for n, v in exp['values'].items() if v.get('special') == 1)
    got_special = parse_nodelist(special) if special else set()
    if special is None or sorted(got_special or []) != want_special:
        problems.append(f'node/special "{special}", expected {want_special}')
    want_warns = sorted(expected_warning(a, i) for a, i in exp['warnings'])
    if sorted(warns) != want_warns:
        missing = [w for w in want_warns if w not in warns]
        extra = [w for w in warns if w not in want_warns]
        problems.append(f'warnings: missing {missing[:3]}, unexpected {extra[:3]}')
    nitems = sum(w.count(',') + 1 for w in exp['words'])
    summary = f'{len(exp["words"])} words, {nitems} items, {len(exp["warnings"])} malformed'
    if problems:
        print(f'FAIL {label} ({summary}): ' + '; '.join(problems))
        print('  words: ' + ' '.join(exp['words']), file=sys.stderr)
        return 1
    print(f'PASS {label} ({summary})')
    return 0


def main(argv):
    if len(argv) == 7 and argv[1] == 'gen':
        return cmd_gen(int(argv[2]), int(argv[3]), int(argv[4]), int(argv[5]), argv[6])
    if len(argv) == 5 and argv[1] == 'judge':
        return cmd_judge(argv[2], argv[3], argv[4])
    print(__doc__.strip(), file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
