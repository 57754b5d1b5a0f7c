#!/bin/sh
# tests/lab/lab.sh - the topology lab (docs/topology.md): boots each topology
# (tests/lab/topologies/*.topo) as a QEMU guest under TCG with a kernel and an
# initramfs holding a `make MPI=0 GPU=0` build of mempath, runs that
# topology's checks inside (tests/lab/checks/NAME.sh), copies the results out
# through the second serial port and asserts on them here
# (tests/lab/checks/NAME.host.sh). A guest that has not powered off within its
# BUDGET seconds is killed and reported as failed. One lab boots its guests
# on a machine at a time (LAB_LOCK, default /tmp/mempath-lab.lock, held with
# flock): the budgets are wall time under TCG, and a second lab's guests
# beside them (another checkout's make test) would take half of each CPU.
# LAB_CHECKS and LAB_BUDGET replace every topology's CHECKS and BUDGET,
# LAB_CARRY names a directory the guest finds at /carry (tests/lab/study.sh
# boots a machine again and again with what the boots before left).
# A topology's BUDGET is 3-9 times its guest's time alone on the dev VM
# (hbm 150 s for 24 s); each guest gets LAB_BUDGET_SCALE (2) times it, since
# another checkout's build and tests beside it slowed the hbm guest past its
# 150 s. In make test the guests run beside the other stages' tests
# (tests/stages.sh): on the 2-CPU dev VM (2026-12-03) tiered took 202 s of
# its 480 and hbm 86 s of its 300 there. A budget catches a hung guest; it
# is no measure.
#
# usage: tests/lab/lab.sh [--kernel BZIMAGE] [--modules DIR] [--out DIR]
#                         [--jobs N] [TOPOLOGY...]
# TOPOLOGY is a name under tests/lab/topologies/ or a path to a .topo file;
# none: every file there. Exit 0 when every check passed, 77 (the reason on
# the last line) when the lab cannot run here, 1 otherwise.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
lab=$top/tests/lab
# the newest of Debian's kernels unless told
kernel=${LAB_KERNEL:-$(ls -v /boot/vmlinuz-* 2>/dev/null | tail -n 1)}
modules=${LAB_MODULES:-}
out=$top/build-lab/lab
jobs=3
usage() {
	sed -n '/^# usage:/,/^# the last line/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) [ $# -ge 2 ] || usage; kernel=$2; shift 2 ;;
	--modules) [ $# -ge 2 ] || usage; modules=$2; shift 2 ;;
	--out) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
	--jobs) [ $# -ge 2 ] || usage; jobs=$2; shift 2 ;;
	-h | --help) usage ;;
	--) shift; break ;;
	-*) echo "lab: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
case $jobs in '' | *[!0-9]* | 0) echo "lab: --jobs takes a count, not '$jobs'" >&2; exit 2 ;; esac
skip() {
	echo "lab: skipped: $*"
	echo "lab: 0 passed, 0 failed, 1 skipped"
	exit 77
}

# --- what the lab needs on this machine --------------------------------------
qemu=$(command -v qemu-system-x86_64) || skip "no qemu-system-x86_64 (apt-get install qemu-system-x86)"
[ -n "$kernel" ] || skip "no kernel in /boot (apt-get install linux-image-amd64, or --kernel BZIMAGE)"
[ -r "$kernel" ] || skip "cannot read the kernel $kernel (Debian's is root's only; or --kernel BZIMAGE)"
if [ -z "$modules" ]; then
	# Debian's /boot/vmlinuz-VERSION has its modules in /lib/modules/VERSION
	v=$(basename "$kernel" | sed -n 's/^vmlinuz-//p')
	[ -n "$v" ] && [ -d "/lib/modules/$v" ] && modules=/lib/modules/$v
fi
busybox=$(command -v busybox) || skip "no busybox (apt-get install busybox-static)"
ldd "$busybox" >/dev/null 2>&1 && skip "$busybox is not static (apt-get install busybox-static)"
command -v numactl >/dev/null 2>&1 || skip "no numactl (apt-get install numactl): the guest's programs are placed with it"
for t in cpio gzip base64 timeout make cc; do
	command -v $t >/dev/null 2>&1 || skip "no $t"
done

