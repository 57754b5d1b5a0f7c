# make check-layers: passes on the tree, and fails on a planted back-edge, a
# planted pair of files including each other, a planted pair of objects
# calling each other and a planted include of the probe list.
. "$top/tests/cli/lib.sh"
chk=$top/tools/check-layers.sh
obj=$(dirname "$MEMPATH")/src
sh "$chk" "$top/src" "$obj" >ok.txt 2>&1 || fail "the tree breaks its layers: $(cat ok.txt)"
grep -q '^check-layers: ok' ok.txt || fail "no ok line: $(cat ok.txt)"

plant() { rm -rf t && mkdir t && cp -r "$top/src" t/src; }

plant
printf '#include "cmd/cmd.h"\n' >>t/src/base/util.c
sh "$chk" t/src >out.txt 2>&1 && fail "an include from base/ up to cmd/ passed"
grep -q '^LAYER: base/util.c includes cmd/cmd.h (cmd/ is above base/)' out.txt ||
	fail "back-edge not named: $(cat out.txt)"

plant
printf '#include "base/kv.h"\n' >>t/src/base/stats.h
printf '#include "base/stats.h"\n' >>t/src/base/kv.h
sh "$chk" t/src >out.txt 2>&1 && fail "two modules including each other passed"
grep -q '^CYCLE: base/kv includes base/stats and base/stats includes base/kv' out.txt ||
	fail "include cycle not named: $(cat out.txt)"

plant
printf '#include "probes/registry.h"\n' >>t/src/exec/runner.c
sh "$chk" t/src >out.txt 2>&1 && fail "the probe list included from exec/ passed"
grep -q '^PRIVATE: exec/runner.c includes probes/registry.h' out.txt ||
	fail "private header not named: $(cat out.txt)"

# Calls: two objects of one folder that call each other, with no include
# between them, are a cycle; so is a call up the layers.
rm -rf c && mkdir -p c/src/base c/src/cmd c/obj/base c/obj/cmd
printf 'int b(void);\nint a(void) { return b(); }\n' >c/src/base/a.c
printf 'int a(void);\nint b(void) { return a(); }\n' >c/src/base/b.c
printf 'int a(void);\nint cmd(void) { return 0; }\n' >c/src/cmd/x.c
printf 'int cmd(void);\nint up(void) { return cmd(); }\n' >c/src/base/up.c
for f in base/a base/b cmd/x base/up; do
	cc -c -o "c/obj/$f.o" "c/src/$f.c" || fail "cannot compile the planted calls"
done
sh "$chk" c/src c/obj >out.txt 2>&1 && fail "objects calling each other passed"
grep -q '^CYCLE: base/a calls base/b and base/b calls base/a' out.txt ||
	fail "call cycle not named: $(cat out.txt)"
grep -q '^LAYER: base/up.o calls cmd/x.o (cmd/ is above base/)' out.txt ||
	fail "call up the layers not named: $(cat out.txt)"
exit 0
