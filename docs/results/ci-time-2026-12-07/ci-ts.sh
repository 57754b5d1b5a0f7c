#!/bin/sh
# a clean clone of /work/main at HEAD, .ci/run timed, each line stamped
d=$(mktemp -d /tmp/ci.XXXX); git clone -q /work/main $d/mp; cd $d/mp
echo "$d $(git rev-parse --short HEAD) start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" > $d/meta.txt
t0=$(date +%s.%N)
CI=true /usr/bin/time -v bash .ci/run 2>&1 | perl -MTime::HiRes=time -ne 'BEGIN{$|=1; $t0=time} printf "%6.1f %s", time-$t0, $_' > $d/out.txt
echo "end $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $d/meta.txt
echo $d
