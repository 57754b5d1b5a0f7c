# basics: tools/deps.sh under CI_TOOLS=1 fetches Debian's newest 6.1 and 6.12
# kernel images apt offers for the lab's study across kernels (make
# test-study), unpacks each under LAB_KERNELS_DIR/root, fetches nothing when
# they are there, falls back to an older one that apt can give, and says the
# study will skip when apt has none. Fake apt-get, apt-cache, dpkg-deb and id
# on PATH: nothing is fetched or installed.
. "$top/tests/cli/lib.sh"
[ "$(uname -m)" = x86_64 ] || skip "the lab's kernels are amd64 images"
mkdir bin node
d=$PWD
# the names apt knows, newest and older, with flavours the study does not boot
cat >bin/apt-cache <<EOS
#!/bin/sh
[ "\$1" = pkgnames ] || exit 0
printf '%s\n' linux-image-6.1.0-56-amd64-unsigned linux-image-6.1.0-57-amd64-unsigned \
	linux-image-6.1.0-57-rt-amd64-unsigned linux-image-6.12.117+deb12-amd64-unsigned \
	linux-image-6.12.118+deb12-amd64-unsigned linux-image-6.12.118+deb12-cloud-amd64-unsigned \
	linux-image-amd64 \$(cat "$d/extra" 2>/dev/null)
EOS
# download NAME writes NAME_1_amd64.deb here, except the names listed in
# "unavailable"; install (the CI tools) succeeds
cat >bin/apt-get <<EOS
#!/bin/sh
echo "apt-get \$*" >>"$d/apt.log"
case " \$* " in *" download "*) ;; *) exit 0 ;; esac
for n; do :; done
grep -qx "\$n" "$d/unavailable" 2>/dev/null && exit 100
echo deb >"\${n}_1_amd64.deb"
EOS
# -x DEB DIR: the image's vmlinuz and modules directory
cat >bin/dpkg-deb <<EOS
#!/bin/sh
[ "\$1" = -x ] || exit 2
v=\$(basename "\$2" | sed 's/^linux-image-//; s/-unsigned_.*//')
mkdir -p "\$3/boot" "\$3/lib/modules/\$v" && : >"\$3/boot/vmlinuz-\$v"
EOS
printf '#!/bin/sh\necho 0\n' >bin/id
chmod +x bin/apt-get bin/apt-cache bin/dpkg-deb bin/id
mkdir -p node/node_modules/kubernetes-models
: >node/node_modules/kubernetes-models/package.json
deps() {
	PATH="$d/bin:$PATH" CI_TOOLS=1 LAB_KERNELS_DIR="$d/k" MEMPATH_NODE_MODULES="$d/node/node_modules" \
		sh "$top/tools/deps.sh" >out.txt 2>err.txt || fail "deps failed: $(cat out.txt err.txt)"
}

# both absent: the newest of each series, the plain amd64 flavour
deps
[ -e k/root/boot/vmlinuz-6.1.0-57-amd64 ] && [ -d k/root/lib/modules/6.1.0-57-amd64 ] ||
	fail "no 6.1.0-57 under k/root: $(find k | sort)"
[ -e k/root/boot/vmlinuz-6.12.118+deb12-amd64 ] && [ -d k/root/lib/modules/6.12.118+deb12-amd64 ] ||
	fail "no 6.12.118 under k/root: $(find k | sort)"
[ "$(ls k/root/boot | wc -l)" -eq 2 ] || fail "more than the two kernels: $(ls k/root/boot)"
grep -q '^deps: linux-image-6.1.0-57-amd64-unsigned unpacked under .*/k/root' out.txt ||
	fail "no line for 6.1: $(cat out.txt)"
grep -q '^deps: linux-image-6.12.118+deb12-amd64-unsigned unpacked under' out.txt ||
	fail "no line for 6.12: $(cat out.txt)"
ls k/*.deb >/dev/null 2>&1 && fail "the downloaded images were kept: $(ls k)"

# there already: nothing fetched
rm -f apt.log
deps
grep -q ' download ' apt.log 2>/dev/null && fail "fetched again: $(cat apt.log)"
grep -q unpacked out.txt && fail "unpacked again: $(cat out.txt)"

# the newest 6.12 not to be had: the one before it
rm -rf k apt.log
echo linux-image-6.12.118+deb12-amd64-unsigned >unavailable
deps
[ -e k/root/boot/vmlinuz-6.12.117+deb12-amd64 ] || fail "no fallback to 6.12.117: $(ls k/root/boot)"
grep -q 'download -q linux-image-6.12.118+deb12-amd64-unsigned' apt.log || fail "the newest not tried first: $(cat apt.log)"

# apt has no 6.12 at all: one line on stderr, the study will skip; deps succeeds
rm -rf k
printf '%s\n' linux-image-6.12.117+deb12-amd64-unsigned >>unavailable
deps
[ -e k/root/boot/vmlinuz-6.1.0-57-amd64 ] || fail "6.1 not unpacked: $(ls k/root/boot)"
grep -q '^deps: no linux-image-6.12.\*-amd64-unsigned from apt; make test-study will skip' err.txt ||
	fail "no line for the missing 6.12: $(cat err.txt)"
exit 0
