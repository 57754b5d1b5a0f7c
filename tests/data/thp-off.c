/* thp-off.c - runs a command with transparent huge pages disabled for its
 * process tree (prctl PR_SET_THP_DISABLE, inherited across fork and exec):
 * the planted fault of tests/cli/t7002-fleet-fault.sh. */
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: thp-off COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0) != 0) {
		perror("thp-off: prctl(PR_SET_THP_DISABLE)");
		return 2;
	}
	execvp(argv[1], argv + 1);
	perror("thp-off: exec");
	return 127;
}
