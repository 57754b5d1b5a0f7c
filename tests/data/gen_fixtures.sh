#!/bin/sh
# gen_fixtures.sh - writes the small results files that the compare tests use
# (tests/data/cmp-*.json). Run from anywhere: sh tests/data/gen_fixtures.sh
# The outputs are committed; this script says how they were made.
#
# Samples come from a Park-Miller generator in awk (integer arithmetic exact
# in any awk's doubles, so every awk writes the same files), roughly normal
# (sum of four uniforms) with a 1% relative spread, 10 samples per metric.
# Each file is one leg; the arguments below change one thing at a time:
#   cmp-aa-{1,2,3}  three legs of one distribution (A/A/A: no WIN/LOSS)
#   cmp-aa-{4..8}, cmp-{effect,control,knob}-b{2,3,4}  more legs of the same,
#                   so that four legs a side (a1 b a3 b2 a4 b3 a5 b4) can be
#                   judged: A/B/A' has too few legs for a verdict (§5.4)
#   cmp-effect-b    touch_rate pages=4k +20% (a known WIN)
#   cmp-drift-a2    touch_rate pages=4k -15% in the repeated baseline (UNSTABLE)
#   cmp-control-b   the pages=4k effect, and the THP path -20% (a moved control)
#   cmp-knob-b      the effect with thp_enabled=always, and swappiness 60 -> 10
#                   during the leg (a knob nobody declared)
#   cmp-void-a2     thp_backed 0 MiB instead of 16 in the repeated baseline
#   cmp-missing-b   random_after pages=4k absent, cpu.stream failed
#   cmp-few-b       5 samples per metric (too few for a verdict)
#   cmp-busy-{a1,b,a2}  A/A/A, the B leg measured while 1.8 other CPUs were
#                   busy (the noise meter's "busy"), the A legs at 0.1
#   cmp-r{1..4}-{a,b}  four rounds of an ab --rounds (leg records name the
#                   round and variant, order ABBA...): touch_rate pages=4k
#                   +20% in every B leg, every metric 30% higher in both legs
#                   of round 2 (a load between rounds), and round 3's B leg
#                   measured with 1.8 other CPUs busy (kept: its ratio reads
#                   as the other rounds' do, so the load did not explain it)
#   cmp-r5-{a,b}    a fifth round whose B leg ran with 1.8 other CPUs busy and
#                   30% slower for it (left out: the load explains its ratio)
# plus corrupt (not JSON), truncated, and a wrong type.
set -eu
cd "$(dirname "$0")"

