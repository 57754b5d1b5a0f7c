# tests/pkg/t9000-deb-chroot.sh DEBDIR - the .deb files of `make deb`
# installed with apt into a clean Debian bookworm (debootstrap
# --variant=minbase, tools/deb-chroot.sh), then run there: the binary
# starts with only the dependencies the package names, finds its data,
# man page and completions where the package put them, measures, and
# mempath-mpi starts with Open MPI as its package pulls it in; lintian (where
# installed) reports no error or warning on them. The chroot is
# made once and kept (/var/cache/mempath/chroot-bookworm, MEMPATH_CHROOT);
# each run installs into a throwaway overlay (or a copy) of it, so it stays
# clean. Skips, saying why, where debootstrap or chroot cannot run
# (not root, no debootstrap, no mirror). Run by `make test-deb`. What it
# writes (lintian's and apt's logs, the overlay) goes under a temporary
# directory it removes, never into the checkout.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib.sh" # fail, skip
debs=${1:-$top/build-deb}
case $debs in /*) ;; *) debs=$top/$debs ;; esac
[ "$(id -u)" -eq 0 ] || skip "not root: debootstrap and chroot need root"
command -v debootstrap >/dev/null 2>&1 || skip "no debootstrap (apt-get install debootstrap)"
main=$(ls "$debs"/mempath_*.deb 2>/dev/null | head -n 1)
[ -n "$main" ] || fail "no mempath_*.deb in $debs (make deb)"
mpi=$(ls "$debs"/mempath-mpi_*.deb 2>/dev/null | head -n 1)
work=$(mktemp -d /var/tmp/mempath-deb-XXXXXX) || fail "cannot make a temporary directory"
root=$work/root
mounted=""
cleanup() {
	for m in $mounted; do umount "$m" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT INT TERM
cd "$work" || fail "cannot enter $work"
# lintian first (cheap): no error and no warning
if command -v lintian >/dev/null 2>&1; then
	lintian --fail-on error,warning "$main" ${mpi:+"$mpi"} >lintian.txt 2>&1 ||
		fail "lintian: $(grep -v 'root privileges' lintian.txt)"
fi
base=$(sh "$top/tools/deb-chroot.sh" "${MEMPATH_CHROOT:-/var/cache/mempath/chroot-bookworm}" 2>chroot.err)
rc=$?
[ $rc -eq 77 ] && skip "cannot make the chroot: $(tail -n 1 chroot.err)"
[ $rc -eq 0 ] || fail "tools/deb-chroot.sh exited $rc: $(cat chroot.err)"
mkdir -p "$work/upper" "$work/over" "$root"
# an overlay keeps the cached chroot clean at no copying cost; a copy where
# overlayfs is not there
if mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/over" "$root" 2>/dev/null; then
	mounted="$root"
else
	rmdir "$root"
	cp -a "$base" "$root" || fail "cannot copy $base"
fi
mount -t proc proc "$root/proc" || skip "cannot mount /proc in the chroot"
mounted="$root/proc $mounted"
cp "$main" ${mpi:+"$mpi"} "$root/tmp/"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
# what the package needs beyond minbase comes from its Depends (cached in the
# chroot when it was made, so no network is needed)
in_root dpkg -s libjansson4 >/dev/null 2>&1 && fail "the base chroot is not clean: libjansson4 installed"
in_root apt-get install -y --no-install-recommends "/tmp/$(basename "$main")" >apt.log 2>&1 ||
	fail "apt-get install of $(basename "$main") failed: $(tail -n 5 apt.log)"
for p in libjansson4 libnuma1 libsqlite3-0; do
	in_root dpkg -s "$p" >/dev/null 2>&1 || fail "$p not pulled in by the package's Depends"
done
in_root mempath --version >ver.txt 2>&1 || fail "mempath --version in the chroot: $(cat ver.txt)"
grep -q '^mempath 0\.' ver.txt || fail "version: $(cat ver.txt)"
in_root test -s /usr/share/man/man1/mempath.1.gz || fail "no man page"
in_root test -s /usr/share/bash-completion/completions/mempath || fail "no bash completion"
in_root test -s /usr/share/zsh/vendor-completions/_mempath || fail "no zsh completion"
in_root test -s /usr/share/doc/mempath/copyright || fail "no copyright"
in_root test -s /usr/share/mempath/data/h200.json || fail "no reference values"
# it measures there (a wrapped command: fingerprint, counters, cgroup)
in_root mempath wrap -n 1 -o /tmp/w.json -- true >run.txt 2>&1 || fail "wrap in the chroot: $(tail -n 5 run.txt)"
in_root test -s /tmp/w.json || fail "no results file"
if [ -n "$mpi" ]; then
	in_root apt-get install -y --no-install-recommends "/tmp/$(basename "$mpi")" >apt-mpi.log 2>&1 ||
		fail "apt-get install of $(basename "$mpi") failed: $(tail -n 5 apt-mpi.log)"
	in_root dpkg -s libopenmpi3 >/dev/null 2>&1 || fail "libopenmpi3 not pulled in by mempath-mpi"
	in_root mempath-mpi --version >mver.txt 2>&1 || fail "mempath-mpi --version: $(cat mver.txt)"
fi
in_root dpkg -r mempath-mpi mempath >rm.log 2>&1 || fail "dpkg -r: $(cat rm.log)"
in_root test -e /usr/bin/mempath && fail "removed, yet /usr/bin/mempath is there"
exit 0
