# SPDX-License-Identifier: GPL-2.0
# memattr: top-level entry points. Everything is built under build/.
#   make run     build, boot the default topology, show its nodes
#   make check   every test; ends with "N passed, N failed, N skipped"
#   make check-debug  KUnit and the selftests under the debug kernel
#   make bench   the tiering benchmark, then the allocator and tool costs
#                (BENCH_QUICK=1: about 15 minutes); make bench-cost: the costs only
#   make bench-results  make bench, then commit-ready: its tables copied to
#                harness/bench/results/ (tiering.txt, cost.txt) and the
#                cover letter's numbers regenerated from them
#   make bench-knobs  kmemattrd's knob grid against its defaults, every
#                scenario (about 20 minutes): harness/bench/results/knobs.txt
#   make series  the patch series, git-am-able, in build/series/patches/
#   make series-check  every patch applies, is checkpatch-clean, and every
#                prefix builds with and without CONFIG_MEMATTR

TOPOLOGY ?= default
H := harness

.PHONY: run check check-debug bench bench-results bench-cost bench-daemon-scale bench-knobs series series-check deps base tree kernel userspace initramfs vm clean distclean

run: deps
	$(H)/run.sh $(TOPOLOGY)

check: deps
	$(H)/check.sh $(TOPOLOGIES)

# The debug kernel (lockdep, KASAN, DEBUG_VM) on every topology.
check-debug: deps
	$(H)/check.sh --debug $(TOPOLOGIES)

# Tiering baselines side by side; results and report under build/bench/.
bench: deps kernel initramfs
	$(H)/kernel.sh --base
	$(H)/bench-tier.sh
	$(H)/bench-cost.sh 2

# The full run's table into the repository and into the cover letter.
bench-results: bench
	mkdir -p $(H)/bench/results
	cp build/bench/results.txt $(H)/bench/results/tiering.txt
	cp build/bench/report.txt $(H)/bench/results/tiering-report.txt
	cp build/bench/cost.txt $(H)/bench/results/cost.txt
	python3 $(H)/series.py cover

# Allocator and tool costs only, under -icount (ROUNDS boots of each)
bench-cost: deps kernel initramfs
	$(H)/kernel.sh --base
	$(H)/bench-cost.sh $(ROUNDS)

# kmemattrd's CPU per pass and metadata at 1, 4 and 16 GiB of slow memory.
bench-daemon-scale: deps kernel initramfs
	$(H)/bench-daemon-scale.sh

# kmemattrd with one knob changed at a time against its defaults.
bench-knobs: deps kernel initramfs
	BENCH_GRID=1 BENCH_OUT=build/bench-knobs $(H)/bench-tier.sh
	cp build/bench-knobs/knobs.txt $(H)/bench/results/knobs.txt

# The series is derived from our files, patches/ and series/grouping.
series: deps
	$(H)/series.sh

series-check: deps initramfs
	$(H)/series-check.sh

deps:
	@$(H)/deps.sh

base: deps
	$(H)/base.sh

tree: deps
	$(H)/tree.sh

kernel: deps
	$(H)/kernel.sh

userspace: deps
	$(H)/userspace.sh

initramfs: deps userspace
	$(H)/initramfs.sh

# Interactive-free shell command in a topology: make vm CMD='cat /proc/vmstat'
vm: kernel initramfs
	$(H)/vm --topology $(TOPOLOGY) -- sh -c '$(CMD)'

clean:
	rm -rf build/obj build/src build/stage build/obj.cfg build/obj-base build/obj-base.cfg build/bzImage-base build/obj-debug build/obj-debug.cfg build/bzImage-debug build/obj-nodes2 build/obj-nodes2.cfg build/bzImage-nodes2 build/selftests build/guest-bin \
		build/bzImage build/initramfs.* build/logs build/series

distclean:
	rm -rf build