gen() { # file label seed effect4k thp_scale thp_backed_mib knob_thp swap_end drop stream n
	# [busy round variant level]: busy per sample ("-": none recorded), the
	# round of a leg record (0: none) and its variant, every mean scaled
	awk -v label="$2" -v seed="$3" -v eff="$4" -v thps="$5" -v thpb="$6" \
		-v knob="$7" -v swap_end="$8" -v drop="$9" -v stream="${10}" -v n="${11}" \
		-v busy="${12:--}" -v round="${13:-0}" -v variant="${14:-A}" -v level="${15:-1}" '
	function u() { s = (s * 16807) % 2147483647; return s / 2147483647 }
	function noisy(mu) { return mu * (1 + 0.01 * (u() + u() + u() + u() - 2) * 1.7) }
	function samples(mu, exact,   i, out) {
		out = ""
		if (!exact)
			mu *= level
		for (i = 0; i < n; i++)
			out = out (i ? ", " : "") (exact ? mu : sprintf("%.4f", noisy(mu)))
		return "[" out "]"
	}
	function busies(   i, out) {
		out = ""
		for (i = 0; i < n; i++)
			out = out (i ? ", " : "") busy
		return "[" out "]"
	}
	function metric(name, unit, better, labels, mu, exact, last) {
		printf "    {\"name\": \"%s\", \"unit\": \"%s\", \"better\": \"%s\",\n", name, unit, better
		printf "     \"labels\": {%s},\n", labels
		if (busy != "-")
			printf "     \"busy\": %s,\n", busies()
		printf "     \"samples\": %s}%s\n", samples(mu, exact), last ? "" : ","
	}
	BEGIN {
		s = seed
		printf "{\n \"schema\": \"mempath/run/1\",\n"
		printf " \"tool\": {\"name\": \"mempath\", \"version\": \"0.1.0\", \"git\": \"fixture\"},\n"
		printf " \"argv\": [\"mempath\", \"probe\", \"cpu.first_touch\"],\n"
		printf " \"label\": \"%s\", \"suite\": null,\n", label
		printf " \"start_time\": \"2026-11-30T00:00:00Z\", \"end_time\": \"2026-11-30T00:01:00Z\",\n"
		printf " \"interrupted\": false,\n"
		printf " \"host\": {\"hostname\": \"fixture\", \"kernel\": \"6.1.0-test\", \"cpu\": {\"model\": \"Fixture CPU\"}},\n"
		printf " \"knobs\": {\"start\": {\"thp_enabled\": \"%s\", \"swappiness\": 60},\n", knob
		printf "           \"end\": {\"thp_enabled\": \"%s\", \"swappiness\": %d}},\n", knob, swap_end
		if (round)
			printf " \"leg\": {\"variant\": \"%s\", \"label\": \"%s\", \"setup\": null, \"env\": {}, \"round\": %d, \"order\": \"abba\"},\n", variant, label, round
		printf " \"probes\": [\n  {\"name\": \"cpu.first_touch\", \"status\": \"ok\", \"reason\": null,\n"
		printf "   \"params\": {\"size\": \"16M\", \"pages\": \"4k,thp\", \"touch\": \"write\", \"streams\": \"8\", \"size_used\": \"16M\"},\n"
		printf "   \"metrics\": [\n"
		metric("touch_rate", "GiB/s", "higher", "\"pages\": \"4k\", \"touch\": \"write\"", 2.0 * eff, 0, 0)
		metric("minor_faults", "/GiB", "lower", "\"pages\": \"4k\", \"touch\": \"write\"", 262144, 1, 0)
		metric("thp_backed", "MiB", "none", "\"pages\": \"4k\", \"touch\": \"write\"", 0, 1, 0)
		if (!drop)
			metric("random_after", "Macc/s", "higher", "\"pages\": \"4k\", \"touch\": \"write\", \"streams\": \"8\"", 80, 0, 0)
		metric("touch_rate", "GiB/s", "higher", "\"pages\": \"thp\", \"touch\": \"write\"", 12.0 * thps, 0, 0)
		metric("thp_backed", "MiB", "none", "\"pages\": \"thp\", \"touch\": \"write\"", thpb, 1, 0)
		metric("random_after", "Macc/s", "higher", "\"pages\": \"thp\", \"touch\": \"write\", \"streams\": \"8\"", 95 * thps, 0, 1)
		printf "   ]},\n"
		if (stream == "ok") {
			printf "  {\"name\": \"cpu.stream\", \"status\": \"ok\", \"reason\": null, \"params\": {\"threads\": \"1\"},\n   \"metrics\": [\n"
			metric("copy_bw", "GB/s", "higher", "\"threads\": \"1\"", 20, 0, 1)
			printf "   ]}\n"
		} else {
			printf "  {\"name\": \"cpu.stream\", \"status\": \"fail\", \"reason\": \"crashed: signal 11 (Segmentation fault)\",\n"
			printf "   \"params\": {\"threads\": \"1\"}, \"metrics\": []}\n"
		}
		printf " ]\n}\n"
	}' >"$1"
}

