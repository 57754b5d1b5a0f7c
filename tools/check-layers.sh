#!/bin/sh
# tools/check-layers.sh SRC_DIR [OBJ_DIR] - the house's one direction.
#
# Reads every #include "..." under SRC_DIR and, when OBJ_DIR (the objects of
# SRC_DIR, e.g. build/src) is given, every call or data reference between
# objects (nm). Fails, naming each offence, when
#   - a file includes or calls a folder ranked above its own (tools/layers),
#   - a private header is included from outside the files allowed it,
#   - two modules (a module is a .c and its .h: base/util) reach each other
#     through includes or calls, directly or round a longer cycle.
# Prints "check-layers: ok (N modules, N edges)" otherwise.
set -u
src=${1:?usage: check-layers.sh SRC_DIR [OBJ_DIR]}
obj=${2:-}
layers=${LAYERS:-$(dirname "$0")/layers}
[ -d "$src" ] || { echo "check-layers: no directory '$src'" >&2; exit 2; }
[ -f "$layers" ] || { echo "check-layers: no layers file '$layers'" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check-layers.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM

# Include edges: "I from-file to-file".
(cd "$src" && find . -name '*.[ch]' -o -name '*.cu' | sed 's|^\./||' | sort) >"$tmp/files"
while read -r f; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$src/$f" |
		while read -r inc; do
			[ -f "$src/$inc" ] && echo "I $f $inc"
		done
done <"$tmp/files" >"$tmp/edges"

# Call edges: "C from-object to-object" for each undefined symbol of one
# object that another object defines.
if [ -n "$obj" ]; then
	[ -d "$obj" ] || { echo "check-layers: no directory '$obj'" >&2; exit 2; }
	# Only the objects of today's sources: a build directory may hold stale ones.
	(cd "$obj" && find . -name '*.o' | sed 's|^\./||' | sort) | while read -r o; do
		m=${o%.o}
		[ -f "$src/$m.c" ] || [ -f "$src/$m.cu" ] || continue
		echo "$obj/$o"
	done >"$tmp/objs"
	xargs nm -o <"$tmp/objs" 2>/dev/null | sed "s|^$obj/||" |
		awk '{ file = $1; sub(/:.*/, "", file)
		       if (NF == 3 && $2 ~ /^[TDBRCVWG]$/) print "D", file, $3
		       else if ($(NF-1) == "U") print "U", file, $NF }' >"$tmp/syms"
	awk '$1 == "D" { def[$3] = $2 }
	     $1 == "U" && ($3 in def) && def[$3] != $2 { print "C", $2, def[$3] }' \
		"$tmp/syms" "$tmp/syms" | sort -u >>"$tmp/edges"
fi

awk -v layers="$layers" '
function folder(path) { return index(path, "/") ? substr(path, 1, index(path, "/") - 1) : "." }
function module(path) { sub(/\.(c|h|cu|o)$/, "", path); return path }
BEGIN {
	while ((getline line < layers) > 0) {
		if (line ~ /^#/ || line ~ /^[[:space:]]*$/) continue
		n = split(line, w, /[[:space:]]+/)
		if (w[1] == "private") { allowed[w[2]] = line; continue }
		rank[w[1]] = ++nrank
	}
	bad = 0
}
{
	kind = $1; from = $2; to = $3
	ff = folder(from); ft = folder(to)
	if (!(ff in rank)) { printf "check-layers: %s is in folder %s, which tools/layers does not list\n", from, ff; bad = 1; next }
	if (!(ft in rank)) { printf "check-layers: %s is in folder %s, which tools/layers does not list\n", to, ft; bad = 1; next }
	what = kind == "I" ? "includes" : "calls"
	if (rank[ft] > rank[fs = ff]) {
		printf "LAYER: %s %s %s (%s/ is above %s/)\n", from, what, to, ft, ff; bad = 1
	}
	if (kind == "I" && (to in allowed)) {
		n = split(allowed[to], w, /[[:space:]]+/); ok = 0
		for (i = 3; i <= n; i++) if (index(from, w[i]) == 1) ok = 1
		if (!ok) { printf "PRIVATE: %s includes %s (only: %s)\n", from, to, substr(allowed[to], length("private " to) + 2); bad = 1 }
	}
	a = module(from); b = module(to)
	if (a == b) next
	if (!(a SUBSEP b in adj)) { adj[a, b] = what; out[a] = out[a] " " b; nedges++ }
	node[a] = 1; node[b] = 1
}
END {
	# Reachability from every module (iterative DFS); a cycle is a pair of
	# modules that reach each other.
	for (s in node) {
		nst = 0; delete seen
		split(out[s], nx, " "); for (i in nx) if (nx[i] != "") stack[++nst] = nx[i]
		while (nst > 0) {
			v = stack[nst--]
			if (v in seen) continue
			seen[v] = 1; reach[s, v] = 1
			split(out[v], nx, " "); for (i in nx) if (nx[i] != "" && !(nx[i] in seen)) stack[++nst] = nx[i]
		}
	}
	for (a in node) for (b in node)
		if (a < b && ((a, b) in reach) && ((b, a) in reach)) {
			if (((a, b) in adj) && ((b, a) in adj))
				printf "CYCLE: %s %s %s and %s %s %s\n", a, adj[a, b], b, b, adj[b, a], a
			else
				printf "CYCLE: %s and %s reach each other through other modules\n", a, b
			bad = 1
		}
	nmod = 0; for (a in node) nmod++
	if (bad) exit 1
	printf "check-layers: ok (%d modules, %d edges)\n", nmod, nedges
}' "$tmp/edges"
