# gpu: gpu.sync mps=1 on the fake backend with a stand-in nvidia-cuda-mps-control
# on PATH (a shell script: -d leaves a daemon whose environment names the
# pipe directory, as the real one's does; "quit" on stdin ends it). The probe
# starts its own daemon with private pipe and log directories, records the
# sharing, passes CUDA_MPS_ACTIVE_THREAD_PERCENTAGE to the co-tenant only, and
# no daemon and no directory of it is left: not after a normal end, not after
# SIGKILL of mempath while its co-tenant runs. Without the control program
# the probe is skipped with the reason.
# test: waits (a stand-in daemon's life and the watcher's end of it: a lane beside the pool, tests/run.sh)
. "$top/tests/cli/lib.sh"
command -v python3 >/dev/null 2>&1 || skip "python3 not installed (reads the results file)"
command -v pgrep >/dev/null 2>&1 || skip "no pgrep"
fake=$(dirname "$MEMPATH")/mempath-fake
if "$MEMPATH" sysinfo --json 2>/dev/null | grep -q '"backend": *"fake"'; then
	fake=$MEMPATH
fi
[ -x "$fake" ] || skip "no $fake: make test-plain links it (not in the sanitizer pass)"

mkdir -p bin tmp
cat >bin/nvidia-cuda-mps-control <<'SH'
#!/bin/sh
# stand-in: -d starts a "daemon" (a sleep whose environment holds the pipe
# directory), a client reading "quit" ends it
d=$CUDA_MPS_PIPE_DIRECTORY
if [ "$1" = "-d" ]; then
	[ -d "$d" ] && [ -d "$CUDA_MPS_LOG_DIRECTORY" ] || exit 1
	setsid sleep 300 </dev/null >/dev/null 2>&1 &
	echo $! >"$d/daemon.pid"
	: >"$d/control"
	echo "[fake] NEW CLIENT 1 from user 0" >"$CUDA_MPS_LOG_DIRECTORY/control.log"
	exit 0
fi
read -r cmd
[ "$cmd" = quit ] || exit 2
kill "$(cat "$d/daemon.pid")" 2>/dev/null
rm -f "$d/control" "$d/daemon.pid"
SH
chmod +x bin/nvidia-cuda-mps-control
here=$(pwd)
export TMPDIR="$here/tmp"
daemons() { pgrep -f "^sleep 300" | while read -r p; do
	tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -q "^CUDA_MPS_PIPE_DIRECTORY=$here/tmp/" &&
		echo "$p"; done; }

# no control program: skipped with the reason, no directory left
PATH=/usr/bin:/bin "$fake" probe gpu.sync weight_pct=1 duties=0 sched=spin launches=4 mps=1 \
	--reps 3 -o none.json >none.txt 2>&1
python3 -c '
import json; (p,) = json.load(open("none.json"))["probes"]
assert p["status"] == "skip" and "nvidia-cuda-mps-control" in p["reason"], p' ||
	fail "no control program: not a skip naming it: $(tail -n 2 none.txt)"
[ -z "$(ls tmp | grep mempath-mps)" ] || fail "a directory is left without a daemon: $(ls tmp | grep mempath-mps)"

PATH="$here/bin:$PATH" spawn "$fake" probe gpu.sync weight_pct=1 duties=0,10 sched=spin \
	launches=4 mps=1 mps_pct=40 --reps 4 --warmups 1 --window-ms 10 -o mps.json
sid=$spawned
wait "$sid" || fail "gpu.sync mps=1 on the fake backend exited non-zero"
python3 - <<'PY' || fail "the MPS run's results are wrong"
import json
(p,) = json.load(open("mps.json"))["probes"]
assert p["status"] == "ok", (p["status"], p.get("reason"))
assert "control daemon of the probe's own" in p["params"]["sharing"], p["params"]
assert "CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=40" in p["params"]["sharing"], p["params"]
r = p["extra"]["decode"]["spin"]["10"]
assert "mps_client" in r and 0 < r["duty_achieved_pct"] <= 100, r
assert r["cotenant_busy_pct"] > 0 and r["cotenant_stretch"] > 0, r
PY
[ -z "$(daemons)" ] || fail "a daemon is left after the probe's end: $(daemons)"
[ -z "$(ls tmp | grep mempath-mps)" ] || fail "the MPS directories are left: $(ls tmp | grep mempath-mps)"

# SIGKILL while the co-tenant runs: the watcher ends the daemon
PATH="$here/bin:$PATH" spawn "$fake" probe gpu.sync weight_pct=1 duties=50 sched=spin \
	launches=4 mps=1 --reps 30 --window-ms 100 -o killed.json
sid=$spawned
i=0
while [ -z "$(left "$sid" __cotenant)" ]; do
	i=$((i + 1))
	[ $i -lt 1200 ] || { kill -9 "$sid"; fail "no co-tenant started in 60 s"; }
	kill -0 "$sid" 2>/dev/null || fail "the probe ended before its co-tenant started"
	sleep 0.05
done
[ -n "$(daemons)" ] || fail "no daemon while the co-tenant runs"
kill -9 "$sid"
wait "$sid" 2>/dev/null
i=0
while [ -n "$(daemons)" ] || [ -n "$(ls tmp | grep mempath-mps)" ]; do
	i=$((i + 1))
	[ $i -lt 300 ] || fail "left 30 s after SIGKILL: $(daemons) $(ls tmp | grep mempath-mps)"
	sleep 0.1
done
exit 0
