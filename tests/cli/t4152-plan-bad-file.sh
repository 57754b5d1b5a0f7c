# plan: a bad plan file is one error line naming the file and line, exit 2,
# and nothing runs (no setup, no journal, no directory).
. "$top/tests/cli/lib.sh"
good='command probe cpu.first_touch size=4M --reps 3
legs a b
variant a
  setup echo a >>trail
variant b
  setup echo b >>trail'
# bad NAME TEXT PATTERN: the plan file TEXT is refused with PATTERN
bad() {
	mkdir -p "$1"
	printf '%s\n' "$2" >"$1/p.plan"
	expect_fail 2 "$MEMPATH" plan "$1/p.plan"
	grep -q "$3" err.txt || fail "$1: $(cat err.txt), expected '$3'"
	[ ! -e trail ] || fail "$1: a setup ran"
	[ ! -e "$1/plan.journal" ] || fail "$1: a journal was written"
}
bad unknown "$good
colour blue" "p.plan:7: unknown statement 'colour' in variant 'b'"
bad top "bogus 1
$good" "p.plan:1: unknown statement 'bogus' (command, legs"
bad kernel "$good
  kernel" "p.plan:7: kernel takes one GLOB"
bad kernel2 "$good
  kernel 6.1 6.12" "p.plan:7: kernel takes one GLOB"
bad module "$good
  module a/b 1" "p.plan:7: module takes NAME \[VERSION\]"
bad cmdline "$good
  cmdline !" "p.plan:7: cmdline takes one \[!\]WORD"
bad env "$good
  env NOVALUE" "p.plan:7: env takes one K=V"
bad twice "$good
  setup true" "p.plan:7: 'setup' given twice"
bad undeclared "$(echo "$good" | sed 's/^legs a b$/legs a b c/')" "p.plan:2: legs: no variant 'c' is declared"
bad unbalanced "$(echo "$good" | sed 's/^legs a b$/legs a b b/')" "p.plan:2: legs: variant 'b' has 2 leg(s), 'a' 1"
bad onevariant "command probe cpu.first_touch --reps 3
legs a a
variant a" "a plan needs two variants or more"
bad nocommand "$(echo "$good" | sed '1d')" "no 'command' line"
bad nolegs "$(echo "$good" | sed '2d')" "no 'legs' line"
bad quote "$(echo "$good" | sed "1s/.*/command probe 'cpu.first_touch --reps 3/")" "p.plan:1: an unclosed quote"
bad name "$(echo "$good" | sed 's/^variant b$/variant b\/c/')" "p.plan:5: a variant's name is letters"
bad dup "$(echo "$good" | sed 's/^variant b$/variant a/')" "p.plan:5: a variant of that name is declared already"
bad baseline "$good
baseline z" "p.plan:7: baseline: no variant of that name"
bad notmeasure "$(echo "$good" | sed '1s/.*/command sysinfo/')" "'sysinfo' is not a mempath command that measures"
bad output "$(echo "$good" | sed '1s/$/ -o x.json/')" "the leg command sets its output"
bad few "$(echo "$good" | sed '1s/--reps 3/--reps 2/')" "a leg of a round needs at least 3"
bad badopt "$(echo "$good" | sed '1s/$/ --no-such-option/')" "no-such-option"
printf 'command probe\0x\n' >nul.plan
expect_fail 2 "$MEMPATH" plan nul.plan
grep -q 'not a text file' err.txt || fail "a NUL byte: $(cat err.txt)"
expect_fail 2 "$MEMPATH" plan no-such.plan
grep -q "cannot read the plan file 'no-such.plan'" err.txt || fail "missing file: $(cat err.txt)"
expect_fail 2 "$MEMPATH" plan
expect_fail 2 "$MEMPATH" plan a.plan b.plan
exit 0
