# cpu.numa on this topology: the matrix, the topology it recorded, placement.
mempath probe cpu.numa --quick size=16M --reps 3 --warmups 0 -o numa.json
exit 0
