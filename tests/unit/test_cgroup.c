/* test_cgroup.c - a wrapped command's cgroup and what it held: the cgroup2
 * mount found in mountinfo (this VM's hybrid layout, recorded; a systemd
 * machine's), whether runs may get cgroups there and why not, stale cgroups
 * of a killed mempath removed, the stat files read, smaps_rollup summed
 * (recorded from llama-bench with its model mmap'd).
 *
 * tests/data/cgroup-v2/ is written in the kernel's formats (memory.stat,
 * cpu.stat, io.stat, memory.peak), not recorded: this project's VM has no
 * cgroup v2 memory controller. tests/data/cgroup-v1/ is recorded on this
 * VM (2026-12-01: its mountinfo and /proc/self/cgroup, a run's memory
 * group mid-fill of 300 MiB with MADV_HUGEPAGE); cgroup-slurm-v1/ (RHEL 8
 * layout) and cgroup-slurm-v2/ (Slurm's cgroup/v2 plugin) are written in
 * the kernel's and Slurm's formats, not recorded: no Slurm here. */
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
#include <sys/wait.h>
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

/* A recorded layout under tests/data/<name>: its mountinfo and
 * /proc/self/cgroup, the files under it. */
static int locate(const char *name, const char *job, struct cgroup_place *pl, char **why)
{
	char *dir = xasprintf("tests/data/%s", name), *f = xasprintf("%s/mountinfo", dir);
	char *info = read_file_str(f, NULL), *self;
	int rc;
	free(f);
	f = xasprintf("%s/self", dir);
	self = read_file_str(f, NULL);
	assert_non_null(info);
	assert_non_null(self);
	rc = cgroup_locate(dir, info, self, job, pl, why);
	free(f);
	free(info);
	free(self);
	free(dir);
	return rc;
}

static void test_find(void **state)
{
	struct cgroup_place pl;
	char *why, *text = read_file_str("tests/data/mountinfo-hybrid.txt", NULL), *root, *m;
	/* the v1 hierarchies: by controller, combined mounts included */
	m = cgroup_v1_mount_of(text, "memory", &root);
	assert_string_equal(m, "/sys/fs/cgroup/memory");
	assert_string_equal(root, "/");
	free(m);
	free(root);
	assert_null(cgroup_v1_mount_of(text, "memor", &root));
	assert_null(root);
	free(text);
	text = read_file_str("tests/data/cgroup-slurm-v1/mountinfo", NULL);
	m = cgroup_v1_mount_of(text, "cpuacct", &root);
	assert_string_equal(m, "/sys/fs/cgroup/cpu,cpuacct");
	free(m);
	free(root);
	free(text);
	m = cgroup_self_path("4:memory:/a/b\n2:cpu,cpuacct:/c\n0::/d\n", "cpuacct");
	assert_string_equal(m, "/c");
	free(m);
	m = cgroup_self_path("4:memory:/a/b\n0::/d\n", NULL);
	assert_string_equal(m, "/d");
	free(m);
	/* cgroup v2 whose root hands memory to its children (as root) */
	if (access("tests/data/cgroup-v2", W_OK) == 0) {
		assert_int_equal(cgroup_locate("tests/data",
					       "40 30 0:37 / /cgroup-v2 rw - cgroup2 cgroup2 rw\n",
					       "0::/\n", NULL, &pl, &why),
				 0);
		assert_int_equal(pl.version, 2);
		assert_int_equal(pl.step, 0);
		assert_string_equal(pl.dir[CGROUP_MEM], "tests/data/cgroup-v2");
		cgroup_place_free(&pl);
	}
	/* a v2 mount whose only controller is hugetlb, no v1 */
	assert_int_equal(cgroup_locate("", "40 30 0:37 / /tests/data rw - cgroup2 cgroup2 rw\n",
				       "0::/\n", NULL, &pl, &why),
			 -1);
	assert_null(pl.dir[CGROUP_MEM]);
	assert_non_null(strstr(why, "no memory controller"));
	assert_non_null(strstr(why, "no cgroup v1 memory hierarchy"));
	free(why);
	assert_int_equal(cgroup_locate("", "", "", NULL, &pl, &why), -1);
	assert_non_null(strstr(why, "no cgroup v2"));
	free(why);
}

/* This VM (recorded): cgroup2 without controllers, v1 memory with our
 * process in a child group of it: runs' groups under ours, cpuacct and
 * pids at their roots. */
