/* test_cgroup.c - a wrapped command's cgroup and what it held: the cgroup2
 * mount found in mountinfo (this VM's hybrid layout, recorded; a systemd
 * machine's), whether runs may get cgroups there and why not, stale cgroups
 * of a killed mempath removed, the stat files read, smaps_rollup summed
 * (recorded from llama-bench with its model mmap'd).
 *
 * tests/data/cgroup-v2/ is written in the kernel's formats (memory.stat,
 * cpu.stat, io.stat, memory.peak), not recorded: this project's VM has no
 * cgroup v2 memory controller. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "workload/cgroup.h"
#include "workload/sampler.h"

static json_int_t get(json_t *o, const char *a, const char *b)
{
	json_t *v = json_object_get(o, a);
	if (b)
		v = json_object_get(v, b);
	assert_true(json_is_integer(v));
	return json_integer_value(v);
}

static void test_mount(void **state)
{
	char *text = read_file_str("tests/data/mountinfo-hybrid.txt", NULL), *m;
	assert_non_null(text);
	m = cgroup_mount_of(text);
	assert_string_equal(m, "/sys/fs/cgroup/unified"); /* not the v1 "cgroup" mounts */
	free(m);
	free(text);
	text = read_file_str("tests/data/mountinfo-v2.txt", NULL);
	m = cgroup_mount_of(text); /* optional fields (shared:9) before the dash */
	assert_string_equal(m, "/sys/fs/cgroup");
	free(m);
	free(text);
	assert_null(cgroup_mount_of("26 1 254:0 / / rw - ext4 /dev/vda rw\n"));
	assert_null(cgroup_mount_of(""));
}

/* A mountinfo naming dir as the cgroup2 mount, in a file of its own. */
static char *mountinfo_for(const char *dir, char *path, size_t len)
{
	char *text = xasprintf("40 30 0:37 / %s rw,relatime - cgroup2 cgroup2 rw\n", dir);
	snprintf(path, len, "/tmp/mempath-test-cgroup-%d.mountinfo", (int)getpid());
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(text);
	return path;
}

static void test_find(void **state)
{
	char abs[PATH_MAX], info[256], *parent, *why;
	assert_non_null(realpath("tests/data/cgroup-v2", abs));
	/* memory handed to children: runs get cgroups there (as root) */
	mountinfo_for(abs, info, sizeof(info));
	if (access(abs, W_OK) == 0) {
		assert_int_equal(cgroup_find(info, &parent, &why), 0);
		assert_string_equal(parent, abs);
		assert_null(why);
		free(parent);
	}
	unlink(info);
	/* this VM: a v2 mount whose only controller is hugetlb */
	assert_non_null(realpath("tests/data", abs));
	mountinfo_for(abs, info, sizeof(info));
	assert_int_equal(cgroup_find(info, &parent, &why), -1);
	assert_null(parent);
	assert_non_null(strstr(why, "no memory controller"));
	free(why);
	unlink(info);
	assert_int_equal(cgroup_find("tests/data/no-such-mountinfo", &parent, &why), -1);
	assert_non_null(strstr(why, "no cgroup v2"));
	free(why);
}

static void test_stat_files(void **state)
{
	json_t *end = cgroup_read_end("tests/data/cgroup-v2"), *sizes;
	assert_int_equal(get(end, "memory", "pgfault"), 5458);
	assert_int_equal(get(end, "memory", "thp_fault_alloc"), 166);
	assert_null(json_object_get(json_object_get(end, "memory"), "anon")); /* a size */
	assert_int_equal(get(end, "peak", NULL), 705691648);
	assert_int_equal(get(end, "cpu", "usage_usec"), 9810234);
	/* io.stat summed over its two devices */
	assert_int_equal(get(end, "io", "rbytes"), 336592896 + 1048576);
	assert_int_equal(get(end, "io", "rios"), 2578);
	json_decref(end);
	sizes = cgroup_read_sizes("tests/data/cgroup-v2");
	assert_int_equal(get(sizes, "anon_thp", NULL), 348127232);
	assert_int_equal(get(sizes, "file_thp", NULL), 182452224);
	assert_null(json_object_get(sizes, "pgfault")); /* an event */
	json_decref(sizes);
	/* nothing there: absent, never zero */
	end = cgroup_read_end("tests/data/no-such-cgroup");
	assert_int_equal(json_object_size(end), 0);
	json_decref(end);
	end = cgroup_parse_io("8:0 rbytes=x wbytes=5\n");
	assert_null(json_object_get(end, "rbytes"));
	assert_int_equal(get(end, "wbytes", NULL), 5);
	json_decref(end);
}

/* A killed mempath's cgroups go; a live one's, and ours, stay. */
static void test_stale(void **state)
{
	char dir[] = "/tmp/mempath-test-stale-XXXXXX", *p;
	struct stat st;
	assert_non_null(mkdtemp(dir));
	/* above any pid_max: that mempath is gone */
	p = xasprintf("%s/mempath-4194399-3", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/mempath-%d-1", dir, (int)getppid()); /* alive */
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/mempath-%d-2", dir, (int)getpid()); /* ours */
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	p = xasprintf("%s/other", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	free(p);
	assert_int_equal(cgroup_clean_stale(dir), 1);
	p = xasprintf("%s/mempath-4194399-3", dir);
	assert_int_equal(stat(p, &st), -1);
	free(p);
	p = xasprintf("%s/mempath-%d-1", dir, (int)getppid());
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(cgroup_remove(p), 0);
	free(p);
	p = xasprintf("%s/mempath-%d-2", dir, (int)getpid());
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(cgroup_remove(p), 0);
	free(p);
	p = xasprintf("%s/other", dir);
	assert_int_equal(stat(p, &st), 0);
	rmdir(p);
	free(p);
	/* made and removed where the caller says */
	p = cgroup_make(dir, 7, &(char *){NULL});
	assert_non_null(p);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(cgroup_remove(p), 0);
	assert_int_equal(stat(p, &st), -1);
	free(p);
	assert_int_equal(rmdir(dir), 0);
}

static void test_smaps(void **state)
{
	char *text = read_file_str("tests/data/smaps_rollup.txt", NULL);
	json_t *sum = json_object();
	assert_non_null(text);
	sampler_add_smaps(text, sum);
	sampler_add_smaps(text, sum); /* two processes: summed */
	assert_int_equal(get(sum, "Rss", NULL), 2 * 340116 * 1024LL);
	assert_int_equal(get(sum, "FilePmdMapped", NULL), 2 * 73728 * 1024LL);
	assert_int_equal(get(sum, "AnonHugePages", NULL), 0);
	assert_null(json_object_get(sum, "Swap")); /* not a field kept */
	json_decref(sum);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mount),	   cmocka_unit_test(test_find),
		cmocka_unit_test(test_stat_files), cmocka_unit_test(test_stale),
		cmocka_unit_test(test_smaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