# --- the topologies ----------------------------------------------------------
topo_file() {
	case $1 in
	*/*) echo "$1" ;;
	*) echo "$lab/topologies/${1%.topo}.topo" ;;
	esac
}
if [ $# -eq 0 ]; then
	set -- "$lab"/topologies/*.topo
fi
for t in "$@"; do
	[ -r "$(topo_file "$t")" ] || { echo "lab: no topology '$t' ($(topo_file "$t"))" >&2; exit 2; }
done
# The modules any topology names, loaded in its guest in the order given.
all_modules=""
for t in "$@"; do
	all_modules="$all_modules $(MODULES=''; . "$(topo_file "$t")"; echo "$MODULES")"
done

# --- the build and the initramfs ---------------------------------------------
# LAB_MEMPATH: a MPI=0 GPU=0 mempath of this checkout built already, taken in
# place of build-lab/'s (CI's make deb builds one, build-deb/main/mempath:
# a third build of the same sources cost about 45 s of the CI VM's CPU)
mkdir -p "$(dirname "$out")" || exit 1
mempath=${LAB_MEMPATH:-}
if [ -n "$mempath" ]; then
	[ -x "$mempath" ] || { echo "lab: LAB_MEMPATH $mempath is not an executable"; exit 1; }
	mempath=$(cd "$(dirname "$mempath")" && pwd)/$(basename "$mempath")
	echo "lab: mempath from $mempath (LAB_MEMPATH)"
else
	echo "lab: building mempath (make MPI=0 GPU=0 BUILD=build-lab)"
	make -C "$top" --no-print-directory -s BUILD=build-lab MPI=0 GPU=0 -j2 build-lab/mempath >"$out.build.log" 2>&1 ||
		{ tail -n 20 "$out.build.log"; echo "lab: the build failed"; exit 1; }
	mempath=$top/build-lab/mempath
fi
rm -rf "$out"
mkdir -p "$out/root"
root=$out/root
cc ${CFLAGS:--O2} -Wall -Werror -o "$out/tierload" "$lab/tierload.c" ||
	{ echo "lab: cannot build tests/lab/tierload.c"; exit 1; }
mkdir -p "$root/bin" "$root/lib/modules" "$root/lab/checks" "$root/dev"
cp "$busybox" "$root/bin/busybox"
cp "$mempath" "$out/tierload" "$root/bin/"
bins="$root/bin/mempath $root/bin/tierload"
if n=$(command -v numactl); then
	cp "$n" "$root/bin/numactl"
	bins="$bins $root/bin/numactl"
fi
# each library ldd names, at the path it names
for b in $bins; do
	ldd "$b" | awk '/=>/ { print $3 } /^\t\// { print $1 }'
done | sort -u | while read -r l; do
	[ -f "$l" ] || continue
	mkdir -p "$root$(dirname "$l")"
	cp -L "$l" "$root$l"
done
# the loader where the binaries look for it
[ -e "$root/lib64/ld-linux-x86-64.so.2" ] || { mkdir -p "$root/lib64" && cp -L /lib64/ld-linux-x86-64.so.2 "$root/lib64/"; }
mkdir -p "$root$top"
cp -r "$top/data" "$root$top/data" # MEMPATH_DATA: the reference files
# and where any binary at /bin looks first (bin/../share/mempath/data): a
# LAB_MEMPATH built for the package names /usr/share/mempath/data
mkdir -p "$root/share/mempath" && ln -s "$top/data" "$root/share/mempath/data"
for m in $all_modules; do
	[ -e "$root/lib/modules/$m.ko" ] && continue
	if [ -z "$modules" ]; then
		echo "lab: no modules directory (--modules DIR): taking $m as built into the kernel"
		continue
	fi
	if grep -q "/$m.ko\$" "$modules/modules.builtin" 2>/dev/null; then
		continue # built in: nothing to load
	fi
	f=$(find "$modules" -name "$m.ko" -o -name "$m.ko.xz" -o -name "$m.ko.zst" | head -n 1)
	case $f in
	*.ko) cp "$f" "$root/lib/modules/$m.ko" ;;
	*.ko.xz) xz -dc "$f" >"$root/lib/modules/$m.ko" ;;
	*.ko.zst) zstd -qdc "$f" >"$root/lib/modules/$m.ko" ;;
	*) echo "lab: module $m not found under $modules (built into the kernel? then drop it from MODULES)"; exit 1 ;;
	esac || { echo "lab: cannot copy module $m"; exit 1; }
done
cp "$lab/init" "$root/init"
# a directory carried into the guest at /carry: what a study's plan did in
# the boots before (tests/lab/study.sh)
if [ -n "${LAB_CARRY:-}" ]; then
	cp -r "$LAB_CARRY" "$root/carry" || { echo "lab: cannot carry $LAB_CARRY into the guest"; exit 1; }
fi
cp "$lab"/checks/*.sh "$root/lab/checks/"
mkdir -p "$root/lab/topologies"
for t in "$@"; do cp "$(topo_file "$t")" "$root/lab/topologies/"; done
rm -f "$root"/lab/checks/*.host.sh
chmod 755 "$root/init"
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out/initramfs.gz" ||
	{ echo "lab: cannot write the initramfs"; exit 1; }
echo "lab: initramfs $(($(wc -c <"$out/initramfs.gz") / 1024)) KiB, kernel $kernel"

# --- one guest ---------------------------------------------------------------
# boot NAME TOPOFILE VARIANT: runs the guest into $out/NAME, then the host
# halves of its checks; prints one line per check and ends with a line
# "result NAME pass|fail".
boot() {
	name=$1 file=$2 variant=$3 dir=$out/$1
	mkdir -p "$dir"
	SMP=1 MEM=512M MACHINE=pc QEMU="" DEVICES="" APPEND="" MODULES="" EXPECT_NODES="" CHECKS="" BUDGET=120 VARIANTS=""
	. "$file"
	# LAB_CHECKS and LAB_BUDGET: other checks on the topology's machine, and
	# their budget (tests/lab/study.sh)
	CHECKS=${LAB_CHECKS:-$CHECKS} BUDGET=${LAB_BUDGET:-$BUDGET}
	# a variant adds its APPEND_v and QEMU_v (before DEVICES) and replaces
	# any EXPECT_X with its EXPECT_X_v
	if [ -n "$variant" ]; then
		eval "APPEND=\"\$APPEND \${APPEND_$variant:-}\" QEMU=\"\$QEMU \${QEMU_$variant:-}\""
		for v in $(set | sed -n "s/^\(EXPECT_[A-Z_]*\)_${variant}=.*/\1/p"); do
			eval "$v=\${${v}_$variant}"
		done
	fi
	for v in $(set | sed -n 's/^\(EXPECT_[A-Za-z0-9_]*\)=.*/\1/p'); do
		export "$v"
	done
	comma() { echo $* | tr ' ' ','; }
	BUDGET=$((BUDGET * ${LAB_BUDGET_SCALE:-2}))
	# the checks' own limit: the budget less the boot, so the guest ends first
	limit=$((BUDGET - 25))
	# no_timer_check: under TCG on a loaded host the emulated timer can miss
	# the kernel's early check of it, which panics where interrupts are
	# remapped ("timer doesn't work through Interrupt-remapped IO-APIC": a
	# p2p-iommu guest beside another make test)
	cmdline="console=ttyS0 panic=-1 quiet loglevel=3 no_timer_check rdinit=/init lab.topo=$name lab.file=$(basename "$file" .topo)"
	[ -z "$variant" ] || cmdline="$cmdline lab.variant=$variant"
	cmdline="$cmdline lab.checks=$(comma $CHECKS) lab.nodes=$(comma $EXPECT_NODES) lab.limit=$limit"
	[ -z "$MODULES" ] || cmdline="$cmdline lab.modules=$(comma $MODULES)"
	cmdline="$cmdline $APPEND"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	timeout -s KILL "$BUDGET" "$qemu" -accel tcg -machine "$MACHINE" -smp "$SMP" -m "$MEM" $QEMU $DEVICES \
		-kernel "$kernel" -initrd "$out/initramfs.gz" -append "$cmdline" \
		-nodefaults -display none -no-reboot \
		-serial "file:$dir/console.log" -serial "file:$dir/results.b64" \
		>"$dir/qemu.log" 2>&1 </dev/null
	rc=$?
	wall=$(($(date +%s) - t0))
	echo "$wall" >"$dir/wall_s"
	if [ $rc -eq 137 ]; then
		echo "FAIL $name: killed after its budget of $BUDGET s; console tail:"
		tail -n 15 "$dir/console.log" | sed 's/^/    /'
		echo "result $name fail"
		return
	fi
	if [ $rc -ne 0 ]; then
		echo "FAIL $name: qemu exited $rc: $(tail -n 3 "$dir/qemu.log")"
		echo "result $name fail"
		return
	fi
	mkdir -p "$dir/guest"
	if ! sed -n '/^@@LAB-RESULTS-BEGIN/,/^@@LAB-RESULTS-END/p' "$dir/results.b64" | tr -d '\r' |
		grep -v '^@@LAB' | base64 -d | tar -xz -C "$dir/guest" 2>"$dir/untar.log"; then
		echo "FAIL $name: no results came out (powered off after $wall s); console tail:"
		tail -n 15 "$dir/console.log" | sed 's/^/    /'
		echo "result $name fail"
		return
	fi
	ok=1
	for c in $CHECKS; do
		g=$dir/guest/$c
		if [ ! -f "$g/rc" ]; then
			echo "FAIL $name $c: did not run in the guest"
			ok=0
			continue
		fi
		(cd "$g" && LAB_TOPO=$name LAB_NODES="$EXPECT_NODES" LAB_GUEST=$dir/guest \
			MEMPATH=$mempath MEMPATH_REFS=$top/data sh "$lab/checks/$c.host.sh") >"$g/host.log" 2>&1
		hrc=$?
		if [ "$(cat "$g/rc")" = 0 ] && [ $hrc -eq 0 ]; then
			echo "ok   $name $c$(sed -n 's/^note: / (/p' "$g/host.log" | head -n 1 | sed 's/$/)/')"
		elif [ $hrc -eq 77 ]; then
			echo "skip $name $c: $(tail -n 1 "$g/host.log")"
		else
			echo "FAIL $name $c (guest exit $(cat "$g/rc"), host exit $hrc)"
			tail -n 12 "$g/log" | sed 's/^/    guest: /'
			tail -n 12 "$g/host.log" | sed 's/^/    host: /'
			ok=0
		fi
	done
	echo "lab: $name: $wall s wall"
	[ $ok = 1 ] && echo "result $name pass" || echo "result $name fail"
}

