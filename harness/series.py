#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Derive the patch series from our files, patches/ and series/grouping.

  series.py export BASE STAGE OUT   commits in OUT/git, mail in OUT/patches
  series.py am BASE STAGE OUT REPO  git am OUT/patches onto REPO (a git tree
                                    of the pristine base, or of the files the
                                    series touches), then compare with STAGE
  series.py states DIR              write the files series/stages/ changes,
                                    as each stage patch finds and leaves them,
                                    into DIR/0-first, DIR/1-<stage>, ...
  series.py restage DIR             rewrite series/stages/*.patch from DIR
                                    (after editing the states there)
  series.py cover [--check]         rewrite the benchmark block of
                                    series/cover-letter from the committed
                                    results (harness/bench/results/); --check:
                                    only say whether the two agree

Stage patches (series/stages/, named by "Stage:" in series/grouping) let one
of our files grow over several patches: a patch that takes the file whole
takes it as it was before every later stage, each stage patch applies its
change forward in its own patch, and the last one leaves our file as it is.
If an edit to our file makes a stage stop applying, run "states", make the
same edit in the states it belongs to, and run "restage".

BASE is the pristine kernel source, STAGE what harness/tree.sh staged (the
files the harness builds with, final state). Exported commits start from a
sparse root commit that holds only the base files the series touches: patch
text, blob ids included, is the same as on a full tree, and it takes seconds.
Prints PASS/FAIL lines (the harness's result format) and exits non-zero on
any FAIL.
"""
import fnmatch
import os
import re
import shutil
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OVERLAY_DIRS = "arch block drivers fs include init kernel lib mm Documentation tools".split()
DATE = "2026-12-04T00:00:00+00:00"	# fixed: the same tree gives the same mail


class SeriesError(Exception):
    pass


def git(repo, *args, env=None, inp=None):
    r = subprocess.run(["git", "-C", repo] + list(args), input=inp, text=True,
                       capture_output=True, env=env)
    if r.returncode:
        raise SeriesError("git %s: %s" % (" ".join(args), r.stderr.strip() or r.stdout.strip()))
    return r.stdout


def overlay_files():
    out = subprocess.run(["git", "-C", TOP, "ls-files", "--cached", "--others",
                          "--exclude-standard", "--"] + OVERLAY_DIRS,
                         capture_output=True, text=True, check=True).stdout
    return sorted(f for f in out.split() if os.path.isfile(os.path.join(TOP, f)))


def patch_order():
    names = []
    with open(os.path.join(TOP, "patches", "series")) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                names.append("patches/" + line)
    return names


HUNK = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")


def sections(path):
    """The per-file sections of one patch file: {target: text}, in order."""
    with open(os.path.join(TOP, path)) as f:
        lines = f.read().split("\n")
    out, i = {}, 0
    while i < len(lines):
        if not (lines[i].startswith("--- ") and i + 1 < len(lines) and
                lines[i + 1].startswith("+++ b/")):
            i += 1
            continue
        target = lines[i + 1][6:].split("\t")[0].strip()
        start, i = i, i + 2
        while i < len(lines):
            m = HUNK.match(lines[i])
            if not m:
                break
            old = int(m.group(1) or 1)
            new = int(m.group(2) or 1)
            i += 1
            while old > 0 or new > 0:
                if i >= len(lines):
                    raise SeriesError("%s: hunk for %s ends early" % (path, target))
                tag = lines[i][:1]
                if tag in (" ", ""):
                    old, new = old - 1, new - 1
                elif tag == "-":
                    old -= 1
                elif tag == "+":
                    new -= 1
                elif tag != "\\":
                    raise SeriesError("%s: bad line in hunk for %s: %r" % (path, target, lines[i]))
                i += 1
            while i < len(lines) and lines[i].startswith("\\"):
                i += 1
        if target in out:
            raise SeriesError("%s touches %s twice" % (path, target))
        out[target] = "\n".join(lines[start:i]) + "\n"
    if not out:
        raise SeriesError("%s has no diff" % path)
    return out


def parse_grouping():
    """[(files, [(patch, target)], [stage], message)] and the From: address."""
    with open(os.path.join(TOP, "series", "grouping")) as f:
        text = f.read()
    stanzas = text.split("\n%%\n")
    preamble = [ln for ln in stanzas[0].split("\n") if ln and not ln.startswith("#")]
    author = None
    for ln in preamble:
        if ln.startswith("From: "):
            author = ln[6:].strip()
    if not author:
        raise SeriesError("series/grouping: no From: line before the first %%")
    files = overlay_files()
    order = patch_order()
    secs = {p: sections(p) for p in order}
    used_files, used_secs, used_stages, out = {}, {}, {}, []
    for n, st in enumerate(stanzas[1:], 1):
        takes, stages, msg = [], [], None
        lines = st.strip("\n").split("\n")
        for k, ln in enumerate(lines):
            if ln.startswith("Take:"):
                takes.append(ln[5:].split())
            elif ln.startswith("Stage:"):
                for st_path in ln[6:].split():
                    if not st_path.startswith("series/stages/") or \
                       not os.path.isfile(os.path.join(TOP, st_path)):
                        raise SeriesError("patch %d: no stage patch %s" % (n, st_path))
                    if st_path in used_stages:
                        raise SeriesError("%s is in patches %d and %d" %
                                          (st_path, used_stages[st_path], n))
                    used_stages[st_path] = n
                    stages.append(st_path)
            elif ln.startswith("Subject: "):
                msg = ln[9:] + "\n" + "\n".join(lines[k + 1:]).rstrip() + "\n"
                break
            elif ln.strip() and not ln.startswith("#"):
                raise SeriesError("series/grouping patch %d: unexpected line %r" % (n, ln))
        if msg is None:
            raise SeriesError("series/grouping patch %d: no Subject:" % n)
        if "\nSigned-off-by: %s\n" % author not in msg:
            raise SeriesError("series/grouping patch %d: no Signed-off-by: %s" % (n, author))
        mine, pieces = [], []
        for take in takes:
            if take[0].startswith("patches/"):
                p = take[0]
                if p not in secs:
                    raise SeriesError("patch %d takes %s, which patches/series does not list" % (n, p))
                for t in take[1:] or list(secs[p]):
                    if t not in secs[p]:
                        raise SeriesError("patch %d: %s does not touch %s" % (n, p, t))
                    if (p, t) in used_secs:
                        raise SeriesError("%s's section for %s is in patches %d and %d" %
                                          (p, t, used_secs[(p, t)], n))
                    used_secs[(p, t)] = n
                    pieces.append((p, t))
                continue
            for pat in take:
                hit = [f for f in files if fnmatch.fnmatchcase(f, pat)]
                if not hit:
                    raise SeriesError("patch %d: %s matches none of our files" % (n, pat))
                for f in hit:
                    if f in used_files:
                        raise SeriesError("%s is in patches %d and %d" % (f, used_files[f], n))
                    used_files[f] = n
                    mine.append(f)
        for st_path in stages:
            for t in sections(st_path):
                if used_files.get(t, n) >= n:
                    raise SeriesError("patch %d: %s changes %s, which no earlier patch "
                                      "takes" % (n, st_path, t))
        out.append((mine, pieces, stages, msg))
    missing = [f for f in files if f not in used_files]
    missing += ["%s (%s)" % (t, p) for p in order for t in secs[p] if (p, t) not in used_secs]
    stage_dir = os.path.join(TOP, "series", "stages")
    if os.path.isdir(stage_dir):
        missing += ["series/stages/" + f for f in sorted(os.listdir(stage_dir))
                    if "series/stages/" + f not in used_stages]
    if missing:
        raise SeriesError("series/grouping leaves out: " + ", ".join(missing))
    # Sections of one file must keep patches/series order: each applies on
    # top of the ones before it.
    last = {}
    for n, (_, pieces, _, _) in enumerate(out, 1):
        for p, t in pieces:
            if last.get(t, -1) > order.index(p):
                raise SeriesError("patch %d takes %s's section for %s after a later patch's" %
                                  (n, p, t))
            last[t] = order.index(p)
    return author, out, secs


def env_for(author):
    name, mail = re.match(r"(.*?)\s*<(.*)>", author).groups()
    env = dict(os.environ)
    env.update(GIT_AUTHOR_NAME=name, GIT_AUTHOR_EMAIL=mail, GIT_AUTHOR_DATE=DATE,
               GIT_COMMITTER_NAME=name, GIT_COMMITTER_EMAIL=mail, GIT_COMMITTER_DATE=DATE)
    return env


def sparse_base(base, groups, secs, repo, env):
    """A git repo whose root commit holds the base files the series touches."""
    shutil.rmtree(repo, ignore_errors=True)
    os.makedirs(repo)
    git(repo, "init", "-q", "-b", "series")
    touched = {t for _, pieces, _, _ in groups for _, t in pieces}
    touched |= {f for files, _, _, _ in groups for f in files}
    for f in sorted(touched):
        src = os.path.join(base, f)
        if os.path.exists(src):
            os.makedirs(os.path.dirname(os.path.join(repo, f)), exist_ok=True)
            shutil.copy2(src, os.path.join(repo, f))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base: the linux-source-6.12 files the series touches",
        env=env)


def apply_diff(where, diff, what, reverse=False, fuzz=True):
    """patch(1) as harness/tree.sh applies patches/; stages without fuzz:
    a stage that no longer fits our file must not half-fit."""
    args = ["patch", "-d", where, "-p1", "-s", "--no-backup-if-mismatch", "--batch"]
    if not fuzz:
        args.append("--fuzz=0")
    r = subprocess.run(args + (["-R"] if reverse else ["-N"]), input=diff, text=True,
                       capture_output=True)
    if r.returncode:
        raise SeriesError("%s does not apply%s: %s" % (what, " in reverse" if reverse else "",
                                                       (r.stdout + r.stderr).strip()))


def first_states(groups, where):
    """Copy the files stage patches change into WHERE, as before the first."""
    stages = [st for _, _, sts, _ in groups for st in sts]
    for st in stages:
        for t in sections(st):
            dst = os.path.join(where, t)
            if not os.path.exists(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                shutil.copy2(os.path.join(TOP, t), dst)
    for st in reversed(stages):
        apply_diff(where, "".join(sections(st).values()), st, reverse=True, fuzz=False)
    return stages


def export(base, out):
    author, groups, secs = parse_grouping()
    env = env_for(author)
    repo = os.path.join(out, "git")
    sparse_base(base, groups, secs, repo, env)
    git(repo, "tag", "base")
    early = os.path.join(out, "stages")
    shutil.rmtree(early, ignore_errors=True)
    os.makedirs(early)
    first_states(groups, early)
    for n, (files, pieces, stages, msg) in enumerate(groups, 1):
        what = "patch %d (%s)" % (n, msg.split("\n")[0])
        if pieces:
            apply_diff(repo, "".join(secs[p][t] for p, t in pieces), what)
        for f in files:
            dst = os.path.join(repo, f)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            src = os.path.join(early, f)
            shutil.copy2(src if os.path.exists(src) else os.path.join(TOP, f), dst)
        for st in stages:
            apply_diff(repo, "".join(sections(st).values()), "%s's %s" % (what, st),
                       fuzz=False)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-F", "-", env=env, inp=msg)
    with open(os.path.join(TOP, "series", "cover-letter")) as f:
        cover = "".join(ln for ln in f if ln.rstrip("\n") not in
                        (BENCH_BEGIN, BENCH_END, COST_BEGIN, COST_END,
                                         SCALE_BEGIN, SCALE_END))
    git(repo, "config", "branch.series.description", cover)
    mail = os.path.join(out, "patches")
    shutil.rmtree(mail, ignore_errors=True)
    git(repo, "format-patch", "-q", "--cover-letter", "--cover-from-description=subject",
        "--no-signature", "-o", mail, "base..series", env=env)
    return repo, len(groups)


def same_as_stage(repo, stage, label):
    """Every staged file equals the series' final state: no drift."""
    bad = []
    for root, _, names in os.walk(stage):
        for nm in names:
            f = os.path.relpath(os.path.join(root, nm), stage)
            mine = os.path.join(repo, f)
            if not os.path.isfile(mine):
                bad.append(f + " (missing)")
                continue
            with open(mine, "rb") as a, open(os.path.join(stage, f), "rb") as b:
                if a.read() != b.read():
                    bad.append(f)
    if bad:
        print("FAIL %s (differs from the tree the harness builds: %s)" % (label, ", ".join(bad[:8])))
        return False
    print("PASS %s" % label)
    return True


def am(base, stage, out, target):
    """git am the exported mail onto TARGET (created sparse if missing)."""
    author, groups, secs = parse_grouping()
    env = env_for(author)
    if not os.path.isdir(os.path.join(target, ".git")):
        sparse_base(base, groups, secs, target, env)
    mail = sorted(os.path.join(out, "patches", f) for f in os.listdir(os.path.join(out, "patches"))
                  if not f.startswith("0000-"))
    r = subprocess.run(["git", "-C", target, "am", "-q", "--whitespace=error"] + mail,
                       capture_output=True, text=True, env=env)
    if r.returncode:
        subprocess.run(["git", "-C", target, "am", "--abort"], capture_output=True)
        print("FAIL series/git-am (%s)" % (r.stdout + r.stderr).strip().split("\n")[0])
        return False
    print("PASS series/git-am (%d patches)" % len(mail))
    return same_as_stage(target, stage, "series/equals-tree")


def stage_name(path):
    return os.path.basename(path)[:-len(".patch")]


def states(where):
    """DIR/0-first, DIR/1-<stage>, ...: the staged files around each stage."""
    _, groups, _ = parse_grouping()
    shutil.rmtree(where, ignore_errors=True)
    first = os.path.join(where, "0-first")
    os.makedirs(first)
    prev = first
    for k, st in enumerate(first_states(groups, first), 1):
        nxt = os.path.join(where, "%d-%s" % (k, stage_name(st)))
        shutil.copytree(prev, nxt)
        apply_diff(nxt, "".join(sections(st).values()), st, fuzz=False)
        prev = nxt
    print("PASS series/states (in %s)" % where)
    return True


def restage(where):
    """Rewrite each stage patch as the diff between two states in WHERE."""
    _, groups, _ = parse_grouping()
    stages = [st for _, _, sts, _ in groups for st in sts]
    dirs = [os.path.join(where, "0-first")]
    dirs += [os.path.join(where, "%d-%s" % (k, stage_name(st))) for k, st in enumerate(stages, 1)]
    for root, _, names in os.walk(dirs[-1]):
        for nm in names:
            f = os.path.relpath(os.path.join(root, nm), dirs[-1])
            with open(os.path.join(root, nm), "rb") as a, open(os.path.join(TOP, f), "rb") as b:
                if a.read() != b.read():
                    raise SeriesError("%s: the last state differs from our file; copy it "
                                      "there first" % f)
    texts = []
    for st, prev, nxt in zip(stages, dirs, dirs[1:]):
        text = ""
        for root, _, names in sorted(os.walk(nxt)):
            for nm in sorted(names):
                f = os.path.relpath(os.path.join(root, nm), nxt)
                r = subprocess.run(["diff", "-up", "--label", "a/" + f, "--label", "b/" + f,
                                    os.path.join(prev, f), os.path.join(nxt, f)],
                                   capture_output=True, text=True)
                if r.returncode > 1:
                    raise SeriesError("diff %s: %s" % (f, r.stderr.strip()))
                text += r.stdout
        if not text:
            raise SeriesError("%s would be empty" % st)
        texts.append(text)
    # Nothing is written until every stage could be made.
    for st, text in zip(stages, texts):
        with open(os.path.join(TOP, st), "w") as f:
            f.write(text)
    print("PASS series/restage (%d stage patches)" % len(stages))
    return True


# The cover letter's benchmark numbers come from the committed results
# table, never from a keyboard: between these two lines, series/cover-letter
# holds what render_bench() makes of the table; export drops the two lines.
BENCH_RESULTS = "harness/bench/results/tiering.txt"
BENCH_BEGIN = "[bench: made from %s by python3 harness/series.py cover]" % BENCH_RESULTS
BENCH_END = "[bench: end]"
BENCH_NAMES = {
    "s1": "S1 one task, scattered 10% hot set, fast DRAM free",
    "s2": "S2 CPU-less HBM-like node fastest (beyond NUMA balancing: it "
          "promotes only to the faulting CPU's node)",
    "s3": "S3 hot set shifts, fast node nearly full (T90 from the shift)",
    "s4": "S4 page cache read with pread(2) (beyond NUMA balancing: its "
          "shared mapping, kept for move_pages(2), is touched once, so no "
          "hint fault)",
    "s5": "S5 three processes share the region",
    "s1c": "S1c contiguous hot set",
    "s1z": "S1z Zipf-like skew inside the hot set",
    "sb": "SB sysbench memory (Debian's), Pareto-skewed random writes, "
          "buffer moved to the slow node; hot set = its first 20%",
    "bind": "BIND S1 with the task bound (MPOL_BIND) to the slow node",
}
BENCH_SHOWN = ("memattr", "memattr-nb2", "nb2", "nb2-base", "damon-tuned", "damon-plain")


def read_results(path):
    """(header lines, {(scenario, config): {column: text}})"""
    header, cells, cols, tax_cols = [], {}, None, None
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# scenario config | "):
                cols = line[len("# scenario config | "):].split(" | ")
            elif line.startswith("# -icount tax on S1: tax config | "):
                tax_cols = line.split("tax config | ", 1)[1].split(" | ")
            elif line.startswith("#"):
                header.append(line[1:].strip())
            elif line.strip():
                key, *vals = line.split(" | ")
                names = tax_cols if key.startswith("tax ") else cols
                if not names or len(vals) != len(names):
                    raise SeriesError("%s: bad line %r" % (path, line))
                cells[tuple(key.split())] = dict(zip(names, vals))
    return header, cells


def render_bench(path):
    """The cover letter's benchmark block, from the results table."""
    import textwrap
    header, cells = read_results(path)
    made = next((h for h in header if h.startswith("tree:")), "tree: unknown")
    setup = next((h for h in header if h.startswith("region")), "")
    out = textwrap.wrap("make bench, QEMU TCG with emulated HMAT (%s; %s). "
                        "Each cell: median (min-max) over its runs; n.r.: 90%% "
                        "never reached, counted as the longest; est.: access time "
                        "estimated from the HMAT latencies kmemattrd itself ranks "
                        "nodes by, not measured (TCG runs every node at the same "
                        "speed); ideal: the whole hot set on the best node; CPU: "
                        "the page-moving threads + the workload's system time in "
                        "the steady state, %% of one vCPU; ops: the workload's "
                        "throughput over that of none in the same boot (plain "
                        "TCG, so noisy: hence the range)." %
                        (made, setup), 72)
    for scen, title in BENCH_NAMES.items():
        rows = [(c, cells[(scen, c)]) for c in BENCH_SHOWN if (scen, c) in cells]
        if not rows:
            continue
        out.append("")
        out += textwrap.wrap(title, 72)
        for config, v in rows:
            # the unit after the median: "8.0 s (6.0-n.r.; 2 of 5 n.r.)"
            med, _, rest = v["T90"].partition(" ")
            t90 = med if med == "n.r." else med + " s"
            t90 += " " + rest if rest else ""
            text = "T90 %s, final %s, cold moved %s%%, est. access %sx the " \
                   "ideal, CPU %s + %s%%, %s TLB IPIs/s, %s migrations/hot page, " \
                   "ops %sx none's" % (
                       t90, v["final"], v["cold%"], v["est./ideal"], v["kthr-ss%"],
                       v["sys-ss%"], v["tlb/s"], v["migr/hot"], v["ops/none"])
            extra = v.get("extra", "")
            said = {"sb/none": "sysbench MiB/s over none",
                    "left%": "pages off the bound node %",
                    "shift-migr/hot": "migrations/hot page from the shift on"}
            for k, what in said.items():
                m = re.search(r"%s=(\S+)" % re.escape(k), extra)
                if m:
                    text += ", %s %s" % (what, m.group(1).replace("(", " ("))
            out += textwrap.wrap(text, 72, initial_indent="  %-12s " % config,
                                 subsequent_indent=" " * 15)
    tax = [(c, cells[("tax", c)]) for c in ("memattr", "memattr-nb2", "nb2", "damon-tuned",
                                            "damon-plain") if ("tax", c) in cells]
    if tax:
        out.append("")
        out += textwrap.wrap("Throughput tax under QEMU -icount (S1, 256 MiB; guest time "
                             "counts instructions): " + "; ".join(
                                 "%s %s%%" % (c, v["tax%"]) for c, v in tax) + ".", 72)
    return out


# The allocator's costs (make bench-cost's report), the same way.
COST_RESULTS = "harness/bench/results/cost.txt"
COST_BEGIN = "[cost: made from %s by python3 harness/series.py cover]" % COST_RESULTS
COST_END = "[cost: end]"
COST_NAMES = (("plain", "with nothing configured"),
              ("special", "with node 3 special"),
              ("bound", "for a task bound to nodes {0,3}, node 3 special"))


def render_cost(path):
    """The cover letter's allocator-cost lines, from bench-cost's report."""
    import textwrap
    ratio, rebuild = {}, []
    with open(path) as f:
        for line in f:
            words = line.split()
            if words and words[0] in dict(COST_NAMES) and len(words) >= 6:
                ratio[words[0]] = words[-1]
            elif line.startswith("nodes "):
                m = re.match(r"nodes (\d+) zonelist rebuild median (\d+) us", line)
                if m:
                    rebuild.append("%s us at %s nodes" % (m.group(2), m.group(1)))
    missing = [c for c, _ in COST_NAMES if c not in ratio]
    if missing or not rebuild:
        raise SeriesError("%s: no ratio for %s or no rebuild line" %
                          (path, ", ".join(missing) or "-"))
    text = ("make bench-cost (page faults under QEMU -icount, i.e. instructions, "
            "not cache misses; patched/base, median of the boots): " +
            "; ".join("%s %s" % (ratio[c], what) for c, what in COST_NAMES) +
            ". Zonelist rebuilds (a write to a special or fallback file), "
            "instruction time: " + ", ".join(rebuild) + ".")
    return textwrap.wrap(text, 72, initial_indent="- ", subsequent_indent="  ")


# kmemattrd's cost against memory size (make bench-daemon-scale), the same way.
SCALE_RESULTS = "harness/bench/results/daemon-scale.txt"
SCALE_BEGIN = "[scale: made from %s by python3 harness/series.py cover]" % SCALE_RESULTS
SCALE_END = "[scale: end]"
SCALE_NAMES = (("anon", "anonymous memory"), ("cache", "page cache read with pread(2)"))


def render_scale(path):
    """The cover letter's kmemattrd-cost line, from bench-daemon-scale's table."""
    import textwrap
    tree, rows, holds = "unknown", {}, []
    with open(path) as f:
        for line in f:
            if line.startswith("# tree: "):
                tree = line[len("# tree: "):].strip()
            elif line.strip() and not line.startswith("#"):
                cols = [w.strip() for w in line.split("|")]
                workload, gib, per_pass, meta = cols[0], cols[1], cols[4], cols[6]
                hold = cols[7] if len(cols) > 7 else None
                rows.setdefault(workload, []).append((int(gib), float(per_pass), int(meta)))
                holds.append((workload, int(gib), hold))
    parts = []
    for workload, what in SCALE_NAMES:
        got = sorted(rows.get(workload, []))
        if len(got) < 2:
            raise SeriesError("%s: fewer than two sizes for %s" % (path, workload))
        parts.append("%s: %s ms (%.2fx from %d to %d GiB)" % (
            what, ", ".join("%.1f" % p for _, p, _ in got),
            got[-1][1] / got[0][1], got[0][0], got[-1][0]))
    sizes = sorted(rows[SCALE_NAMES[0][0]])
    text = ("make bench-daemon-scale (%s): kmemattrd's CPU per pass with the same "
            "256 MiB workload on a slow node of %s GiB, %s; metadata %s bytes." % (
                tree, ", ".join(str(g) for g, _, _ in sizes), "; ".join(parts),
                ", ".join(str(m) for _, _, m in sizes)))
    known = [(w, int(h)) for w, _, h in holds if h and h.isdigit()]
    small = [h for w, h in known if w != "anon-2g"]
    big = [h for w, h in known if w == "anon-2g"]
    if small:
        text += (" Longest mmap_lock hold of a pass (nobody waiting for the lock;"
                 " a waiter gets it within 4096 entries): %d us with the 256 MiB"
                 " workload" % max(small))
        text += ", %d us with a 2 GiB mm." % max(big) if big else "."
    return textwrap.wrap(text, 72, initial_indent="- ", subsequent_indent="  ")


# The knob grid (make bench-knobs): how far the best setting beats the defaults.
KNOBS_RESULTS = "harness/bench/results/knobs.txt"
KNOBS_BEGIN = "[knobs: made from %s by python3 harness/series.py cover]" % KNOBS_RESULTS
KNOBS_END = "[knobs: end]"


def render_knobs(path):
    """The cover letter's out-of-the-box line, from bench-knobs' table."""
    import textwrap
    tree, grid, rows, reps, sampling = "unknown", "unknown", [], "?", "1000 ms"
    with open(path) as f:
        for line in f:
            if line.startswith("# tree: "):
                tree = line[len("# tree: "):].strip()
            elif line.startswith("# grid: "):
                grid = line[len("# grid: "):].strip()
            elif line.startswith("# region ") and "repetition(s)" in line:
                reps = line.split("repetition(s)")[0].split()[-1]
            elif line.startswith("# samples every "):
                sampling = line[len("# samples every "):].split()[0] + " ms"
            elif line.strip() and not line.startswith("#") and "|" in line:
                cols = [w.strip() for w in line.split("|")]
                final = [w.strip() for w in cols[7].split(",")]
                rows.append((cols[0], float(cols[1]), cols[2], float(cols[3]),
                             float(cols[4]), final[0] == final[1]))
    if not rows or grid == "unknown":
        raise SeriesError("%s: no scenario rows or no '# grid:' line" % path)
    worst = max(rows, key=lambda r: r[4])
    text = ("make bench-knobs (%s; %s repetition(s), placement sampled every %s): "
            "the hot set's estimated access time averaged "
            "over the run, over the ideal, with the default knobs and (after the "
            "slash) with the best point of a grid (%s; one knob changed at a time) "
            "among those with steady-state CPU within 2%%, no more cold pages moved "
            "and at most 1.1x the migrations of the defaults: %s. The largest "
            "gap: %s, %.1f%% (%s). Final placement: the same with the defaults "
            "as with the best point in %d of %d scenarios." % (
                tree, reps, sampling, grid, "; ".join("%s %.2f/%.2f" % (r[0], r[1], r[3]) for r in rows),
                worst[0], worst[4], worst[2], sum(r[5] for r in rows), len(rows)))
    return textwrap.wrap(text, 72, initial_indent="- ", subsequent_indent="  ")


def cover(check):
    """Rewrite (or, with @check, compare) every generated block."""
    path = os.path.join(TOP, "series", "cover-letter")
    with open(path) as f:
        lines = f.read().split("\n")
    ok = True
    for begin, end, results, render in (
            (BENCH_BEGIN, BENCH_END, BENCH_RESULTS, render_bench),
            (COST_BEGIN, COST_END, COST_RESULTS, render_cost),
            (SCALE_BEGIN, SCALE_END, SCALE_RESULTS, render_scale),
            (KNOBS_BEGIN, KNOBS_END, KNOBS_RESULTS, render_knobs)):
        if begin not in lines or end not in lines:
            print("FAIL series/cover (series/cover-letter has no %r ... %r block)" %
                  (begin, end))
            return False
        a, b = lines.index(begin), lines.index(end)
        block = render(os.path.join(TOP, results))
        if check:
            if lines[a + 1:b] != block:
                print("FAIL series/cover (series/cover-letter's numbers differ from %s: "
                      "run python3 harness/series.py cover)" % results)
                ok = False
            else:
                print("PASS series/cover (the cover letter quotes %s)" % results)
            continue
        lines = lines[:a + 1] + block + lines[b:]
        print("PASS series/cover (block rewritten from %s)" % results)
    if not check:
        with open(path, "w") as f:
            f.write("\n".join(lines))
    return ok


def main():
    if len(sys.argv) in (2, 3) and sys.argv[1] == "cover":
        try:
            ok = cover(sys.argv[2:] == ["--check"])
        except (SeriesError, OSError, KeyError) as e:
            print("FAIL series/cover (%s)" % e)
            ok = False
        sys.exit(0 if ok else 1)
    if len(sys.argv) == 3 and sys.argv[1] in ("states", "restage"):
        try:
            ok = (states if sys.argv[1] == "states" else restage)(sys.argv[2])
        except SeriesError as e:
            print("FAIL series/%s (%s)" % (sys.argv[1], e))
            ok = False
        sys.exit(0 if ok else 1)
    if len(sys.argv) < 5 or sys.argv[1] not in ("export", "am"):
        sys.exit(__doc__)
    base, stage, out = sys.argv[2:5]
    try:
        if sys.argv[1] == "export":
            repo, n = export(base, out)
            print("PASS series/export (%d patches in %s)" % (n, os.path.join(out, "patches")))
            ok = True
        else:
            ok = am(base, stage, out, sys.argv[5])
    except SeriesError as e:
        print("FAIL series/%s (%s)" % (sys.argv[1], e))
        ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
