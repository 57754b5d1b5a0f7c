/* test_pagesize.c - the page-size knobs of the fingerprint read from a
 * fixture tree, the pending-restore record, and a recovery that refuses a
 * record naming files outside the page-size knobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/pending.h"
#include "base/util.h"
#include "machine/pagesize.h"

static void put(const char *root, const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *dir = xstrdup(path);
	FILE *f;
	*strrchr(dir, '/') = '\0';
	assert_int_equal(mkdir_parents(dir, 0700), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	free(dir);
	free(path);
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/test_pagesize.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void rm_tree(char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
	free(cmd);
	free(dir);
}

static void test_knobs(void **state)
{
	char *sys = tmpdir();
	json_t *k = json_object();
	(void)state;
	put(sys, "kernel/mm/transparent_hugepage/hugepages-64kB/enabled",
	    "always inherit madvise [never]\n");
	put(sys, "kernel/mm/transparent_hugepage/hugepages-64kB/shmem_enabled",
	    "always inherit within_size advise [never] deny force\n");
	put(sys, "kernel/mm/transparent_hugepage/hugepages-2048kB/enabled",
	    "always [inherit] madvise never\n");
	put(sys, "kernel/mm/transparent_hugepage/hugepages-8kB/shmem_enabled", "[never]\n");
	put(sys, "kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
	put(sys, "kernel/mm/hugepages/hugepages-2048kB/nr_hugepages", "3\n");
	put(sys, "kernel/mm/hugepages/hugepages-1048576kB/nr_hugepages", "0\n");
	pagesize_knobs(k, sys);
	assert_string_equal(json_string_value(json_object_get(k, "mthp_64kB_enabled")), "never");
	assert_string_equal(json_string_value(json_object_get(k, "mthp_64kB_shmem_enabled")),
			    "never");
	assert_string_equal(json_string_value(json_object_get(k, "mthp_2048kB_enabled")),
			    "inherit");
	assert_null(json_object_get(k, "mthp_8kB_enabled")); /* shmem only */
	assert_string_equal(json_string_value(json_object_get(k, "mthp_8kB_shmem_enabled")),
			    "never");
	assert_int_equal(json_integer_value(json_object_get(k, "hugetlb_2048kB_nr")), 3);
	assert_int_equal(json_integer_value(json_object_get(k, "hugetlb_1048576kB_nr")), 0);
	assert_int_equal(json_object_size(k), 6);
	json_decref(k);
	rm_tree(sys);
}

static void test_pending(void **state)
{
	char *dir = tmpdir(), *sub = xasprintf("%s/a/b", dir), *path = pending_path(sub);
	json_t *rec = json_pack("{s:s, s:s}", "restore", "true", "why", "test"), *back;
	int bad = 1;
	(void)state;
	assert_null(pending_read(sub, &bad));
	assert_int_equal(bad, 0);
	assert_int_equal(pending_write(sub, rec), 0); /* makes the directory */
	back = pending_read(sub, &bad);
	assert_non_null(back);
	assert_string_equal(json_string_value(json_object_get(back, "restore")), "true");
	json_decref(back);
	pending_clear(sub);
	assert_int_not_equal(access(path, F_OK), 0);
	put(sub, "restore.pending", "{\"why\": \"no restore\"}");
	assert_null(pending_read(sub, &bad));
	assert_int_equal(bad, 1);
	json_decref(rec);
	free(path);
	free(sub);
	rm_tree(dir);
}

/* A record is data: a key outside /sys/kernel/mm/ is never written. */
static void test_recover_refuses(void **state)
{
	char *dir = tmpdir(), *victim = xasprintf("%s/victim", dir), note[256], *text;
	json_t *rec = json_pack("{s:s, s:s, s:{s:s}}", "restore", "true", "why", "test", "knobs",
				victim, "written");
	(void)state;
	put(dir, "victim", "kept\n");
	assert_int_equal(pending_write(dir, rec), 0);
	setenv("MEMPATH_KNOB_JOURNAL_DIR", dir, 1);
	assert_int_equal(pagesize_recover(note, sizeof(note)), -1);
	text = read_file_str(victim, NULL);
	assert_string_equal(text, "kept\n");
	free(text);
	text = pending_path(dir);
	assert_int_equal(access(text, F_OK), 0); /* the record stays */
	free(text);
	unsetenv("MEMPATH_KNOB_JOURNAL_DIR");
	json_decref(rec);
	free(victim);
	rm_tree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knobs),
		cmocka_unit_test(test_pending),
		cmocka_unit_test(test_recover_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
