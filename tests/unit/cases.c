/* cases.c - linked into every unit test (-Wl,--wrap=_cmocka_run_group_tests):
 * picks the cases a run asks for by name, as tests/run.sh does for the CLI
 * tests. MEMPATH_SKIP_TESTS and MEMPATH_ONLY_TESTS hold names separated by
 * blanks or commas, each a shell pattern: `test_proc` names a unit test (all
 * its cases), `test_proc.test_rusage_wall` one case. A skipped case prints
 * cmocka's `[  SKIPPED ] NAME` line (the runner counts it); one that
 * MEMPATH_ONLY_TESTS leaves out is not run and prints nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __real__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown);
int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown);

/* Does one of the names in LIST (a copy is cut) name case CASE of this unit
 * test? A name without a dot names the whole test. */
static int named(const char *list, const char *unit, const char *name)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int hit = 0;

	for (tok = strtok_r(copy, " \t\n,", &save); tok && !hit;
	     tok = strtok_r(NULL, " \t\n,", &save)) {
		char *dot = strchr(tok, '.');
		if (!dot) {
			hit = fnmatch(tok, unit, 0) == 0;
			continue;
		}
		*dot = '\0';
		hit = fnmatch(tok, unit, 0) == 0 && fnmatch(dot + 1, name, 0) == 0;
	}
	free(copy);
	return hit;
}

int __wrap__cmocka_run_group_tests(const char *group_name, const struct CMUnitTest *const tests,
				   const size_t num_tests, CMFixtureFunction group_setup,
				   CMFixtureFunction group_teardown)
{
	const char *skip = getenv("MEMPATH_SKIP_TESTS"), *only = getenv("MEMPATH_ONLY_TESTS");
	const char *unit = program_invocation_short_name;
	struct CMUnitTest *keep;
	size_t i, n = 0;
	int rc;

	if ((!skip || !*skip) && (!only || !*only))
		return __real__cmocka_run_group_tests(group_name, tests, num_tests, group_setup,
						      group_teardown);
	keep = calloc(num_tests ? num_tests : 1, sizeof(*keep));
	if (!keep)
		return 1;
	for (i = 0; i < num_tests; i++) {
		if (only && *only && !named(only, unit, tests[i].name))
			continue;
		if (skip && *skip && named(skip, unit, tests[i].name)) {
			printf("[  SKIPPED ] %s (MEMPATH_SKIP_TESTS)\n", tests[i].name);
			continue;
		}
		keep[n++] = tests[i];
	}
	fflush(stdout);
	rc = __real__cmocka_run_group_tests(group_name, keep, n, group_setup, group_teardown);
	free(keep);
	return rc;
}
