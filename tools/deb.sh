#!/bin/sh
# tools/deb.sh [OUTDIR] - `make deb`: Debian binary packages of mempath in
# OUTDIR (default build-deb), from this checkout, without debian/ or a source
# package (dpkg-deb; dependencies by dpkg-shlibdeps):
#
#   mempath_VERSION_ARCH.deb      /usr/bin/mempath (built MPI=0), mempath(1),
#                                 the bash and zsh completions (written by the
#                                 binary from its tables), /usr/share/mempath/data
#                                 (the reference values) and the docs
#   mempath-mpi_VERSION_ARCH.deb  /usr/bin/mempath-mpi: the same program built
#                                 with Open MPI, for `mempath-mpi fleet` under
#                                 mpirun or srun; only where mpicc is found
#
# Why Open MPI is a package of its own and not a Recommends: the MPI build
# links libmpi (it is not loaded at run time), so a binary with MPI does not
# start without libopenmpi3, which brings some 30 packages (libfabric, UCX,
# PMIx, hwloc) that a node running only probes does not want. `fleet merge`
# and every other command work in mempath without MPI.
# GPU: as `make` decides (nvcc found: the CUDA backend, its runtime linked
# statically; GPU=0: none). The build uses Debian's hardening flags
# (dpkg-buildflags, hardening=+all); lintian reports nothing on either
# package, --pedantic included (tests/pkg/t9000-deb-chroot.sh checks it).
# With the CUDA backend, lintian -I adds two notes (info, not warnings):
# spelling-error-in-binary "mor" and "occured", both in strings of the CUDA
# runtime linked in (none is in src/), so not ours to fix and not overridden.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-build-deb}
case $out in /*) ;; *) out=$top/$out ;; esac
version=$(sed -n 's/^VERSION := //p' "$top/Makefile")
arch=$(dpkg --print-architecture)
maint=${DEB_MAINTAINER:-mempath authors <mempath@users.noreply.github.com>}
jobs=${JOBS:-2}
flags="$(cd "$top" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CFLAGS)"
flags="$flags $(cd "$top" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get CPPFLAGS)"
flags="$flags $(cd "$top" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --get LDFLAGS)"
mkdir -p "$out"
stamp=$(cd "$top" && git log -1 --format=%aD 2>/dev/null || date -R)
hash=$(cd "$top" && git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)

# build NAME MPI: the binary in $out/NAME/mempath
build() {
	make -C "$top" --no-print-directory -j"$jobs" BUILD="$out/$1" MPI="$2" MPI_RPATH=0 \
		DATA_DIR=/usr/share/mempath/data CFLAGS="$flags" "$out/$1/mempath" >"$out/$1.log" 2>&1 || {
		tail -n 20 "$out/$1.log" >&2
		echo "tools/deb.sh: build $1 failed (log: $out/$1.log)" >&2
		exit 1
	}
}
# shlibs BINARY: its library dependencies as Debian names them
shlibs() {
	d=$(mktemp -d)
	mkdir "$d/debian"
	printf 'Source: mempath\n\nPackage: mempath\nArchitecture: any\n' >"$d/debian/control"
	(cd "$d" && dpkg-shlibdeps -O "$1" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
	rm -rf "$d"
}
# docfiles ROOT PKG: copyright and changelog.gz
docfiles() {
	doc=$1/usr/share/doc/$2
	install -d "$doc"
	{
		echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
		echo "Upstream-Name: mempath"
		echo
		echo "Files: *"
		echo "Copyright: 2026 The mempath authors"
		echo "License: Expat"
		sed -n '3,$p' "$top/LICENSE" | sed 's/^$/./; s/^/ /'
		if grep -q 'MEMPATH_GPU=1' "$out/main.log" 2>/dev/null; then
			echo
			echo "Files: usr/bin/*"
			echo "Copyright: 2026 The mempath authors"
			echo " NVIDIA Corporation (the CUDA runtime, linked in statically)"
			echo "License: Expat and NVIDIA-CUDA-EULA"
			echo
			echo "License: NVIDIA-CUDA-EULA"
			echo " The binaries link the CUDA runtime statically (libcudart_static.a), which"
			echo " the NVIDIA CUDA Toolkit End User License Agreement, Attachment A, lists as"
			echo " redistributable with an application."
		fi
	} >"$doc/copyright"
	printf '%s (%s) unstable; urgency=medium\n\n  * Built from git %s.\n\n -- %s  %s\n' \
		"$2" "$version" "$hash" "$maint" "$stamp" | gzip -9n >"$doc/changelog.gz"
	chmod 644 "$doc/copyright" "$doc/changelog.gz"
}
# package ROOT PKG DEPENDS [EXTRA_FIELDS]: ROOT/DEBIAN and the .deb
package() {
	size=$(du -sk --exclude=DEBIAN "$1" | cut -f1)
	install -d "$1/DEBIAN"
	{
		echo "Package: $2"
		echo "Version: $version"
		echo "Architecture: $arch"
		echo "Maintainer: $maint"
		echo "Installed-Size: $size"
		echo "Depends: $3"
		[ -n "${4:-}" ] && printf '%s\n' "$4"
		echo "Section: utils"
		echo "Priority: optional"
		cat
	} >"$1/DEBIAN/control"
	(cd "$1" && find usr -type f -exec md5sum {} + | sort -k2) >"$1/DEBIAN/md5sums"
	chmod 644 "$1/DEBIAN/control" "$1/DEBIAN/md5sums"
	dpkg-deb --root-owner-group -Zxz --build "$1" "$out/${2}_${version}_$arch.deb" >/dev/null
	echo "$out/${2}_${version}_$arch.deb"
}
strip_bin() {
	strip --strip-unneeded --remove-section=.comment --remove-section=.note "$1"
}

build main 0
root=$out/root-mempath
rm -rf "$root"
install -d "$root/usr/bin" "$root/usr/share/man/man1" "$root/usr/share/bash-completion/completions" \
	"$root/usr/share/zsh/vendor-completions" "$root/usr/share/mempath/data"
install -m 755 "$out/main/mempath" "$root/usr/bin/mempath"
strip_bin "$root/usr/bin/mempath"
"$out/main/mempath" help --man | gzip -9n >"$root/usr/share/man/man1/mempath.1.gz"
"$out/main/mempath" completion bash >"$root/usr/share/bash-completion/completions/mempath"
"$out/main/mempath" completion zsh >"$root/usr/share/zsh/vendor-completions/_mempath"
install -m 644 "$top"/data/*.json "$root/usr/share/mempath/data/"
docfiles "$root" mempath
for f in README.md docs/design.md docs/fleet.md docs/schema.md docs/adding-a-probe.md; do
	gzip -9n <"$top/$f" >"$root/usr/share/doc/mempath/$(basename "$f").gz"
done
chmod 644 "$root"/usr/share/man/man1/* "$root"/usr/share/*-completion*/completions/* \
	"$root"/usr/share/zsh/vendor-completions/* "$root"/usr/share/doc/mempath/*
mpi=0
# DEB_MPI=0: mempath alone
if [ "${DEB_MPI:-1}" = 1 ] && command -v mpicc >/dev/null 2>&1; then
	mpi=1
fi
package "$root" mempath "$(shlibs "$root/usr/bin/mempath")" \
	"$([ $mpi = 1 ] && echo "Suggests: mempath-mpi")" <<'D'
Description: measurement lab for the memory paths of AI machines
 mempath measures how memory behaves on a machine that runs AI workloads:
 CPU caches, DRAM and NUMA, transparent huge pages, CXL and tiered memory,
 GPU memory and the links between host and GPUs. Each probe records its
 samples with the machine's fingerprint; compare and ab say whether two
 runs differ beyond their noise; wrap measures any command (llama-bench
 among them) with its own cgroup, smaps and GPU memory; doctor names
 machine settings that skew measurements.
 .
 This package is built without MPI: mempath-mpi adds `fleet` across nodes.
D

if [ $mpi = 1 ]; then
	# the same objects but mpis.o and mpi_impl.o (the Makefile's mpi-mode):
	# copied from the build without MPI, their times kept, so only those two
	# are compiled here
	rm -rf "$out/mpi"
	cp -a "$out/main" "$out/mpi"
	build mpi 1
	mroot=$out/root-mempath-mpi
	rm -rf "$mroot"
	install -d "$mroot/usr/bin" "$mroot/usr/share/man/man1"
	install -m 755 "$out/mpi/mempath" "$mroot/usr/bin/mempath-mpi"
	ln -s mempath.1.gz "$mroot/usr/share/man/man1/mempath-mpi.1.gz" # in mempath
	strip_bin "$mroot/usr/bin/mempath-mpi"
	docfiles "$mroot" mempath-mpi
	package "$mroot" mempath-mpi "mempath (= $version), $(shlibs "$mroot/usr/bin/mempath-mpi")" \
		"Recommends: openmpi-bin" <<'D'
Description: mempath built with Open MPI, for fleet runs across nodes
 mempath-mpi is mempath linked with Open MPI: `mpirun mempath-mpi fleet`
 (or srun) runs one rank per node, each measuring its own node in turn,
 and rank 0 judges the fleet (docs/fleet.md). Every other command is the
 same as mempath's; its man page and data are mempath's.
D
fi