#   file                label    seed   eff  thp  thpMiB knob     swap drop stream n
gen cmp-aa-1.json       stock    11     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-2.json       stock    22     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-3.json       stock    33     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-effect-b.json   patched  44     1.2  1.0  16     madvise  60   0    ok     10
gen cmp-drift-a2.json   stock    55     0.85 1.0  16     madvise  60   0    ok     10
gen cmp-control-b.json  patched  66     1.2  0.8  16     madvise  60   0    ok     10
gen cmp-knob-b.json     patched  77     1.2  1.0  16     always   10   0    ok     10
gen cmp-void-a2.json    stock    88     1.0  1.0  0      madvise  60   0    ok     10
gen cmp-missing-b.json  patched  99     1.0  1.0  16     madvise  60   1    fail   10
gen cmp-few-b.json      patched  111    1.2  1.0  16     madvise  60   0    ok     5
gen cmp-aa-4.json       stock    34     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-5.json       stock    35     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-6.json       stock    36     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-7.json       stock    37     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-aa-8.json       stock    38     1.0  1.0  16     madvise  60   0    ok     10
gen cmp-effect-b2.json  patched  45     1.2  1.0  16     madvise  60   0    ok     10
gen cmp-effect-b3.json  patched  46     1.2  1.0  16     madvise  60   0    ok     10
gen cmp-effect-b4.json  patched  47     1.2  1.0  16     madvise  60   0    ok     10
gen cmp-control-b2.json patched  67     1.2  0.8  16     madvise  60   0    ok     10
gen cmp-control-b3.json patched  68     1.2  0.8  16     madvise  60   0    ok     10
gen cmp-control-b4.json patched  69     1.2  0.8  16     madvise  60   0    ok     10
gen cmp-knob-b2.json    patched  78     1.2  1.0  16     always   10   0    ok     10
gen cmp-knob-b3.json    patched  79     1.2  1.0  16     always   10   0    ok     10
gen cmp-knob-b4.json    patched  80     1.2  1.0  16     always   10   0    ok     10

#   file                label    seed   eff  thp  thpMiB knob     swap drop stream n  busy round variant level
gen cmp-busy-a1.json    stock    121    1.0  1.0  16     madvise  60   0    ok     10 0.1
gen cmp-busy-b.json     stock    122    1.0  1.0  16     madvise  60   0    ok     10 1.8
gen cmp-busy-a2.json    stock    123    1.0  1.0  16     madvise  60   0    ok     10 0.1
gen cmp-r1-a.json       stock    131    1.0  1.0  16     madvise  60   0    ok     6  0.1 1 A 1.0
gen cmp-r1-b.json       patched  132    1.2  1.0  16     madvise  60   0    ok     6  0.1 1 B 1.0
gen cmp-r2-b.json       patched  133    1.2  1.0  16     madvise  60   0    ok     6  0.2 2 B 1.3
gen cmp-r2-a.json       stock    134    1.0  1.0  16     madvise  60   0    ok     6  0.2 2 A 1.3
gen cmp-r3-a.json       stock    135    1.0  1.0  16     madvise  60   0    ok     6  0.1 3 A 1.0
gen cmp-r3-b.json       patched  136    1.2  1.0  16     madvise  60   0    ok     6  1.8 3 B 1.0
gen cmp-r4-b.json       patched  137    1.2  1.0  16     madvise  60   0    ok     6  0.1 4 B 1.0
gen cmp-r4-a.json       stock    138    1.0  1.0  16     madvise  60   0    ok     6  0.1 4 A 1.0
gen cmp-r5-a.json       stock    139    1.0  1.0  16     madvise  60   0    ok     6  0.1 5 A 1.0
gen cmp-r5-b.json       patched  140    1.2  1.0  16     madvise  60   0    ok     6  1.8 5 B 0.7

printf '{"schema": "mempath/run/1", "probes": [ {"name": "cpu.first_touch", oops\n' >cmp-corrupt.json
head -c 700 cmp-aa-1.json >cmp-truncated.json
sed '0,/"samples": \[[0-9.]*/s//"samples": ["fast"/' cmp-aa-1.json >cmp-badtype.json
