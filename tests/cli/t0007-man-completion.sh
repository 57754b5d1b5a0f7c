# basics: the man page and the bash and zsh completions are written from the
# command, option and probe tables, so they cannot drift from --help: every
# command, every option each --help shows, every probe and every probe
# option (with its choices) is in each of them, read back from what
# --help, 'help PROBE' and 'list' print; the page renders without a groff
# warning; bash completes commands, options, choices, probes, probe options
# and their choices, and files
. "$top/tests/cli/lib.sh"
"$MEMPATH" help --man >mempath.1 || fail "help --man"
"$MEMPATH" completion bash >comp.bash || fail "completion bash"
"$MEMPATH" completion zsh >_mempath || fail "completion zsh"
expect_fail 2 "$MEMPATH" completion fish
commands=$("$MEMPATH" --help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
probes=$("$MEMPATH" list | awk 'NR > 1 && /^[a-z]+\.[a-z_]+ / { print $1 }')
[ "$(echo "$commands" | wc -w)" -ge 12 ] || fail "too few commands read from --help: $commands"
[ "$(echo "$probes" | wc -w)" -ge 10 ] || fail "too few probes read from list: $probes"
opts_of() { # the long options a command's --help shows
	"$MEMPATH" "$1" --help | awk '/^options:/ { on = 1; next } on && /^$/ { exit } on' |
		grep -oE -- '^  (-[a-zA-Z], )?--[a-z][a-z-]*|^      --[a-z][a-z-]*' |
		grep -o -- '--[a-z-]*' | sort -u
}
popts_of() { # a probe's option names, and each list option's choices as NAME:a|b
	"$MEMPATH" help "$1" | awk '/^  [a-z_]+=</ { split($1, a, "="); name = a[1]; print name }
		/^ +choices: / { print name ":" $2 }' | sed 's/,$//'
}
# --- the man page
head -3 mempath.1 | grep -q '^\.TH MEMPATH 1 ' || fail "no .TH: $(head -3 mempath.1)"
for c in $commands; do
	grep -q "^\\.SS \"$c[ \"]" mempath.1 || fail "man page: no section for command $c"
	for o in $(opts_of "$c"); do
		grep -q "\\\\fB$(echo "$o" | sed 's/-/\\\\-/g')\\\\fR" mempath.1 ||
			fail "man page: $c's option $o is missing"
	done
done
for p in $probes; do
	grep -q "^\\.SS $p\$" mempath.1 || fail "man page: no section for probe $p"
	for o in $(popts_of "$p"); do
		case $o in
		*:*) grep -q "choices: $(echo "${o#*:}" | sed 's/[|]/[|]/g; s/-/\\\\-/g')" mempath.1 ||
			fail "man page: $p ${o%%:*} choices" ;;
		*) grep -q "^\\\\fB$o=\\\\fR" mempath.1 || fail "man page: $p's option $o is missing" ;;
		esac
	done
done
# EXAMPLES: every command's examples, as its --help shows them
grep -q '^\.SH EXAMPLES$' mempath.1 || fail "man page: no EXAMPLES section"
n_ex=0
for c in $commands; do
	"$MEMPATH" help "$c" | awk '/^examples:$/ { on = 1; next } on && /^$/ { exit } on { sub(/^  /, ""); print }' >ex.txt
	while IFS= read -r line; do
		roffed=$(printf '%s\n' "$line" | sed 's/\\/\\e/g; s/-/\\-/g')
		grep -qxF -- "$roffed" mempath.1 || fail "man page: $c's example '$line' is not under EXAMPLES"
		n_ex=$((n_ex + 1))
	done <ex.txt
done
[ "$n_ex" -ge 20 ] || fail "only $n_ex example lines in the commands' help"
if command -v groff >/dev/null 2>&1; then
	groff -man -Tutf8 -ww -z mempath.1 2>groff.err || fail "groff failed: $(cat groff.err)"
	[ ! -s groff.err ] || fail "groff warns: $(head -5 groff.err)"
else
	echo "no groff here: the page's rendering is not checked"
