# The study's host half, after each boot: plan ran the legs this kernel may
# (exit 0 or 3 after the last leg, 4 with legs left for another kernel), and
# every leg the journal has done ran under a kernel its variant names.
. "$(dirname "$0")/lib.host.sh"
rc=$(cat plan.rc)
case $rc in 0 | 3 | 4) ;; *) fail "plan exited $rc: $(tail -n 5 plan.err)" ;; esac
[ -s plan/plan.journal ] || fail "no journal"
# each done leg: its variant's kernel (k61-*: 6.1.0-*, k612-*: 6.12.*)
awk '/"kernel":/ { k = $2 } /"state":/ { s = $2 } /"variant":/ { v = $2 }
	/^  }/ { if (s ~ /done/ && !((v ~ /"k61-/ && k ~ /"6\.1\.0-/) || (v ~ /"k612-/ && k ~ /"6\.12\./))) { print v, k; bad = 1 } }
	/^  }/ { k = s = v = "" }
	END { exit bad }' plan/plan.journal || fail "a leg done under the wrong kernel"
echo "note: $(grep -c '"state": "done"' plan/plan.journal) of $(grep -c '"state":' plan/plan.journal) legs done, plan exit $rc, under $(cat ../kernel 2>/dev/null || echo '?')"
exit 0
