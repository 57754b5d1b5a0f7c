# the fingerprint as this guest reads it, and check on it
mempath sysinfo --json >sysinfo.json
mempath probe cpu.wake --quick --reps 3 --warmups 0 -o wake.json >wake.txt 2>&1
mempath check wake.json >check.txt 2>&1
echo $? >check.rc
