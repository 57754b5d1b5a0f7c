# basics: make install's script puts the binary, mempath(1), the bash and zsh
# completions and the LICENSE under DESTDIR + PREFIX, nothing elsewhere; the
# installed binary runs and the man page is the one it writes
. "$top/tests/cli/lib.sh"
sh "$top/tools/install.sh" "$MEMPATH" "$PWD/stage" /opt/mp >out.txt 2>err.txt ||
	fail "install: $(cat err.txt)"
for f in bin/mempath share/man/man1/mempath.1 share/bash-completion/completions/mempath \
	share/zsh/site-functions/_mempath share/doc/mempath/LICENSE; do
	[ -s "stage/opt/mp/$f" ] || fail "not installed: $f"
done
[ "$(find stage -type f | wc -l)" -eq 5 ] || fail "installed more than asked: $(find stage -type f)"
[ -x stage/opt/mp/bin/mempath ] || fail "the binary is not executable"
stage/opt/mp/bin/mempath --version | grep -q '^mempath ' || fail "the installed binary does not run"
"$MEMPATH" help --man | cmp -s - stage/opt/mp/share/man/man1/mempath.1 || fail "the man page differs"
grep -q '^complete -F _mempath mempath$' stage/opt/mp/share/bash-completion/completions/mempath ||
	fail "bash completion not installed"
head -1 stage/opt/mp/share/zsh/site-functions/_mempath | grep -q '^#compdef mempath' || fail "zsh completion"
# the Makefile passes PREFIX and DESTDIR through
grep -q 'tools/install.sh $(BIN) "$(DESTDIR)" "$(PREFIX)"' "$top/Makefile" || fail "make install does not use them"
exit 0
