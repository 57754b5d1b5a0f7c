# A probe's list option with a bad value is a usage error (exit 2, one line
# naming the option) when it is set, through every entry point that takes
# probe options (probe, and ab's leg command, checked before any setup),
# never a skip with exit 0 at run time (cpu.wake cpus=x,y used to be one).
# Table: probe | option=value; every list option of the registry that has a
# syntax is a row, GPU probes too (their options parse without a GPU).
. "$top/tests/cli/lib.sh"
n=0
while IFS='|' read -r probe opt; do
	n=$((n + 1))
	expect_fail 2 timeout 30 "$MEMPATH" probe "$probe" "$opt" --reps 2 --warmups 0
	grep -qF "${opt%%=*}=" err.txt || fail "probe $probe $opt: the error does not name the option: $(cat err.txt)"
done <<EOF2
cpu.wake|cpus=x,y
cpu.wake|cpus=-1,0
cpu.wake|cpus=0,0
cpu.wake|cpus=0
cpu.wake|cpus=0,1,2
cpu.wake|cpus=1,
cpu.wake|cpus= 0,1
cpu.blocks|spans=1G,x
cpu.blocks|spans=0
cpu.reach|spans=64M,,x
cpu.reach|spans=-1G
cpu.stream|nodes=x
cpu.stream|nodes=1-
cpu.numa|mem_nodes=0,x
cpu.numa|cpu_nodes=-1
work.decode|nodes=99999
gpu.copy|sizes=1M,x
gpu.random|spans=x
gpu.random|block_spans=1G,0
gpu.l2|sizes=4M,y
gpu.l2|threads=512,z
gpu.l2|unroll=4,-8
EOF2
[ $n -ge 22 ] || fail "the table ran $n rows"
# through ab: refused before the first setup, nothing made
expect_fail 2 timeout 60 "$MEMPATH" ab --a 'touch setup-ran' --b true -o d -- probe cpu.wake cpus=x,y --reps 6
[ ! -e setup-ran ] && [ ! -e d ] || fail "ab ran a setup or made its directory for a bad option"
# good values still pass
timeout 60 "$MEMPATH" probe cpu.wake cpus=auto --reps 2 --warmups 0 >/dev/null 2>err.txt ||
	fail "cpus=auto: $(cat err.txt)"
timeout 60 "$MEMPATH" probe cpu.reach spans=64M --reps 2 --warmups 0 >/dev/null 2>err.txt ||
	fail "spans=64M: $(cat err.txt)"
