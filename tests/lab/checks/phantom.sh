# phantom's CPU child with its memory on the memory-only node; numastat says
# where it went.
i=0 m=""
for k in $LAB_NODES; do [ "$k" = m ] && m=$i; i=$((i + 1)); done
echo "$m" >node
cat /sys/devices/system/node/node$m/numastat >before
numactl --membind=$m mempath phantom --cpu 96M --tolerance 24M --settle 20 -o phantom.json >phantom.txt 2>&1
echo $? >phantom.rc
cat /sys/devices/system/node/node$m/numastat >after