# Each topology, each variant of it, one guest each, in --jobs lanes: the
# guests longest budget first, each to the lane with the least budget so far
# (the long tiering guest gets a lane to itself while the short ones share
# the others); a lane boots its guests one after another.
list=""
for t in "$@"; do
	f=$(topo_file "$t")
	n=$(basename "$f" .topo)
	eval "$(VARIANTS="" BUDGET=120; . "$f"; echo "v='$VARIANTS' b=$BUDGET")"
	if [ -z "$v" ]; then
		list="$list $b:$n:$f:"
	else
		for x in $v; do list="$list $b:$n-$x:$f:$x"; done
	fi
done
list=$(for i in $list; do echo "$i"; done | sort -t: -k1,1nr -k2,2 | tr '\n' ' ')
lanes=""
k=0
while [ $k -lt "$jobs" ]; do
	lanes="$lanes 0"
	eval "lane_$k=''"
	k=$((k + 1))
done
for item in $list; do
	b=${item%%:*}
	# the lane with the least budget so far
	best=0 least=-1 k=0
	for l in $lanes; do
		if [ $least -lt 0 ] || [ "$l" -lt $least ]; then best=$k least=$l; fi
		k=$((k + 1))
	done
	eval "lane_$best=\"\$lane_$best ${item#*:}\""
	k=0 new=""
	for l in $lanes; do
		[ $k = $best ] && l=$((l + b))
		new="$new $l"
		k=$((k + 1))
	done
	lanes=$new
