# The co-tenant runs on the lent H200 (docs/results/cotenant-h200-2026-12-02.md):
# build there (Debian 12's libjansson, libnuma, libsqlite3 unpacked under
# /opt/deps), gpu.sync's decode steps with a co-tenant at 0/10/25/50% twice
# under default time slicing, then twice with both processes as clients of an
# MPS control daemon of our own (private pipe and log directories), quit on
# every exit; last, what is left on the GPU.
set -u
D=/opt/deps L=/opt/deps/usr/lib/x86_64-linux-gnu
mkdir -p $D && for f in .debs/*.deb; do dpkg -x "$f" $D; done
export CPATH=$D/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L NCCL_NVLS_ENABLE=0
make -j16 MPI=0 >"$OUT/build.txt" 2>&1 || { tail -30 "$OUT/build.txt"; exit 1; }
B=build/mempath P="gpu.sync weight_pct=25 sched=spin,blocking --reps 30"
{ date -u; nvidia-smi; nvidia-smi -q | grep -i -E "driver version|compute mode|cuda version"; } >"$OUT/env.txt" 2>&1
for r in 1 2; do $B probe $P -o "$OUT/ts$r.json" >"$OUT/ts$r.txt" 2>&1; tail -25 "$OUT/ts$r.txt"; done
M=$(mktemp -d)
mkdir -p $M/pipe $M/log
quit_mps() { CUDA_MPS_PIPE_DIRECTORY=$M/pipe sh -c 'echo quit | nvidia-cuda-mps-control' 2>/dev/null; }
trap quit_mps EXIT INT TERM
if CUDA_MPS_PIPE_DIRECTORY=$M/pipe CUDA_MPS_LOG_DIRECTORY=$M/log nvidia-cuda-mps-control -d; then
	for r in 1 2; do
		CUDA_MPS_PIPE_DIRECTORY=$M/pipe CUDA_MPS_LOG_DIRECTORY=$M/log \
			$B probe $P -o "$OUT/mps$r.json" >"$OUT/mps$r.txt" 2>&1
		tail -25 "$OUT/mps$r.txt"
	done
	quit_mps
	sleep 2
else
	echo "MPS: nvidia-cuda-mps-control -d failed" | tee "$OUT/mps1.txt"
fi
trap - EXIT
{ date -u; nvidia-smi; echo "--- compute apps"; nvidia-smi --query-compute-apps=pid,name --format=csv
  echo "--- mps or co-tenant processes left:"; ps -eo pid,args | grep -E "mps-control|mps-server|__cotenant" | grep -v grep; } >"$OUT/after.txt" 2>&1
cat "$OUT/after.txt" | tail -12
