# The repository stands alone: every "docs/design.md §N" a comment, test or
# document cites is a section that exists there, and nothing cites a design
# document or seed report outside the repository.
. "$top/tests/cli/lib.sh"
cd "$top" || fail "no repository at $top"
design=docs/design.md
# Sections: "## N." headings and "N.M " numbered paragraphs.
{ sed -n 's/^## \([0-9][0-9]*\)\..*/\1/p' "$design"; sed -n 's/^\([0-9][0-9]*\.[0-9][0-9]*\) .*/\1/p' "$design"; } |
	sort -u >"$OLDPWD/sections.txt"
[ "$(wc -l <"$OLDPWD/sections.txt")" -ge 40 ] || fail "docs/design.md has too few numbered sections"
n=0
for f in $(git ls-files src tests tools docs README.md Makefile | grep -v '^docs/results/'); do
	[ -f "$f" ] || continue
	for ref in $(grep -o 'design\.md §[0-9][0-9.]*[0-9]' "$f" | sed 's/.*§//'); do
		n=$((n + 1))
		grep -qx "$ref" "$OLDPWD/sections.txt" || fail "$f cites docs/design.md §$ref, which does not exist"
	done
done
[ $n -ge 20 ] || fail "only $n citations found: the check is not looking"
if git grep -n -I -e 'DESIGN §' -e 'DESIGN [0-9]' -e '[Ss]eed 00[0-9]' -e 'shared/seeds' -- src tests tools docs README.md Makefile ':!docs/results' ':!tests/cli/t0005-doc-refs.sh' >"$OLDPWD/refs.txt"; then
	fail "references outside the repository: $(head -5 "$OLDPWD/refs.txt")"
fi
exit 0
