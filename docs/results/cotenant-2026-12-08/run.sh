#!/bin/sh
# The co-tenant in blocks (docs/results/cotenant-2026-12-08.md): the same
# runs as 2026-12-07's run.sh, each duty measured in four blocks of the step
# loop alone and then beside a co-tenant started for the block (8 + 8
# samples a block). OUT: where cotenant.tgz goes.
P="gpu.sync weight_pct=25 sched=spin,blocking blocks=4 --reps 32" LIM=300 \
	exec sh "$(dirname "$0")/../cotenant-2026-12-07/run.sh"
