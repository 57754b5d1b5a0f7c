# The compiled-in reference folder (the last fallback of ref_dir, after
# --refs, $MEMPATH_REFS and the folders beside the binary) is the Makefile's
# DATA_DIR: the checkout's data/ by default, and the installed
# /usr/share/mempath/data in the Debian packages (the .deb's binary carried
# the build tree's path). Compiles the one file that holds it, under this
# test's folder, both ways, and checks that tools/deb.sh passes it.
. "$top/tests/cli/lib.sh"
command -v make >/dev/null 2>&1 && command -v cc >/dev/null 2>&1 || skip "no make or cc here"
obj=src/verdict/ref_load.o
timeout 120 make -s -C "$top" --no-print-directory BUILD="$PWD/pkg" DATA_DIR=/usr/share/mempath/data \
	"$PWD/pkg/$obj" >make.txt 2>&1 || fail "make with DATA_DIR: $(tail -3 make.txt)"
grep -qa '/usr/share/mempath/data' "pkg/$obj" || fail "DATA_DIR is not compiled in"
! grep -qaF "$top/data" "pkg/$obj" || fail "the build tree's data/ is compiled in beside DATA_DIR"
timeout 120 make -s -C "$top" --no-print-directory BUILD="$PWD/dev" "$PWD/dev/$obj" >make.txt 2>&1 ||
	fail "make: $(tail -3 make.txt)"
grep -qaF "$(cd "$top" && pwd)/data" "dev/$obj" || fail "a checkout's build does not hold its data/"
grep -q 'DATA_DIR=/usr/share/mempath/data' "$top/tools/deb.sh" || fail "tools/deb.sh does not pass the installed DATA_DIR"
