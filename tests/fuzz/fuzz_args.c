/* fuzz_args.c - libFuzzer target for the command line: the input, split at
 * newlines (or NULs) into at most 32 words, is a mempath command line. The
 * first word goes to the command table's suggestion (any length, any bytes:
 * a 65-character word once crashed it), and the words go through every
 * command's own option parser as ab and bisect check a leg before running it
 * (args_try: parse, never run). Nothing may crash, hang or leak; a parser
 * must return 0, 1 (--help) or 2 (one error line). Built and run by `make
 * fuzz`.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"

#define MAX_WORDS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *argv[MAX_WORDS + 1];
	int argc = 0;
	memcpy(s, data, size);
	s[size] = '\0';
	for (char *p = s, *w = s; argc < MAX_WORDS; p++) {
		if (*p == '\n' || *p == '\0') {
			int end = *p == '\0';
			*p = '\0';
			argv[argc++] = w;
			w = p + 1;
			if (end || (size_t)(w - s) > size)
				break;
		}
	}
	argv[argc] = NULL;
	(void)command_suggest(argv[0]);
	(void)command_find(argv[0]);
	for (size_t i = 0; i < command_table_len; i++) {
		unsigned samples = 0;
		unsigned long long given = 0;
		int rc = args_try(command_table[i], argc, argv, &samples, &given);
		if (rc != 0 && rc != 1 && rc != 2)
			abort();
	}
	free(s);
	return 0;
}
