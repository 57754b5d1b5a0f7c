/* main.c - mempath: the command table (src/cmd/commands.c) decides the rest. */
#include "cmd/commands.h"

int main(int argc, char **argv)
{
	return commands_main(argc, argv);
}
