#!/usr/bin/env python3
"""The co-tenant table of docs/results/cotenant-2026-12-08.md from the
results files of run.sh: python3 table.py callN/ts.json callN/mps.json"""
import json
import sys

for path in sys.argv[1:]:
    (p,) = json.load(open(path))["probes"]
    mode = "MPS" if any("MPS" in str(v) for v in p["params"].values()) else "time slicing"
    for sched, s in p["extra"]["decode"].items():
        print("%s %s alone %.0f us (%s steps)" % (mode, sched, s["alone"]["step_median_us"],
                                                  s["alone"]["steps"]))
        for d in sorted((k for k in s if k.isdigit()), key=int):
            r = s[d]
            print("| %s | %s | %s | %.1f / %.1f | %+.1f%% [%+.1f, %+.1f] | %s |" % (
                mode, sched, d, r["duty_achieved_pct"], r.get("cotenant_busy_pct", float("nan")),
                r["step_change_pct"], r["ci_lo_pct"], r["ci_hi_pct"],
                " ".join("%+.1f" % x for x in r["block_change_pct"])))
