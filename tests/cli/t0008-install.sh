# basics: make install's script puts the binary, mempath(1), the bash and zsh
# completions, the LICENSE and data/'s reference values under DESTDIR +
# PREFIX, nothing elsewhere; the
# installed binary runs and the man page is the one it writes
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
sh "$top/tools/install.sh" "$MEMPATH" "$PWD/stage" /opt/mp >out.txt 2>err.txt ||
	fail "install: $(cat err.txt)"
for f in bin/mempath share/man/man1/mempath.1 share/bash-completion/completions/mempath \
	share/zsh/site-functions/_mempath share/doc/mempath/LICENSE; do
	[ -s "stage/opt/mp/$f" ] || fail "not installed: $f"
done
n_refs=$(ls "$top"/data/*.json | wc -l)
[ "$(find stage -type f | wc -l)" -eq $((5 + n_refs)) ] || fail "installed more than asked: $(find stage -type f)"
for f in "$top"/data/*.json; do
	cmp -s "$f" "stage/opt/mp/share/mempath/data/$(basename "$f")" || fail "reference $f not installed"
done
[ -x stage/opt/mp/bin/mempath ] || fail "the binary is not executable"
stage/opt/mp/bin/mempath --version | grep -q '^mempath ' || fail "the installed binary does not run"
"$MEMPATH" help --man | cmp -s - stage/opt/mp/share/man/man1/mempath.1 || fail "the man page differs"
grep -q '^complete -F _mempath mempath$' stage/opt/mp/share/bash-completion/completions/mempath ||
	fail "bash completion not installed"
head -1 stage/opt/mp/share/zsh/site-functions/_mempath | grep -q '^#compdef mempath' || fail "zsh completion"
# the installed binary judges against the installed references: without
# the VM's file there, the VM's committed run has none to match
r=$top/docs/results/vm-quick-2026-11-30.json
stage/opt/mp/bin/mempath check "$r" >chk1.txt 2>&1
grep -q 'PASS\|WARN\|FAIL' chk1.txt || fail "installed check found no reference: $(head -5 chk1.txt)"
rm stage/opt/mp/share/mempath/data/vm-epyc-2.json
stage/opt/mp/bin/mempath check "$r" >chk2.txt 2>&1
cmp -s chk1.txt chk2.txt && fail "check did not read the installed references"
# the Makefile passes PREFIX and DESTDIR through
grep -q 'tools/install.sh $(BIN) "$(DESTDIR)" "$(PREFIX)"' "$top/Makefile" || fail "make install does not use them"
exit 0