static void test_v1(void **state)
{
	struct cgroup_place pl;
	struct cgroup *cg;
	char *why;
	json_t *end, *sizes;
	assert_int_equal(locate("cgroup-v1", NULL, &pl, &why), 0);
	assert_int_equal(pl.version, 1);
	assert_int_equal(pl.step, 0);
	assert_null(pl.slurm);
	assert_string_equal(pl.dir[CGROUP_MEM], "tests/data/cgroup-v1/sys/fs/cgroup/memory/"
						"process_api/1b9edd53a3b27decf78575996c4143f2");
	assert_string_equal(pl.dir[CGROUP_CPU], "tests/data/cgroup-v1/sys/fs/cgroup/cpuacct");
	assert_non_null(strstr(pl.how, "cgroup v1: memory, cpuacct, pids"));
	/* SLURM_JOB_ID without a job cgroup: said */
	cgroup_place_free(&pl);
	assert_int_equal(locate("cgroup-v1", "42", &pl, &why), 0);
	assert_non_null(strstr(pl.how, "SLURM_JOB_ID=42 but this process is in no job cgroup"));
	/* the group's readings, v1 files under v2's names */
	cg = cgroup_open(1, pl.dir[CGROUP_MEM], pl.dir[CGROUP_CPU], pl.dir[CGROUP_PIDS]);
	end = cgroup_read_end(cg);
	assert_int_equal(get(end, "peak", NULL), 315621376);
	assert_int_equal(get(end, "memory", "failcnt"), 0);
	assert_true(get(end, "memory", "pgfault") > 0);
	assert_int_equal(get(end, "cpu", "usage_usec"), 702897);
	assert_int_equal(get(end, "cpu", "user_usec"), 12000);
	assert_int_equal(get(end, "pids", "max"), 0);
	assert_null(json_object_get(end, "io")); /* blkio: not read */
	sizes = cgroup_read_sizes(cg);
	assert_int_equal(get(sizes, "anon_thp", NULL), 121634816); /* rss_huge */
	assert_int_equal(get(sizes, "anon", NULL), 121729024);	   /* rss */
	assert_int_equal(get(sizes, "file", NULL), 0);		   /* cache */
	assert_null(json_object_get(sizes, "rss"));
	assert_null(json_object_get(sizes, "file_thp")); /* v1 has none */
	json_decref(end);
	json_decref(sizes);
	cgroup_free(cg);
	cgroup_place_free(&pl);
}

/* Slurm on cgroup v2: our group (task_0) holds processes, so the step's
 * group is read around each run, its counters as deltas. */
static void test_slurm_v2(void **state)
{
	struct cgroup_place pl;
	struct cgroup *cg;
	char *why;
	json_t *end;
	assert_int_equal(locate("cgroup-slurm-v2", "42", &pl, &why), 0);
	assert_int_equal(pl.version, 2);
	assert_int_equal(pl.step, 1);
	assert_string_equal(pl.slurm, "job 42, step 0");
	assert_string_equal(pl.dir[CGROUP_MEM], "tests/data/cgroup-slurm-v2/sys/fs/cgroup/"
						"system.slice/slurmstepd.scope/job_42/step_0");
	assert_non_null(strstr(pl.how, "the step's cgroup"));
	assert_non_null(strstr(pl.how, "cannot hand the memory controller"));
	assert_int_equal(cgroup_clean_stale(&pl), 0);
	cg = cgroup_make(&pl, 1, &why);
	assert_non_null(cg);
	assert_true(cg->shared);
	end = cgroup_read_end(cg); /* nothing moved since make */
	assert_int_equal(get(end, "memory", "pgfault"), 0);
	assert_int_equal(get(end, "cpu", "usage_usec"), 0);
	assert_int_equal(get(end, "step_peak", NULL), 705691648);
	assert_null(json_object_get(end, "peak")); /* not the run's */
	assert_int_equal(cgroup_remove(cg), 0);	   /* the step's stays */
	assert_int_equal(access(cg->dir[CGROUP_MEM], F_OK), 0);
	json_decref(end);
	cgroup_free(cg);
	cgroup_place_free(&pl);
}

/* Slurm on cgroup v1: as root the step's task group takes children of
 * ours; a user who may not write it gets the step's group read. */
