# basics: every example command in README.md and docs/*.md (the ```sh
# blocks) runs as written, in order, in one directory: each is accepted (never
# a usage error or a crash) and ends as its command documents. Left out: the
# make and reference-tool lines (make test runs those targets; the topology
# lab's tests/lab/lab.sh lines are make test-topology's), a block that is
# a script (`#!`, docs/fleet.md's sbatch file: t7004 runs it) and lines of
# launchers that are not here (sbatch, srun; mpirun without MPI), and the
# examples that change the machine's own knobs (doctor --measure enables an
# mTHP size alone for its run, which the fingerprints of the tests beside
# this one read: ab's legs then differ in knobs): t0019, marked alone, runs
# those as written, with this file (DOC_EXAMPLES=knobs).
# Substitutions, so that the examples take seconds, not hours; each keeps
# the example's words and only shortens or redirects:
#   --suite full           runs as --suite quick (the same probes, quick sizes)
#   a line with --suite    gets --reps 6 --warmups 0 --only cpu.wake (the
#                          A/B/A' runs that compare names a control of:
#                          --reps 3 --warmups 0 --only cpu.first_touch, 4 s
#                          each on the dev VM, 8 s with --reps 6)
#   size=4G                size=64M
#   --reps 30, size=64M    --reps 15 (ab --rounds 5 still has 3 a round), size=16M
#   ab (rounds auto, as without --rounds or --legs) gets --max-rounds 4 (its
#                          least), a line with --suite --reps 12, and size=64M --reps 24
#                          size=4M --reps 12 (3 a leg of a round; a fault costs some 6 us in
#                          the dev VM's sandbox: 16M took 50 s there, 4M 15 s)
#   check (measuring here) gets --reps 3 --warmups 0 (the sizes the references
#                          name kept: 8 s on the quiet dev VM, 11 s with 6)
#   --reps auto --ci 1     gets size=4M kernels=read stores=temporal pages=4k
#                          threads=1 --budget 1
#   mpirun -np 64          -np 1 (one node here), allowed as root
#   /shared/fleet/         ./shared/fleet/
#   /sys/kernel/mm/transparent_hugepage/enabled   ./thp-enabled (ab's setup
#                          commands write a file here, not the machine's
#                          THP mode, which tests beside this one measure)
# and what the examples assume is there: build/mempath and mempath (the binary
# under test; build/mempath-fake and -discovery beside it), llama-bench
# (tests/data/llama-replay.sh, its recorded output),
# model.gguf, docs/ and tests/ (the repository's: recorded trees), h200.json
# (docs/results' H200 run), nodes/ (two nodes' files), today.json (a copy of
# the stock-again.json an example wrote before).
# test: long (started first where no earlier run's times order the pool: tests/run.sh)
. "$top/tests/cli/lib.sh"
# knobs: the examples t0019 runs alone, and only those
knobs=${DOC_EXAMPLES:-}
# The examples are the commands' own paths again, run in the plain pass
# (about 130 s here); under the sanitizers each command's own tests run.
[ -z "${MEMPATH_SANITIZED:-}" ] ||
	skip "the examples run in the plain pass; under the sanitizers each command's own tests run"
mkdir -p build bin shared/fleet nodes
ln -s "$MEMPATH" build/mempath
for b in fake discovery; do # docs/adding-a-backend.md's test backends, where linked
	[ ! -x "$(dirname "$MEMPATH")/mempath-$b" ] || ln -s "$(dirname "$MEMPATH")/mempath-$b" build/
