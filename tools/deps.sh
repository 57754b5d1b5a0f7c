#!/bin/sh
# tools/deps.sh - checks the build dependencies; as root on Debian installs the
# missing ones with apt-get, otherwise prints the exact command to run.
set -u
missing=""
have_header() { [ -f "/usr/include/$1" ] || [ -f "/usr/local/include/$1" ] || [ -f "/usr/include/$(uname -m)-linux-gnu/$1" ]; }
have_header jansson.h || missing="$missing libjansson-dev"
have_header numa.h || missing="$missing libnuma-dev"
have_header cmocka.h || missing="$missing libcmocka-dev"
command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1 || missing="$missing gcc"
command -v make >/dev/null 2>&1 || missing="$missing make"
# MPI for `mempath fleet` (the build finds mpicc; without it, make MPI=0)
command -v mpicc >/dev/null 2>&1 || missing="$missing libopenmpi-dev"
command -v mpirun >/dev/null 2>&1 || missing="$missing openmpi-bin"
have_header sqlite3.h || missing="$missing libsqlite3-dev"
# the topology lab (make test-topology, docs/topology.md): QEMU under TCG boots
# Debian's kernel with a busybox initramfs; numactl places the guest's programs
if [ "$(uname -m)" = x86_64 ]; then
	command -v qemu-system-x86_64 >/dev/null 2>&1 || missing="$missing qemu-system-x86"
	ls /boot/vmlinuz-* >/dev/null 2>&1 || missing="$missing linux-image-amd64"
	[ -f /bin/busybox ] && ! ldd /bin/busybox >/dev/null 2>&1 || missing="$missing busybox-static"
	command -v cpio >/dev/null 2>&1 || missing="$missing cpio"
	command -v numactl >/dev/null 2>&1 || missing="$missing numactl"
fi
# CI also checks style (clang-format), builds with clang and reads the
# OpenMetrics output with real parsers (t5205; a few MiB with python3;
# promtool, t5212).
if [ "${CI_TOOLS:-0}" = 1 ]; then
	command -v clang >/dev/null 2>&1 || missing="$missing clang"
	command -v clang-format >/dev/null 2>&1 || missing="$missing clang-format"
	# a compiler cache for .ci/run's builds, kept between runs on one machine
	command -v ccache >/dev/null 2>&1 || missing="$missing ccache"
	[ -d /usr/lib/python3/dist-packages/prometheus_client ] ||
		missing="$missing python3-prometheus-client"
	# make deb (dpkg-deb, dpkg-shlibdeps, dpkg-buildflags), lintian on it,
	# and debootstrap for the chroot test-deb installs it into
	command -v dpkg-shlibdeps >/dev/null 2>&1 || missing="$missing dpkg-dev"
	command -v lintian >/dev/null 2>&1 || missing="$missing lintian"
	command -v debootstrap >/dev/null 2>&1 || missing="$missing debootstrap"
	# a real scrape of check --textfile (t7009) and promtool on every
	# OpenMetrics text (t5212); the tests start their own servers on free ports
	command -v prometheus >/dev/null 2>&1 || missing="$missing prometheus"
	command -v prometheus-node-exporter >/dev/null 2>&1 ||
		missing="$missing prometheus-node-exporter"
	# deploy/'s manifests against the Kubernetes schemas (t7012): npm's
	# kubernetes-models (validators compiled from the API's OpenAPI spec,
	# installed below) and Debian's python3-kubernetes (the API's fields, for
	# the unknown ones)
	command -v node >/dev/null 2>&1 || missing="$missing nodejs"
	command -v npm >/dev/null 2>&1 || missing="$missing npm"
	[ -d /usr/lib/python3/dist-packages/kubernetes ] || missing="$missing python3-kubernetes"