fi
# --- bash: what a TAB gives after each line
command -v bash >/dev/null 2>&1 || skip "no bash here; the man page checks passed"
cat >c.sh <<'SH'
. ./comp.bash
COMP_WORDBREAKS=$' \t\n"'"'"'><=;|&(:'
while IFS= read -r line; do
	COMP_LINE=$line; COMP_POINT=${#line}; COMPREPLY=()
	_mempath
	printf '%s\t' "$line"; printf '%s ' "${COMPREPLY[@]}"; echo
done
SH
complete_lines() { bash c.sh >replies.txt 2>bash.err || fail "the script failed: $(cat bash.err)"; }
reply() { # reply LINE: what TAB offered after LINE
	awk -F'\t' -v l="$1" '$1 == l { print " " $2 }' replies.txt
}
has() { # has LINE WORD...: each WORD is offered after LINE
	line=$1
	shift
	for w in "$@"; do
		case "$(reply "$line")" in *" $w "*) ;; *) fail "after '$line' TAB should offer '$w': $(reply "$line")" ;; esac
	done
}
{
	echo "mempath "
	for c in $commands; do echo "mempath $c --"; done
	for p in $probes; do echo "mempath probe $p "; done
	for p in $probes; do
		for o in $(popts_of "$p"); do
			case $o in *:*) echo "mempath probe $p ${o%%:*}=" ;; esac
		done
	done
	printf '%s\n' "mempath ru" "mempath run --suite " "mempath report --format " "mempath report c." \
		"mempath probe cpu.lat" "mempath probe --quick cpu.latency pages=4k," "mempath history " \
		"mempath history add c." "mempath help cpu.s" "mempath completion " \
		"mempath run --only cpu.wake,cpu.l" "mempath compare --format=h"
} >lines.txt
complete_lines <lines.txt
# shellcheck disable=SC2086
has "mempath " $commands
for c in $commands; do
	# shellcheck disable=SC2086
	has "mempath $c --" $(opts_of "$c")
done
for p in $probes; do
	for o in $(popts_of "$p"); do
		case $o in
		*:*) has "mempath probe $p ${o%%:*}=" $(echo "${o#*:}" | tr '|' ' ') all ;;
		*) has "mempath probe $p " "$o=" ;;
		esac
	done
done
has "mempath ru" run
has "mempath run --suite " quick full cpu gpu p2p
has "mempath report --format " term md json csv html openmetrics
has "mempath report c." c.sh
has "mempath probe cpu.lat" cpu.latency
has "mempath probe --quick cpu.latency pages=4k," 4k,thp 4k,all
has "mempath history " add list show trend bless check
has "mempath history add c." c.sh
has "mempath help cpu.s" cpu.stream
has "mempath completion " bash zsh
has "mempath run --only cpu.wake,cpu.l" cpu.wake,cpu.latency
has "mempath compare --format=h" html
# --- zsh: no way to press TAB here; the script parses, loads as a
# completion function, and names everything bash does
if ! command -v zsh >/dev/null 2>&1; then
	echo "no zsh here: the zsh script is not checked (the man page and bash checks passed)"
	exit 0
fi
zsh -n _mempath || fail "zsh cannot parse _mempath"
mkdir fp && cp _mempath fp/
zsh -f -c 'fpath=(./fp $fpath); autoload -U compinit; compinit -u -D; (( $+_comps[mempath] ))' ||
	fail "compinit does not take _mempath for mempath"
for c in $commands; do
	grep -q "^		'$c:" _mempath || fail "zsh: command $c missing"
	for o in $(opts_of "$c"); do
		grep -qF -- "'$o[" _mempath || grep -qF -- "'*$o[" _mempath || grep -qF -- ",$o}" _mempath ||
			fail "zsh: $c's option $o missing"
	done
done
[ "$(zsh -f -c '. ./_mempath 2>/dev/null; _mempath_probe_choices cpu.latency pages' 2>/dev/null)" = "4k thp all" ] ||
	fail "zsh: cpu.latency's pages choices"
exit 0