done
ln -s "$MEMPATH" bin/mempath
printf '#!/bin/sh\nexec sh "%s/tests/data/llama-replay.sh" "$@"\n' "$top" >bin/llama-bench
chmod +x bin/llama-bench
PATH=$PWD/bin:$PATH
export PATH MEMPATH_HISTORY=$PWD/history.db XDG_CACHE_HOME=$PWD/cache
: >model.gguf
ln -s "$top/docs" docs
ln -s "$top/tests" tests
cp "$top/docs/results/h200-2026-11-30.json" h200.json
cp "$top/docs/results/vm-quick-2026-11-30.json" nodes/vm.json
sed 's/"hostname": *"vm"/"hostname": "node-2"/' nodes/vm.json >nodes/node-2.json
# the examples, one a line: continuations joined, comments dropped
(cd "$top" && awk '
	FNR == 1 { on = 0 }
	/^```sh/ { on = 1; first = 1; next }
	/^```/ { on = 0; next }
	!on { next }
	first && /^#!/ { on = 0; next }
	{ first = 0; line = $0 }
	cont != "" { line = cont " " line; cont = "" }
	/\\$/ { sub(/ *\\$/, "", line); cont = line; next }
	{ sub(/^ +/, "", line) }
	line ~ /^#/ || line == "" { next }
	{ sub(/  +#.*$/, "", line); print FILENAME "\t" line }' README.md docs/*.md) >examples.txt
[ "$(wc -l <examples.txt)" -ge 30 ] || fail "too few examples found: $(cat examples.txt)"
have_mpi=0
if [ "$knobs" != knobs ] && command -v mpirun >/dev/null 2>&1 &&
	! "$MEMPATH" fleet --only cpu.wake -o probe-mpi.json 2>&1 </dev/null | grep -q 'built without MPI'; then
	have_mpi=1
fi
rm -f probe-mpi.json
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
n=0
while IFS="	" read -r file line; do
	case $line in
	*" doctor --measure"*) [ "$knobs" = knobs ] || { echo "run alone by t0019: $line"; continue; } ;;
	*) [ "$knobs" != knobs ] || continue ;;
	esac
	case $line in
	make\ * | *_SRC=* | NVBANDWIDTH=* | sbatch\ * | srun\ * | set\ * | out=* | status=* | echo\ * | exit\ *) continue ;;
	*tests/lab/lab.sh*) continue ;; # the lab's guests: make test-topology boots them
	mpirun\ *) [ $have_mpi = 1 ] || { echo "not run (no mpirun, or built without MPI): $line"; continue; } ;;
	esac
	cmd=$(printf '%s\n' "$line" | sed -e 's/--suite full/--suite quick/' -e 's/size=4G/size=64M/' \
		-e 's/size=64M --reps 30$/size=16M --reps 15/' -e 's/-np 64/-np 1/' \
		-e 's/ab --rounds auto /ab --rounds auto --max-rounds 4 /' \
		-e 's/size=64M --reps 24$/size=4M --reps 12/' \
		-e 's|/shared/fleet/|shared/fleet/|g' \
		-e 's|/sys/kernel/mm/transparent_hugepage/enabled|thp-enabled|g' \
		-e 's/--reps auto --ci 1$/& size=4M kernels=read stores=temporal pages=4k threads=1 --budget 1/')
	case $cmd in
	*" ab "*--rounds* | *" ab "*--legs*) ;;
	*" ab "*) cmd=$(printf '%s\n' "$cmd" | sed 's/ ab / ab --max-rounds 4 /') ;; # rounds auto, as above
	esac
	case $cmd in
	*--label*--suite* | *--suite*--label*) cmd="$cmd --reps 3 --warmups 0 --only cpu.first_touch" ;;
	*" ab "*--suite*) cmd="$cmd --reps 12 --warmups 0 --only cpu.wake" ;; # 3 a leg of 4 rounds
	*--suite*) cmd="$cmd --reps 6 --warmups 0 --only cpu.wake" ;;
	*" check") cmd="$cmd --reps 3 --warmups 0" ;; # measuring here: the references' sizes, fewer samples
	esac
	case $cmd in *today.json*) [ -f today.json ] || cp stock-again.json today.json ;; esac
	t0=$(date +%s)
	sh -c "$cmd" </dev/null >out.txt 2>err.txt
	rc=$?
	[ -n "${EXAMPLES_TIMES:-}" ] && echo "$(($(date +%s) - t0)) s: $cmd" >&2
	n=$((n + 1))
	# what each exit means is the command's own (its --help): 1 is a
	# finding for doctor, check, phantom and a fleet; 3 is compare's and
	# ab's "compared, no trusted verdict" (this machine is shared: a
	# control may move, legs run under different load)
	case $rc:$cmd in
	0:*) ;;
	1:*" doctor"* | 1:*" check"* | 1:*" phantom "* | 1:*" fleet "*) ;;
	3:*" compare "* | 3:*" ab "* | 3:*" plan "*) tail -n 1 out.txt | grep -q '^no trusted verdict (' ||
		fail "$file: '$line' exited 3: $(tail -n 1 out.txt)" ;;
	2:*" check --reps 3 --warmups 0") grep -q 'no reference values for this kind of machine' err.txt ||
		fail "$file: '$line' exited 2: $(cat err.txt)"
		echo "no reference values for this machine's kind: $line" ;;
	*) fail "$file: '$line' (as '$cmd') exited $rc: $(tail -n 3 err.txt)" ;;
	esac
done <examples.txt
if [ "$knobs" = knobs ]; then
	[ "$n" -ge 1 ] || fail "no example that changes the machine's knobs found: $(cut -f 2 examples.txt)"
	exit 0
fi
[ "$n" -ge 30 ] || fail "only $n examples ran"
[ -s stock.html ] && [ -s compare.html ] && [ -s fleet.html ] && [ -s textfile/mempath.prom ] ||
	fail "an example's output is missing: $(ls)"
[ -s thp-enabled ] || fail "ab's setup commands did not run"
exit 0
