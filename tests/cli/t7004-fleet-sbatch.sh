# The sbatch script of docs/fleet.md, run as written with srun replaced by a
# shell function: with MPI it starts two ranks through mpirun (the smallest
# latency sweep), so the script's mempath line goes through the real parser
# and makes a fleet file; without MPI the same line must fail only for the
# missing MPI, never for an option.
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
command -v bash >/dev/null 2>&1 || skip "no bash for the sbatch script"
sed -n '/<!-- sbatch:begin -->/,/<!-- sbatch:end -->/p' "$top/docs/fleet.md" |
	sed '1,2d; $d' | sed '$d' >fleet.sbatch
head -1 fleet.sbatch | grep -q '^#!/bin/bash' || fail "no script between the markers: $(head -3 fleet.sbatch)"
grep -q '^srun ' fleet.sbatch || fail "the script has no srun line"
mkdir bin
ln -s "$MEMPATH" bin/mempath
cat >srun.sh <<'S'
# srun's own options are dropped; the rest is the command
srun() {
	while [ $# -gt 0 ]; do
		case $1 in -*) shift ;; *) break ;; esac
	done
	if command -v mpirun >/dev/null 2>&1 && [ "${NO_MPI:-0}" = 0 ]; then
		mpirun --allow-run-as-root --oversubscribe -np 2 "$@"
	else
		"$@"
	fi
}
S
small="--only cpu.latency --reps 6 --warmups 0 sizes=16K pages=4k order=random"
# the script as written (BASH_ENV defines srun before the script runs)
if ! "$MEMPATH" fleet $small -o probe.json 2>&1 </dev/null | grep -q 'built without MPI' &&
	command -v mpirun >/dev/null 2>&1; then
	PATH=$PWD/bin:$PATH SLURM_JOB_ID=42 BASH_ENV=$PWD/srun.sh bash fleet.sbatch $small \
		>out.txt 2>err.txt
	rc=$?
	[ $rc -eq 0 ] || fail "the sbatch script: exit $rc; $(tail -5 err.txt)"
	grep -q '^mempath fleet: exit 0, fleet-42.json$' out.txt || fail "$(tail -3 out.txt)"
	"$MEMPATH" report fleet-42.json --format csv | grep -c ',metric,cpu.latency,load_latency,' | grep -qx 2 ||
		fail "two nodes' latencies expected in fleet-42.json"
	[ "$(ls nodes-42 | wc -l)" -eq 2 ] || fail "--node-dir kept $(ls nodes-42)"
	exit 0
fi
PATH=$PWD/bin:$PATH SLURM_JOB_ID=42 NO_MPI=1 BASH_ENV=$PWD/srun.sh bash fleet.sbatch $small \
	>out.txt 2>err.txt
grep -q 'built without MPI' err.txt || fail "the script's line was refused for another reason: $(cat err.txt)"
[ "$(grep -c 'error' err.txt)" -eq 1 ] || fail "more than the MPI error: $(cat err.txt)"
exit 0