done
# one lab at a time on this machine: wait for the event (the other lab's
# lock released), not for a time
lock=${LAB_LOCK:-/tmp/mempath-lab.lock}
if command -v flock >/dev/null 2>&1 && exec 9>>"$lock"; then
	if ! flock -n 9; then
		echo "lab: another lab holds $lock on this machine: waiting for it"
		flock 9
	fi
fi
k=0
while [ $k -lt "$jobs" ]; do
	eval "items=\$lane_$k"
	(for item in $items; do
		name=${item%%:*} rest=${item#*:}
		boot "$name" "${rest%:*}" "${rest##*:}" >"$out/$name.report" 2>&1
	done) &
	k=$((k + 1))
done
wait
# A guest killed at its budget, or one that gave no results, beside the
# other guests is booted once more, alone: a hung or broken guest fails
# again, a starved one gets the machine it was budgeted for (beside another
# checkout's make test and two more guests on the same CPUs the hbm guest
# stopped at its numa check for 295 s).
for item in $list; do
	x=${item#*:}
	name=${x%%:*} rest=${x#*:}
	grep -q "^FAIL $name: \(killed after its budget\|no results came out\)" "$out/$name.report" ||
		continue
	mv "$out/$name.report" "$out/$name.first"
	{
		sed -n 's/^\(FAIL .*\)/first boot: \1/p' "$out/$name.first"
		echo "lab: $name: killed at its budget or no results beside the other guests; booted again alone"
		boot "$name" "${rest%:*}" "${rest##*:}"
	} >"$out/$name.report" 2>&1
done
fails=0 n=0
for item in $list; do
	name=${item#*:}
	name=${name%%:*}
	grep -v '^result ' "$out/$name.report"
	grep -q "^result $name pass" "$out/$name.report" || fails=$((fails + 1))
	n=$((n + 1))
done
echo "lab: $((n - fails)) of $n guests passed (results under $out)"
echo "lab: $((n - fails)) passed, $fails failed" # the runner's closing line
[ $fails -eq 0 ]
