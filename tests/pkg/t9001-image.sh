# tests/pkg/t9001-image.sh DEBDIR - tools/image.sh builds the container image
# from the .deb of `make deb` (no registry), then podman runs `mempath
# doctor` and `mempath check` on a results file in it, the check writing its
# textfile into a mounted folder (mode 0644); the image is removed after.
# Skips, saying why, where it cannot run (not root, no podman, no
# debootstrap). `make test-image` runs it after `make deb` (docs/kubernetes.md).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/cli/lib.sh" # fail, skip
debs=${1:-$top/build-deb}
case $debs in /*) ;; *) debs=$top/$debs ;; esac
[ "$(id -u)" -eq 0 ] || skip "not root: debootstrap, chroot and podman import need root"
command -v podman >/dev/null 2>&1 || skip "no podman (apt-get install podman)"
command -v debootstrap >/dev/null 2>&1 || skip "no debootstrap (apt-get install debootstrap)"
work=$(mktemp -d /var/tmp/mempath-t9001-XXXXXX)
tag=localhost/mempath-t9001:$$
trap 'podman rmi -f "$tag" >/dev/null 2>&1; rm -rf "$work"' EXIT
trap 'exit 1' INT TERM HUP
cd "$work" || fail "cannot enter $work"
timeout 600 sh "$top/tools/image.sh" "$debs" "$tag" >image.txt 2>&1
rc=$?
[ $rc -eq 77 ] && skip "$(tail -n 1 image.txt)"
[ $rc -eq 0 ] || fail "tools/image.sh exited $rc: $(tail -n 5 image.txt)"
# crun refuses hybrid cgroup v1 and podman's default open-files limit can be
# above the host's hard one: runc where there is one, no default limits
printf '[containers]\ndefault_ulimits = []\n' >containers.conf
rt=
command -v runc >/dev/null 2>&1 && rt="--runtime runc"
prun() { CONTAINERS_CONF=$work/containers.conf timeout 300 podman $rt run --rm --network=none "$@"; }
prun "$tag" mempath --version >ver.txt 2>&1 || fail "mempath --version in the image: $(tail -n 3 ver.txt)"
grep -q '^mempath 0\.' ver.txt || fail "version: $(cat ver.txt)"
prun "$tag" mempath doctor >doctor.txt 2>&1
rc=$?
[ $rc -le 1 ] || fail "doctor in the image exited $rc: $(tail -n 3 doctor.txt)"
grep -q '^mempath doctor: this machine' doctor.txt || fail "doctor: $(head -n 3 doctor.txt)"
mkdir out
cp "$top/docs/results/check-h200-2026-12-01.json" out/h200.json
# judged against the references it was measured with (data/h200.json has
# paths this file predates)
cp -r "$top/tests/data/refs-2026-12-01" out/refs
prun -v "$work/out:/out" "$tag" mempath check --refs /out/refs --textfile /out /out/h200.json >check.txt 2>&1 ||
	fail "check in the image exited $?: $(tail -n 3 check.txt)"
grep -q '^5 PASS, 0 WARN, 0 FAIL, 0 INCONCLUSIVE$' check.txt || fail "check: $(tail -n 3 check.txt)"
[ "$(stat -c %a out/mempath.prom)" = 644 ] || fail "textfile mode $(stat -c %a out/mempath.prom)"
tail -n 1 out/mempath.prom | grep -qx '# EOF' || fail "textfile incomplete"
echo "image $tag: doctor and check ran in it"
exit 0
