# A clean root: what git tracks at the top of the repository is the
# allowlist below - the build, the licence, the readme and the six
# directories - and nothing a command or a test left there (logs, scratch
# output). A new top-level entry is added here on purpose, or not at all.
# Outside a git checkout (a release tarball) there is nothing to hold, and
# it skips saying so.
. "$top/tests/cli/lib.sh"
command -v git >/dev/null 2>&1 || skip "no git: the tracked root cannot be listed"
git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
	skip "$top is not a git checkout: no tracked root to hold"
allow=".ci .clang-format .gitignore LICENSE Makefile README.md data deploy docs src tests tools"
git -C "$top" ls-files | cut -d/ -f1 | sort -u >root.txt
[ -s root.txt ] || fail "git ls-files listed nothing at $top"
for e in $(cat root.txt); do
	case " $allow " in *" $e "*) ;; *) fail "the root tracks '$e', not in the allowlist ($allow): move it or add it here" ;; esac
done
for e in Makefile README.md src tests; do
	grep -qx "$e" root.txt || fail "the root does not track $e: the listing is not looking at the repository"
done
exit 0
