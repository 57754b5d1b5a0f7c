# wrap of a small program under numactl: its memory on the last node.
set -- $LAB_NODES
last=$(($# - 1))
echo $last >node
mempath wrap -n 2 --sample-ms 200 -o wrap.json -- numactl --membind=$last tierload 48 1.5 >wrap.txt 2>&1
echo "wrap: exit $?"
exit 0
