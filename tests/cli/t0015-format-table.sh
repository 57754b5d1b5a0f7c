# every command's --format reads the one writer table: the choices its usage
# shows are the ones an unknown format's error names (exit 2, one line, the
# nearest name suggested), the ones bash completes, and the ones the man
# page lists; each choice is accepted by the parser (a run of report or
# compare in it succeeds where the command reads a file).
# test: sanitizers (C paths the unit tests miss: tools/sanitize-pick.sh)
. "$top/tests/cli/lib.sh"
d="$top/tests/data"
"$MEMPATH" completion bash >comp.bash || fail "completion bash"
"$MEMPATH" help --man >mempath.1 || fail "help --man"
commands=$("$MEMPATH" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
n=0
for c in $commands; do
	choices=$("$MEMPATH" "$c" --help | grep -oE -- '^ +(-[a-z], )?--format [a-z|]+' | head -1 | awk '{ print $NF }')
	[ -n "$choices" ] || continue
	n=$((n + 1))
	names=$(echo "$choices" | sed 's/|/, /g')
	# the error names them all, and suggests the nearest
	first=${choices%%|*}
	typo=$(echo "$first" | sed 's/.$/x/')
	case $c in wrap | ab | phantom) args="--" ;; *) args="" ;; esac
	# shellcheck disable=SC2086
	expect_fail 2 "$MEMPATH" "$c" --format "${typo}x" $args
	grep -qF "unknown --format '${typo}x'" err.txt || fail "$c: $(cat err.txt)"
	grep -qF "($names)" err.txt || fail "$c: the error does not list $names: $(cat err.txt)"
	# bash completes the same words after --format
	line=$(grep -F "\"$c --format\"" comp.bash | head -1)
	[ -n "$line" ] || fail "$c: no completion for --format"
	for f in $(echo "$choices" | tr '|' ' '); do
		echo "$line" | grep -qw -- "$f" || fail "$c: completion lacks $f: $line"
	done
	# the man page shows them as the option's value
	grep -qF "$(echo "$choices" | sed 's/-/\\-/g')" mempath.1 || fail "$c: man page lacks $choices"
done
[ "$n" -ge 10 ] || fail "only $n commands take --format"
# every format report lists renders a results file, a comparison and a fleet
"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" --format json -o c.json >/dev/null 2>&1 || fail "compare"
"$MEMPATH" fleet merge n1="$d/cmp-aa-1.json" n2="$d/cmp-aa-2.json" -o f.json >/dev/null 2>&1
[ -s f.json ] || fail "fleet merge wrote no file"
for f in $("$MEMPATH" report --help | grep -oE -- '^ +(-[a-z], )?--format [a-z|]+' | awk '{ print $NF }' | tr '|' ' '); do
	for file in "$d/cmp-aa-1.json" c.json f.json; do
		"$MEMPATH" report "$file" --format "$f" >out.txt 2>err.txt
		rc=$?
		[ $rc -le 1 ] || fail "report $file --format $f exited $rc: $(cat err.txt)"
		[ -s out.txt ] || fail "report $file --format $f wrote nothing"
	done
	"$MEMPATH" compare "$d/cmp-aa-1.json" "$d/cmp-aa-2.json" --format "$f" >out.txt 2>err.txt
	[ $? -le 3 ] && [ -s out.txt ] || fail "compare --format $f: $(cat err.txt)"
done
# history list and trend name the formats their tables have
expect_fail 2 "$MEMPATH" history list --format md --db h.db
grep -qF "'history list' writes term or csv or html, not md" err.txt || fail "history list --format md: $(cat err.txt)"
exit 0
