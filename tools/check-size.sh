#!/bin/sh
# tools/check-size.sh SRC_DIR - no source file over 600 lines, no function
# over 150 (from the line of its opening brace to its closing one; the
# checked-in .clang-format puts both at the start of a line).
set -u
src=${1:?usage: check-size.sh SRC_DIR}
max_file=${MAX_FILE_LINES:-600}
max_fn=${MAX_FUNCTION_LINES:-150}
find "$src" -name '*.[ch]' -o -name '*.cu' | sort | xargs awk -v mf="$max_file" -v mfn="$max_fn" '
FNR == 1 { if (prev != "" && plines > mf) { printf "SIZE: %s has %d lines (at most %d)\n", prev, plines, mf; bad = 1 }
	   prev = FILENAME; start = 0; name = "" }
{ plines = FNR }
/^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { name = $0 }
/^\{/ { start = FNR }
/^\}/ && start { n = FNR - start + 1
	if (n > mfn) { sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
		printf "SIZE: %s:%d: function %s has %d lines (at most %d)\n", FILENAME, start, name, n, mfn; bad = 1 }
	start = 0 }
END { if (plines > mf) { printf "SIZE: %s has %d lines (at most %d)\n", prev, plines, mf; bad = 1 }
      if (bad) exit 1; print "check-size: ok" }'
