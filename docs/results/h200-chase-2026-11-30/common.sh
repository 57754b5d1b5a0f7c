# Sourced by the scripts of this folder, run from the repository root on the
# H200 machine with OUT the results folder: the libraries from
# third_party/debs unpacked into /opt/dd, mempath built (GPU=0 MPI=0),
# multichase built from build-ref/multichase with its own Makefile, and log().
set -u
T0=$(date +%s)
R=${OUT:?OUT: the results folder}
here=$(dirname "$0")
mkdir -p /opt/dd
for f in third_party/debs/*.deb; do dpkg -x "$f" /opt/dd; done
L=/opt/dd/usr/lib/x86_64-linux-gnu
export C_INCLUDE_PATH=/opt/dd/usr/include LIBRARY_PATH=$L LD_LIBRARY_PATH=$L
log() { echo "[+$(($(date +%s) - T0))s] $*" | tee -a "$R/log.txt"; }
make -j16 MPI=0 GPU=0 >"$R/build.log" 2>&1 || { tail -20 "$R/build.log"; exit 1; }
rm -rf /tmp/mc && cp -r build-ref/multichase /tmp/mc &&
	{ make -C /tmp/mc multichase >"$R/mc-build.log" 2>&1 ||
		make -C /tmp/mc multichase LDFLAGS="-g -O3 -pthread" >>"$R/mc-build.log" 2>&1; } ||
	{ tail "$R/mc-build.log"; exit 1; }
MC=/tmp/mc/multichase
# mempath's best (min) and median of each load_latency row of a results file
mp_rows() { build/mempath report "$1" --format csv | awk -F'"' '/load_latency/ { split($3, v, ","); printf "%s/%s ", v[5], v[8] }'; }