static void test_slurm_v1(void **state)
{
	struct cgroup_place pl;
	char *why;
	pid_t pid;
	int st;
	assert_int_equal(locate("cgroup-slurm-v1", NULL, &pl, &why), 0);
	assert_int_equal(pl.version, 1);
	assert_string_equal(pl.slurm, "job 42, step 0");
	if (geteuid() == 0) {
		assert_int_equal(pl.step, 0);
		assert_non_null(strstr(pl.dir[CGROUP_MEM], "/job_42/step_0/task_0"));
		assert_non_null(strstr(pl.dir[CGROUP_CPU], "cpu,cpuacct/slurm/"));
		assert_null(pl.dir[CGROUP_PIDS]); /* our pids group is not there */
	}
	cgroup_place_free(&pl);
	/* as a user who cannot write the layout: the step's group */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int ok;
		if (geteuid() == 0 && setuid(65534) != 0)
			_exit(3);
		if (access("tests/data/cgroup-slurm-v1/self", R_OK) != 0 ||
		    access("tests/data/cgroup-slurm-v1/sys/fs/cgroup/memory", W_OK) == 0)
			_exit(2); /* cannot see it as that user, or may write it */
		ok = locate("cgroup-slurm-v1", "42", &pl, &why) == 0 && pl.step &&
		     strstr(pl.dir[CGROUP_MEM], "/job_42/step_0") &&
		     !strstr(pl.dir[CGROUP_MEM], "task_0") && strstr(pl.how, "no group of ours");
		_exit(ok ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	if (WEXITSTATUS(st) == 2)
		fprintf(stderr, "test_slurm_v1: unwritable case not run: the checkout is not "
				"readable, or is writable, by uid 65534\n");
	else
		assert_int_equal(WEXITSTATUS(st), 0);
}

static void test_stat_files(void **state)
{
	struct cgroup *cg = cgroup_open(2, "tests/data/cgroup-v2", NULL, NULL);
	json_t *end = cgroup_read_end(cg), *sizes;
	assert_int_equal(get(end, "memory", "pgfault"), 5458);
	assert_int_equal(get(end, "memory", "thp_fault_alloc"), 166);
	assert_null(json_object_get(json_object_get(end, "memory"), "anon")); /* a size */
	assert_int_equal(get(end, "peak", NULL), 705691648);
	assert_int_equal(get(end, "cpu", "usage_usec"), 9810234);
	/* io.stat summed over its two devices */
	assert_int_equal(get(end, "io", "rbytes"), 336592896 + 1048576);
	assert_int_equal(get(end, "io", "rios"), 2578);
	json_decref(end);
	sizes = cgroup_read_sizes(cg);
	assert_int_equal(get(sizes, "anon_thp", NULL), 348127232);
	assert_int_equal(get(sizes, "file_thp", NULL), 182452224);
	assert_null(json_object_get(sizes, "pgfault")); /* an event */
	json_decref(sizes);
	cgroup_free(cg);
	/* nothing there: absent, never zero */
	cg = cgroup_open(2, "tests/data/no-such-cgroup", NULL, NULL);
	end = cgroup_read_end(cg);
	assert_int_equal(json_object_size(end), 0);
	json_decref(end);
	cgroup_free(cg);
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
	assert_int_equal(cgroup_clean_stale_dir(dir), 1);
	p = xasprintf("%s/mempath-4194399-3", dir);
	assert_int_equal(stat(p, &st), -1);
	free(p);
	p = xasprintf("%s/mempath-%d-1", dir, (int)getppid());
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(rmdir(p), 0);
	free(p);
	p = xasprintf("%s/mempath-%d-2", dir, (int)getpid());
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(rmdir(p), 0);
	free(p);
	p = xasprintf("%s/other", dir);
	assert_int_equal(stat(p, &st), 0);
	rmdir(p);
	free(p);
	/* made and removed where the place says */
	{
		struct cgroup_place pl = {.version = 2, .dir = {dir}};
		struct cgroup *cg = cgroup_make(&pl, 7, &(char *){NULL});
		assert_non_null(cg);
		assert_false(cg->shared);
		assert_int_equal(stat(cg->dir[CGROUP_MEM], &st), 0);
		assert_int_equal(cgroup_remove(cg), 0);
		assert_int_equal(stat(cg->dir[CGROUP_MEM], &st), -1);
		cgroup_free(cg);
	}
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
		cmocka_unit_test(test_mount),	 cmocka_unit_test(test_find),
		cmocka_unit_test(test_v1),	 cmocka_unit_test(test_slurm_v2),
		cmocka_unit_test(test_slurm_v1), cmocka_unit_test(test_stat_files),
		cmocka_unit_test(test_stale),	 cmocka_unit_test(test_smaps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
