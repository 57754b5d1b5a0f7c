# parent: sh that runs a CPU-bound child, waits for it, then sleeps
sh -c 'awk "BEGIN{for(i=0;i<150000000;i++)s+=i}" & wait; sleep 3' &
P=$!
sleep 0.3
C=$(cat /proc/$P/task/$P/children | awk '{print $1}')
sleep 0.5
cat /proc/$P/stat > parent-before.txt; cat /proc/$C/stat > child-before.txt
while [ -e /proc/$C ]; do sleep 0.05; done
sleep 0.2
cat /proc/$P/stat > parent-after.txt
wait