fi
# kubernetes-models from the npm registry into MEMPATH_NODE_MODULES's parent
# (a cache kept between runs, like the chroot of test-deb), pinned
k8s_models() {
	[ "${CI_TOOLS:-0}" = 1 ] || return 0
	mods=${MEMPATH_NODE_MODULES:-/var/cache/mempath/node/node_modules}
	[ -f "$mods/kubernetes-models/package.json" ] && return 0
	command -v npm >/dev/null 2>&1 || return 0
	echo "deps: npm install kubernetes-models@5.1.0 into ${mods%/node_modules}"
	mkdir -p "${mods%/node_modules}" &&
		npm install --prefix "${mods%/node_modules}" --no-audit --no-fund --no-save --loglevel=error \
			kubernetes-models@5.1.0 >/dev/null || {
		# the registry out of reach is no reason to stop the build: t7012
		# skips, naming what it lacks
		echo "deps: npm install kubernetes-models failed; t7012 will skip" >&2
		return 0
	}
}
# Debian's 6.1 and 6.12 kernels for the lab's study across two kernels
# (make test-study: tests/lab/study.sh --kernels), in CI: the newest
# linux-image-6.1.0-N-amd64-unsigned and linux-image-6.12.N+deb12-amd64-unsigned
# apt offers, unpacked with dpkg-deb -x under LAB_KERNELS_DIR/root (a cache
# kept between runs on one machine, like the chroot: 180 MB fetched once);
# without them the study skips, saying why
lab_kernels() {
	[ "${CI_TOOLS:-0}" = 1 ] && [ "$(uname -m)" = x86_64 ] || return 0
	command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || return 0
	dir=${LAB_KERNELS_DIR:-/var/cache/mempath/kernels}
	# each the glob study.sh looks for and the package names' pattern
	for k in '6.1.0-*|6\.1\.0-[0-9]+' '6.12.*|6\.12\.[0-9]+\+deb12'; do
		glob=${k%%|*} series=${k#*|}
		ls "$dir"/root/boot/vmlinuz-$glob >/dev/null 2>&1 && continue
		mkdir -p "$dir/root" || return 0
		got=""
		for n in $(apt-cache pkgnames linux-image- 2>/dev/null |
			grep -E "^linux-image-$series-amd64-unsigned\$" | sort -V -r); do
			(cd "$dir" && apt-get download -q "$n" >/dev/null 2>&1) || continue
			deb=$(ls "$dir/${n}_"*.deb 2>/dev/null | head -n 1)
			[ -n "$deb" ] && dpkg-deb -x "$deb" "$dir/root" && got=$n
			rm -f "$dir/${n}_"*.deb
			[ -n "$got" ] && break
		done
		if [ -n "$got" ]; then
			echo "deps: $got unpacked under $dir/root (the lab's study)"
		else
			echo "deps: no linux-image-$glob-amd64-unsigned from apt; make test-study will skip" >&2
		fi
	done
}
# headless chromium draws the HTML reports in make test (t5210, t5211: some
# 120 packages, 140 MB) and makes docs/img/ (tools/screenshots.sh): in CI, or
# when asked for (make deps CHROMIUM=1); without it those tests skip, saying so
if [ "${CI_TOOLS:-0}" = 1 ] || [ "${CHROMIUM:-0}" = 1 ]; then
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 ||
		command -v google-chrome >/dev/null 2>&1 || missing="$missing chromium"
fi
# tests name packages to treat as missing (with a fake apt-get on PATH)
missing="$missing${MEMPATH_DEPS_MISSING:+ $MEMPATH_DEPS_MISSING}"
if [ -z "$missing" ]; then
	k8s_models
	lab_kernels
	exit 0
fi
cmd="apt-get install -y$missing"
# the package manager's lock: unattended-upgrades holds it at a fresh VM's
# first boot; wait for it at most DEPS_LOCK_TIMEOUT seconds, saying so, and
# let apt-get itself wait as long for the race after that
lock=${DEPS_DPKG_LOCK:-/var/lib/dpkg/lock-frontend}
timeout=${DEPS_LOCK_TIMEOUT:-300}
case $timeout in '' | *[!0-9]*)
	echo "deps: DEPS_LOCK_TIMEOUT must be a number of seconds, not '$timeout'" >&2
	exit 2
	;;
esac
# the pids holding a lock (POSIX or flock) on $lock, from /proc/locks
lock_holders() {
	[ -e "$lock" ] || return 0
	ino=$(stat -c %i "$lock" 2>/dev/null) || return 0
	awk -v ino="$ino" '{ for (i = 1; i <= NF; i++) if ($i ~ ":" ino "$") { print $(i - 1); break } }' \
		/proc/locks 2>/dev/null | sort -u | tr '\n' ' '
}
wait_lock() {
	pids=$(lock_holders)
	[ -n "$pids" ] || return 0
	echo "deps: waiting for the package manager's lock $lock (held by pid ${pids% }), at most $timeout s"
	waited=0
	while [ -n "$pids" ]; do
		if [ "$waited" -ge "$timeout" ]; then
			echo "deps: $lock still held by pid ${pids% } after $timeout s; run later: $cmd" >&2
			exit 1
		fi
		sleep 1
		waited=$((waited + 1))
		pids=$(lock_holders)
	done
	echo "deps: lock free after $waited s, going on"
}
apt_get() { apt-get -o "DPkg::Lock::Timeout=$timeout" "$@"; }
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
	wait_lock
	echo "deps: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	if ! apt_get install -y -q $missing >/dev/null 2>&1; then
		apt_get update -q >/dev/null 2>&1 || true
		apt_get install -y -q $missing || {
			echo "deps: apt-get failed; run: $cmd" >&2
			exit 1
		}
	fi
	k8s_models
	lab_kernels
	exit 0
fi
echo "deps: missing build dependencies; run as root: $cmd" >&2
exit 1
