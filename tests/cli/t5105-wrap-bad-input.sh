# wrap: bad input is one error line and exit 2.
. "$top/tests/cli/lib.sh"
expect_fail 2 "$MEMPATH" wrap -n 3
expect_fail 2 "$MEMPATH" wrap -n 0 -- true
expect_fail 2 "$MEMPATH" wrap --warmup x -- true
expect_fail 2 "$MEMPATH" wrap --parse yaml -- true
expect_fail 2 "$MEMPATH" wrap --format xml -- true
expect_fail 2 "$MEMPATH" wrap --timeout 0 -- true
"$MEMPATH" help wrap | grep -q '^usage: mempath wrap' || fail "help wrap"
exit 0
