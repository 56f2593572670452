#!/usr/bin/env bash
# Runs a command and prints its wall clock and the CPU time the whole machine was busy meanwhile
# (from /proc/stat, so every process counts: spawned servers, the browser's processes), e.g.
#   bash scripts/busy-cpu.sh npm test
# docs/testing.md ("Timings") quotes figures taken this way on a quiet machine.
read -r _ u n s _ _ q sq st _ < /proc/stat; b0=$((u + n + s + q + sq + st)); t0=$(date +%s%N)
"$@"; rc=$?
read -r _ u n s _ _ q sq st _ < /proc/stat; b1=$((u + n + s + q + sq + st)); t1=$(date +%s%N)
echo "# exit $rc; wall clock $(( (t1 - t0) / 1000000 )) ms; machine busy $(( (b1 - b0) / $(getconf CLK_TCK) )) CPU-s" >&2
exit $rc
