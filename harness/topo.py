#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a memattr topology file into a QEMU command line or into the
expected values the guest tests compare against (one source of truth).

Usage: topo.py qemu FILE      QEMU -machine/-m/-smp/-object/-numa args, one per line
       topo.py cmdline FILE   extra kernel command-line words
       topo.py expect FILE    expected-values file for the guest (/memattr/topology)
       topo.py check FILE     validate only

The format is documented in harness/topologies/README.
"""
import re
import sys

SIZE_UNITS = {'': 1, 'K': 1 << 10, 'M': 1 << 20, 'G': 1 << 30, 'T': 1 << 40}
LB_TYPES = ('read-latency', 'write-latency', 'read-bandwidth', 'write-bandwidth')
ASSOC = {'none': 2, 'direct': 0, 'complex': 1}
POLICY = {'none': 2, 'write-back': 0, 'write-through': 1}
MEMATTR_FIELDS = ('read_latency', 'write_latency', 'read_bandwidth',
                  'write_bandwidth', 'power', 'persistent', 'special')
LOCAL_DISTANCE = 10
# Linux's memory block size on this x86_64 guest: dax/kmem onlines whole blocks.
MEMORY_BLOCK = 128 << 20
# QEMU's pc machine lays RAM out node after node in id order, below 4G up to
# max-ram-below-4g (at most this much), the rest from 4G on.
PC_LOWMEM = 0xe0000000
FOUR_G = 1 << 32
# e820 type of EFI specific-purpose ("soft reserved") memory.
E820_SOFT_RESERVED = '0xefffffff'


class TopologyError(Exception):
    pass


def parse_size(text, where):
    m = re.fullmatch(r'(\d+)([KMGT]?)', text)
    if not m:
        raise TopologyError(f'{where}: bad size "{text}" (use e.g. 512M, 1G)')
    return int(m.group(1)) * SIZE_UNITS[m.group(2)]


def parse_cpus(text, where):
    cpus = set()
    for part in text.split(','):
        m = re.fullmatch(r'(\d+)(?:-(\d+))?', part)
        if not m:
            raise TopologyError(f'{where}: bad cpu list "{text}"')
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if hi < lo:
            raise TopologyError(f'{where}: bad cpu range "{part}"')
        cpus.update(range(lo, hi + 1))
    return cpus


def keyvals(words, where, allowed):
    out = {}
    for w in words:
        k, sep, v = w.partition('=')
        if k not in allowed:
            raise TopologyError(f'{where}: unknown key "{k}" (allowed: {", ".join(allowed)})')
        if k in out:
            raise TopologyError(f'{where}: "{k}" given twice')
        out[k] = v if sep else None
    return out


def parse_int(text, where, what):
    if text is None or not re.fullmatch(r'\d+', text):
        raise TopologyError(f'{where}: {what} needs a whole number, got "{text}"')
    return int(text)


class Topology:
    def __init__(self, path):
        self.path = path
        self.name = None
        self.nodes = {}         # nid -> {'mem', 'cpus', 'initiator'}
        self.dist = {}          # (src, dst) -> value
        self.hmat = {}          # (initiator, target) -> {type: value}
        self.caches = []        # dicts
        self.memattr = {}       # nid -> {field: value}
        self.memattr_from = {}  # (initiator, target) -> {field: value}
        self.applied = set()    # (nid, field) given only by "cmdline" words
        self.cmdline = []       # raw extra kernel words
        self.nvdimms = {}       # nid -> {'size', 'where'}: NVDIMM, its own node
        self.efi_sp = {}        # nid -> where: the node's RAM is EFI specific-purpose
        self.dimms = {}         # nid -> {'size', 'where'}: a cold-plugged pc-dimm
        self.parse()
        self.validate()

    def parse(self):
        try:
            lines = open(self.path).read().splitlines()
        except OSError as e:
            raise TopologyError(f'{self.path}: {e.strerror}')
        for n, line in enumerate(lines, 1):
            where = f'{self.path}:{n}'
            words = line.split('#', 1)[0].split()
            if not words:
                continue
            handler = getattr(self, 'kw_' + words[0], None)
            if handler is None:
                raise TopologyError(f'{where}: unknown keyword "{words[0]}"')
            handler(words[1:], where)

    def kw_name(self, args, where):
        if len(args) != 1:
            raise TopologyError(f'{where}: name takes one word')
        self.name = args[0]

    def kw_node(self, args, where):
        if not args:
            raise TopologyError(f'{where}: node needs an id')
        nid = parse_int(args[0], where, 'node id')
        if nid in self.nodes:
            raise TopologyError(f'{where}: node {nid} defined twice')
        kv = keyvals(args[1:], where, ('mem', 'cpus', 'initiator'))
        if 'mem' not in kv:
            raise TopologyError(f'{where}: node {nid} needs mem=SIZE')
        self.nodes[nid] = {
            'mem': parse_size(kv['mem'] or '', where),
            'cpus': parse_cpus(kv['cpus'], where) if kv.get('cpus') else set(),
            'initiator': (parse_int(kv['initiator'], where, 'initiator')
                          if 'initiator' in kv else None),
            'where': where,
        }

    def kw_distance(self, args, where):
        if len(args) != 3:
            raise TopologyError(f'{where}: distance SRC DST VALUE')
        src, dst, val = (parse_int(a, where, 'distance') for a in args)
        if src == dst or not 10 < val <= 254:
            raise TopologyError(f'{where}: distance {src}->{dst}={val} out of range (11..254, src != dst)')
        self.dist[(src, dst)] = val

    def kw_hmat(self, args, where):
        if len(args) < 3:
            raise TopologyError(f'{where}: hmat INITIATOR TARGET TYPE=VALUE...')
        init = parse_int(args[0], where, 'initiator')
        targ = parse_int(args[1], where, 'target')
        kv = keyvals(args[2:], where, LB_TYPES)
        vals = {}
        for t, v in kv.items():
            if t.endswith('latency'):
                vals[t] = parse_int(v, where, t)
            else:
                vals[t] = parse_size(v or '', where)
            if vals[t] == 0:
                raise TopologyError(f'{where}: {t} must not be 0')
        self.hmat.setdefault((init, targ), {}).update(vals)

    def kw_cache(self, args, where):
        if not args:
            raise TopologyError(f'{where}: cache NODE size=.. level=.. ...')
        nid = parse_int(args[0], where, 'node')
        kv = keyvals(args[1:], where, ('size', 'level', 'associativity', 'policy', 'line'))
        for k in ('size', 'level', 'associativity', 'policy', 'line'):
            if kv.get(k) is None:
                raise TopologyError(f'{where}: cache needs {k}=')
        if kv['associativity'] not in ASSOC or kv['policy'] not in POLICY:
            raise TopologyError(f'{where}: associativity in {list(ASSOC)}, policy in {list(POLICY)}')
        self.caches.append({'node': nid, 'size': parse_size(kv['size'], where),
                            'level': parse_int(kv['level'], where, 'level'),
                            'associativity': kv['associativity'], 'policy': kv['policy'],
                            'line': parse_int(kv['line'], where, 'line')})

    def kw_memattr(self, args, where):
        """memattr NODE field[=value]...: a boot-parameter entry the kernel must honour."""
        if len(args) < 2:
            raise TopologyError(f'{where}: memattr NODE FIELD[=VALUE]...')
        if '@' in args[0]:
            self.memattr_view(args, where)
            return
        nid = parse_int(args[0], where, 'node')
        kv = keyvals(args[1:], where, MEMATTR_FIELDS)
        rec = self.memattr.setdefault(nid, {})
        for f, v in kv.items():
            if f in ('persistent', 'special') and v is None:
                v = '1'
            rec[f] = parse_int(v, where, f)

    def memattr_view(self, args, where):
        """memattr TARGET@INITIATOR field=value...: the view from one initiator."""
        targ, _, init = args[0].partition('@')
        key = (parse_int(init, where, 'initiator'), parse_int(targ, where, 'node'))
        kv = keyvals(args[1:], where, MEMATTR_FIELDS[:4])
        rec = self.memattr_from.setdefault(key, {})
        for f, v in kv.items():
            rec[f] = parse_int(v or '', where, f)

    def kw_applied(self, args, where):
        """applied NODE field[=value]...: what the kernel must apply from the
        "cmdline" words, which are the only memattr= words for these fields."""
        self.kw_memattr(args, where)
        nid = parse_int(args[0], where, 'node')
        self.applied.update((nid, f) for f in self.memattr[nid])

    def kw_cmdline(self, args, where):
        self.cmdline.extend(args)

    def plugged(self, args, where, kw, store, least):
        """KW NODE size=SIZE: one device of @store per node, SIZE in whole blocks."""
        if len(args) < 2:
            raise TopologyError(f'{where}: {kw} NODE size=SIZE')
        nid = parse_int(args[0], where, 'node')
        if nid in store:
            raise TopologyError(f'{where}: node {nid} has an {kw} already (one per node)')
        kv = keyvals(args[1:], where, ('size',))
        size = parse_size(kv.get('size') or '', where)
        if size < least or size % MEMORY_BLOCK:
            raise TopologyError(f'{where}: {kw} size must be a multiple of 128M and at '
                                f'least {least >> 20}M (memory blocks come online whole)')
        store[nid] = {'size': size, 'where': where}

    def kw_nvdimm(self, args, where):
        """nvdimm NODE size=SIZE: an NVDIMM whose SRAT range is non-volatile.

        At least two blocks: the info block and alignment take the first.
        """
        self.plugged(args, where, 'nvdimm', self.nvdimms, 2 * MEMORY_BLOCK)

    def kw_efi_sp(self, args, where):
        """efi_sp NODE: all RAM of NODE is EFI specific-purpose (soft reserved)."""
        if len(args) != 1:
            raise TopologyError(f'{where}: efi_sp NODE')
        nid = parse_int(args[0], where, 'node')
        if nid in self.efi_sp:
            raise TopologyError(f'{where}: efi_sp {nid} given twice')
        self.efi_sp[nid] = where

    def kw_dimm(self, args, where):
        """dimm NODE size=SIZE: a pc-dimm that ACPI memory hotplug adds, offline."""
        self.plugged(args, where, 'dimm', self.dimms, MEMORY_BLOCK)

    def validate(self):
        p = self.path
        if not self.name:
            raise TopologyError(f'{p}: missing "name"')
        ids = sorted(self.nodes)
        if ids != list(range(len(ids))) or not ids:
            raise TopologyError(f'{p}: node ids must be 0..N-1, got {ids}')
        allcpus = [c for n in ids for c in sorted(self.nodes[n]['cpus'])]
        if sorted(allcpus) != list(range(len(allcpus))) or not allcpus:
            raise TopologyError(f'{p}: cpus must be 0..N-1, each on one node')
        for n in ids:
            node = self.nodes[n]
            if node['cpus']:
                node['initiator'] = n if node['initiator'] is None else node['initiator']
                if node['initiator'] != n:
                    raise TopologyError(f'{node["where"]}: a node with cpus is its own initiator')
            elif self.hmat and node['initiator'] is None:
                raise TopologyError(f'{node["where"]}: memory-only node needs initiator= with hmat')
            if node['initiator'] is not None and not self.nodes.get(node['initiator'], {}).get('cpus'):
                raise TopologyError(f'{node["where"]}: initiator must be a node with cpus')
        for (s, d) in self.dist:
            if s not in self.nodes or d not in self.nodes:
                raise TopologyError(f'{p}: distance names unknown node {s} or {d}')
        if self.dist:
            for s in ids:
                for d in ids:
                    if s < d and (s, d) not in self.dist and (d, s) not in self.dist:
                        raise TopologyError(f'{p}: distance between {s} and {d} missing')
        for (i, t), vals in self.hmat.items():
            if not self.nodes.get(i, {}).get('cpus') or t not in self.nodes:
                raise TopologyError(f'{p}: hmat {i} {t}: initiator needs cpus, target must exist')
            missing = [x for x in LB_TYPES if x not in vals]
            if missing:
                raise TopologyError(f'{p}: hmat {i} {t}: missing {", ".join(missing)} '
                                    '(give all four: mixing types makes 6.12 report 0)')
        if self.hmat:
            for t in ids:
                for i in ids:
                    if self.nodes[i]['cpus'] and (i, t) not in self.hmat:
                        raise TopologyError(f'{p}: hmat entry missing for initiator {i} target {t}')
        for c in self.caches:
            if c['node'] not in self.nodes:
                raise TopologyError(f'{p}: cache on unknown node {c["node"]}')
        for n in self.memattr:
            if n not in self.nodes:
                raise TopologyError(f'{p}: memattr names unknown node {n}')
        for (i, t) in self.memattr_from:
            if t not in self.boot_nodes() or i not in self.nodes or not self.nodes[i]['cpus']:
                raise TopologyError(f'{p}: memattr {t}@{i}: the target must be online at '
                                    'boot and the initiator a node with cpus')
        self.validate_firmware()

    def validate_firmware(self):
        """NVDIMM and EFI-SP nodes have no memory at boot: they take the top ids."""
        p = self.path
        for n in self.nodes:
            node = self.nodes[n]
            if node['mem'] == 0 and n not in self.nvdimms and n not in self.dimms:
                raise TopologyError(f'{node["where"]}: node {n} has mem=0: only a node '
                                    'holding an nvdimm or a dimm may have no RAM')
        self.validate_dimms()
        for n, nv in self.nvdimms.items():
            node = self.nodes.get(n)
            if node is None:
                raise TopologyError(f'{nv["where"]}: nvdimm on unknown node {n}')
            if node['mem'] or node['cpus']:
                raise TopologyError(f'{nv["where"]}: the nvdimm node {n} needs mem=0 and no '
                                    'cpus (a node of its own, offline until kmem onlines it)')
        for n, where in self.efi_sp.items():
            node = self.nodes.get(n)
            if node is None:
                raise TopologyError(f'{where}: efi_sp names unknown node {n}')
            if node['cpus'] or n in self.nvdimms:
                raise TopologyError(f'{where}: efi_sp node {n} must be memory-only RAM '
                                    '(no cpus, no nvdimm)')
            size = self.nodes[n]['mem']
            if size < MEMORY_BLOCK or size % MEMORY_BLOCK:
                raise TopologyError(f'{where}: efi_sp node {n} needs a multiple of 128M '
                                    '(kmem onlines whole memory blocks)')
        if self.efi_sp and self.low_ram() >= PC_LOWMEM:
            raise TopologyError(f'{p}: with efi_sp, the boot nodes\' RAM must stay below '
                                '3.5G (it all goes below 4G, the efi_sp RAM above)')
        for n, rec in self.memattr.items():
            if n not in self.boot_nodes() and set(rec) != {'special'}:
                raise TopologyError(f'{p}: memattr on node {n}, which is offline at boot '
                                    '(nvdimm/efi_sp/dimm), may only say "special": the tests '
                                    'check other fields at boot only')
        ram = [n for n in self.nodes if self.nodes[n]['mem']]
        if self.nvdimms and ram and min(self.nvdimms) < max(ram):
            raise TopologyError(f'{p}: nvdimm nodes need ids above every node with RAM: '
                                'Linux numbers nodes in SRAT order, where QEMU lists RAM '
                                'before NVDIMMs')
        boot = self.boot_nodes()
        if boot != list(range(len(boot))):
            raise TopologyError(f'{p}: nodes with an nvdimm, efi_sp or dimm come online only at run '
                                'time and need the highest ids; boot nodes must be 0..K-1, '
                                f'got {boot}')

    def validate_dimms(self):
        """QEMU's SRAT gives the whole hotplug range to the last node.

        Linux numbers nodes in the order SRAT names them, and a node that SRAT
        never names gets the next free id only when its memory arrives: so the
        dimm's node must be the last one, the one SRAT names with the range.
        """
        for n, d in self.dimms.items():
            node = self.nodes.get(n)
            if node is None:
                raise TopologyError(f'{d["where"]}: dimm on unknown node {n}')
            if node['mem'] or node['cpus']:
                raise TopologyError(f'{d["where"]}: the dimm node {n} needs mem=0 and no cpus '
                                    '(a node of its own, without memory until it is onlined)')
            if n != max(self.nodes):
                raise TopologyError(f'{d["where"]}: the dimm node must be the last node: '
                                    'QEMU\'s SRAT gives the hotplug range to node '
                                    f'{max(self.nodes)}')
            if self.nvdimms or self.efi_sp:
                raise TopologyError(f'{d["where"]}: dimm with nvdimm or efi_sp in one '
                                    'topology: they share the device-memory slots, and '
                                    'distance rows list online nodes by position')

    def boot_nodes(self):
        """Nodes online at boot: all but those of nvdimm, efi_sp and dimm lines."""
        late = set(self.nvdimms) | set(self.efi_sp) | set(self.dimms)
        return [n for n in sorted(self.nodes) if n not in late]

    def low_ram(self):
        """RAM of the boot nodes: with efi_sp, QEMU's max-ram-below-4g."""
        return sum(self.nodes[n]['mem'] for n in self.boot_nodes())

    def ram_range(self, nid):
        """Guest-physical start and size of an efi_sp node's RAM.

        Boot nodes fill RAM below 4G; max-ram-below-4g puts the efi_sp nodes
        from 4G on, so that no firmware-reserved tail (SeaBIOS, ACPI tables at
        the top of low RAM) shares their SRAT range: 6.12's HMAT code creates
        the dax_hmem device only for a range that is soft reserved throughout.
        """
        start = FOUR_G + sum(self.nodes[n]['mem'] for n in sorted(self.efi_sp) if n < nid)
        return start, self.nodes[nid]['mem']

    def distance(self, s, d):
        if s == d:
            return LOCAL_DISTANCE
        if not self.dist:
            return 20       # ACPI default without SLIT
        return self.dist.get((s, d), self.dist.get((d, s)))

    def qemu_args(self):
        ids = sorted(self.nodes)
        total = sum(self.nodes[n]['mem'] for n in ids)
        ncpu = sum(len(self.nodes[n]['cpus']) for n in ids)
        machine = 'pc' + (',hmat=on' if self.hmat else '') + (',nvdimm=on' if self.nvdimms else '')
        if self.efi_sp:
            machine += f',max-ram-below-4g={self.low_ram() >> 20}M'
        mem = f'{total >> 20}M'
        plugged = list(self.nvdimms.values()) + list(self.dimms.values())
        if plugged:
            extra = sum(d['size'] for d in plugged)
            mem += f',slots={len(plugged)},maxmem={(total + extra) >> 20}M'
        # One socket per CPU node when they are alike: CPUs of different
        # nodes sharing a socket (and its LLC) make 6.12 warn at boot.
        cpu_nodes = [sorted(self.nodes[n]['cpus']) for n in ids if self.nodes[n]['cpus']]
        sockets = len(cpu_nodes)
        if sockets < 2 or any(len(c) != len(cpu_nodes[0]) for c in cpu_nodes) or \
                sum(cpu_nodes, []) != list(range(ncpu)):
            sockets = 1
        args = ['-machine', machine, '-m', mem,
                '-smp', f'{ncpu},sockets={sockets},cores={ncpu // sockets},threads=1']
        for n in ids:
            if self.nodes[n]['mem']:
                args += ['-object',
                         f'memory-backend-ram,id=m{n},size={self.nodes[n]["mem"] >> 20}M']
        for n in ids:
            node = self.nodes[n]
            spec = f'node,nodeid={n}' + (f',memdev=m{n}' if node['mem'] else '')
            if node['cpus']:
                spec += ',' + ','.join(f'cpus={c}' for c in sorted(node['cpus']))
            if self.hmat and node['initiator'] is not None:
                spec += f',initiator={node["initiator"]}'
            args += ['-numa', spec]
        for (s, d), v in sorted(self.dist.items()):
            args += ['-numa', f'dist,src={s},dst={d},val={v}']
        for (i, t), vals in sorted(self.hmat.items()):
            for typ in LB_TYPES:
                v = vals[typ]
                kind = 'latency' if typ.endswith('latency') else 'bandwidth'
                val = str(v) if kind == 'latency' else f'{v >> 20}M'
                args += ['-numa', f'hmat-lb,initiator={i},target={t},hierarchy=memory,'
                         f'data-type={typ},{kind}={val}']
        for c in self.caches:
            args += ['-numa', f'hmat-cache,node-id={c["node"]},size={c["size"] >> 20}M,'
                     f'level={c["level"]},associativity={c["associativity"]},'
                     f'policy={c["policy"]},line={c["line"]}']
        for n, nv in sorted(self.nvdimms.items()):
            # RAM-backed: every boot starts from a blank (label-less) NVDIMM.
            args += ['-object', f'memory-backend-ram,id=nv{n},size={nv["size"] >> 20}M',
                     '-device', f'nvdimm,id=nvdimm{n},memdev=nv{n},node={n}']
        for n, d in sorted(self.dimms.items()):
            # Cold-plugged: the guest's ACPI memory-hotplug driver adds it
            # while booting (offline), the tests online it.
            args += ['-object', f'memory-backend-ram,id=dimm{n},size={d["size"] >> 20}M',
                     '-device', f'pc-dimm,id=pcdimm{n},memdev=dimm{n},node={n}']
        return args

    def cmdline_words(self):
        words = []
        for n in sorted(self.efi_sp):
            start, size = self.ram_range(n)
            # Re-type the node's RAM (e820 type 1) as soft reserved, as the EFI
            # stub does for EFI_MEMORY_SP ranges.
            words.append(f'memmap={size >> 20}M%{start >> 20}M-1+{E820_SOFT_RESERVED}')
        if self.efi_sp:
            # dax_hmem leaves the range to an administrator (the test) instead
            # of handing it to kmem at boot, so its node stays offline until then.
            words.append('dax_hmem.region_idle=1')
        if self.dimms:
            # Hot-added memory stays offline until a test onlines it (6.12's
            # default too, said here so that a config change cannot alter it).
            words.append('memhp_default_state=offline')
        for n, rec in sorted(self.memattr.items()):
            items = [f'{f}={v}' for f, v in rec.items() if (n, f) not in self.applied]
            if items:
                words.append(f'memattr={n}:' + ','.join(items))
        for (i, t), rec in sorted(self.memattr_from.items()):
            words.append(f'memattr={t}@{i}:' + ','.join(f'{f}={v}' for f, v in rec.items()))
        return words + self.cmdline

    def expect(self):
        """Values as 6.12 reports them: latency ns, bandwidth MB/s (bytes >> 20)."""
        ids = self.boot_nodes()
        out = [f'topology {self.name}', 'nodes ' + ' '.join(map(str, ids)),
               'hmat ' + ('1' if self.hmat else '0')]
        for n in ids:
            node = self.nodes[n]
            cpus = ','.join(map(str, sorted(node['cpus']))) or '-'
            init = node['initiator'] if node['initiator'] is not None else -1
            out.append(f'node {n} cpus {cpus} mem_bytes {node["mem"]} initiator {init}')
        # A dimm's node is online from boot without memory (ACPI adds its
        # blocks, offline, while booting): distance rows show it too.
        online = sorted(ids + list(self.dimms))
        if self.dimms:
            out.append('online_empty ' + ' '.join(map(str, sorted(self.dimms))))
        for s in ids:
            out.append(f'distance {s} ' + ' '.join(str(self.distance(s, d)) for d in online))
        for n in ids:
            init = self.nodes[n]['initiator']
            vals = self.hmat.get((init, n))
            if not vals:
                continue
            out.append(f'access {n} initiator {init}'
                       f' read_latency {vals["read-latency"]}'
                       f' write_latency {vals["write-latency"]}'
                       f' read_bandwidth {vals["read-bandwidth"] >> 20}'
                       f' write_bandwidth {vals["write-bandwidth"] >> 20}')
        # Every pair HMAT describes: the view of each target from each initiator.
        for (i, t), vals in sorted(self.hmat.items()):
            out.append(f'view {i} {t}'
                       f' read_latency {vals["read-latency"]}'
                       f' write_latency {vals["write-latency"]}'
                       f' read_bandwidth {vals["read-bandwidth"] >> 20}'
                       f' write_bandwidth {vals["write-bandwidth"] >> 20}')
        for c in self.caches:
            out.append(f'cache {c["node"]} level {c["level"]} size {c["size"]}'
                       f' line_size {c["line"]} indexing {ASSOC[c["associativity"]]}'
                       f' write_policy {POLICY[c["policy"]]}')
        for n, rec in sorted(self.memattr.items()):
            out.append(f'memattr {n} ' + ' '.join(f'{f} {v}' for f, v in rec.items()))
        for (i, t), rec in sorted(self.memattr_from.items()):
            out.append(f'memattr_from {i} {t} ' + ' '.join(f'{f} {v}' for f, v in rec.items()))
        for n, nv in sorted(self.nvdimms.items()):
            out.append(f'nvdimm {n} size {nv["size"]}')
        for n in sorted(self.efi_sp):
            start, size = self.ram_range(n)
            out.append(f'efi_sp {n} start {start} size {size}')
        for n, d in sorted(self.dimms.items()):
            out.append(f'dimm {n} size {d["size"]}')
        out.append('cmdline ' + ' '.join(self.cmdline_words()))
        return out


def main(argv):
    if len(argv) != 3 or argv[1] not in ('qemu', 'cmdline', 'expect', 'check'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        topo = Topology(argv[2])
    except TopologyError as e:
        print(f'memattr: bad topology: {e}', file=sys.stderr)
        return 1
    if argv[1] == 'qemu':
        print('\n'.join(topo.qemu_args()))
    elif argv[1] == 'cmdline':
        print(' '.join(topo.cmdline_words()))
    elif argv[1] == 'expect':
        print('\n'.join(topo.expect()))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
