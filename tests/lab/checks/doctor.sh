# the doctor on this kernel and topology
mempath doctor --format json >doctor.json 2>doctor.err
echo "doctor: exit $?"
mempath doctor >doctor.txt 2>&1
exit 0
