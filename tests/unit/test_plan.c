/* test_plan.c - the plan file (flow/plan_file.h): statements, quoting,
 * rounds; and its conditions and GRUB entries (flow/plan_cond.h) read from
 * a test root (MEMPATH_TEST_PLAN_ROOT). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "flow/plan_cond.h"
#include "flow/plan_file.h"

static char dir[] = "/tmp/mempath-test-plan-XXXXXX";

static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", dir, rel), *d = xstrdup(path);
	*strrchr(d, '/') = '\0';
	assert_int_equal(mkdir_parents(d, 0755), 0);
	assert_int_equal(write_file_atomic(path, text, strlen(text)), 0);
	free(d);
	free(path);
}

static int parse(const char *text, struct plan *p)
{
	char *path = xasprintf("%s/p.plan", dir);
	int rc;
	put("p.plan", text);
	rc = plan_parse(path, p);
	free(path);
	return rc;
}

static void test_parse(void **state)
{
	struct plan p;
	(void)state;
	assert_int_equal(parse("# a study\n"
			       "command wrap -n 3 -- sh -c 'echo \"a b\"' x\\ y\n"
			       "restore echo back\n"
			       "legs old new new old\n"
			       "variant old\n"
			       "  kernel 6.1.0-*\n"
			       "  cmdline !mitigations=off\n"
			       "  restore echo old-back\n"
			       "variant new\n"
			       "  module null_blk 1.2\n"
			       "  env K=V\n"
			       "  setup echo 'new' > x\n"
			       "baseline new\n"
			       "expect-diff numa_balancing\n",
			       &p),
			 0);
	assert_int_equal(p.argc, 8);
	assert_string_equal(p.argv[6], "echo \"a b\"");
	assert_string_equal(p.argv[7], "x y");
	assert_int_equal(p.n_v, 2);
	assert_int_equal(p.baseline, 1);
	assert_string_equal(p.restore, "echo back");
	assert_string_equal(p.v[0].restore, "echo old-back");
	assert_int_equal(p.v[0].n_conds, 2);
	assert_int_equal(p.v[0].conds[1].kind, PLAN_CMDLINE);
	assert_true(p.v[0].conds[1].negate);
	assert_string_equal(p.v[0].conds[1].what, "mitigations=off");
	assert_string_equal(p.v[1].conds[0].version, "1.2");
	assert_string_equal(p.v[1].setup, "echo 'new' > x");
	assert_int_equal(p.n_legs, 4);
	/* round R of a variant is its R-th leg */
	assert_int_equal(plan_leg_round(&p, 0), 1);
	assert_int_equal(plan_leg_round(&p, 1), 1);
	assert_int_equal(plan_leg_round(&p, 2), 2);
	assert_int_equal(plan_leg_round(&p, 3), 2);
	assert_int_equal(p.n_expect_diff, 1);
	plan_free(&p);
	/* refused, and nothing kept */
	assert_int_equal(parse("command probe x\nlegs a b b\nvariant a\nvariant b\n", &p), -1);
	assert_null(p.v);
	assert_int_equal(parse("command probe 'x\nlegs a b\nvariant a\nvariant b\n", &p), -1);
	assert_int_equal(parse("kernel 6.1\n", &p), -1);
}

static void test_conditions(void **state)
{
	struct plan p;
	char *why;
	(void)state;
	put("root/proc/sys/kernel/osrelease", "6.1.0-54-amd64\n");
	put("root/proc/cmdline", "BOOT_IMAGE=/boot/vmlinuz ro quiet mitigations=off\n");
	put("root/sys/module/null_blk/version", "1.2\n");
	assert_int_equal(parse("command probe x\nlegs a b\n"
			       "variant a\n kernel 6.1.0-*\n cmdline mitigations=off\n"
			       "variant b\n kernel 6.12.*\n cmdline !quiet\n module null_blk 1.3\n",
			       &p),
			 0);
	assert_int_equal(plan_conds_hold(&p.v[0], 1, &why), 1);
	assert_null(why);
	assert_int_equal(plan_conds_hold(&p.v[1], 1, &why), 0);
	assert_string_equal(why, "kernel 6.1.0-54-amd64 is running, the variant needs 6.12.*");
	free(why);
	/* the module only after the setup */
	assert_int_equal(plan_conds_hold(&p.v[1], 0, &why), 0);
	assert_string_equal(why, "module null_blk is version 1.2, the variant needs 1.3");
	free(why);
	put("root/proc/sys/kernel/osrelease", "6.12.115+deb12-amd64\n");
	assert_int_equal(plan_conds_hold(&p.v[1], 1, &why), 0);
	assert_string_equal(why, "the kernel command line holds 'quiet'");
	free(why);
	plan_free(&p);
}

static void test_grub(void **state)
{
	struct plan p;
	char *why, *cmd;
	(void)state;
	put("root/boot/grub/grub.cfg",
	    "menuentry 'Debian GNU/Linux' --class debian {\n"
	    "\tlinux\t/boot/vmlinuz-6.12.115+deb12-amd64 root=UUID=1 ro quiet\n"
	    "}\n"
	    "submenu 'Advanced options for Debian GNU/Linux' $menuentry_id_option 'x' {\n"
	    "\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-54-amd64 (recovery mode)' {\n"
	    "\t\tlinux\t/boot/vmlinuz-6.1.0-54-amd64 root=UUID=1 ro single\n"
	    "\t}\n"
	    "\tmenuentry 'Debian GNU/Linux, with Linux 6.1.0-54-amd64' {\n"
	    "\t\tlinux\t/boot/vmlinuz-6.1.0-54-amd64 root=UUID=1 ro quiet\n"
	    "\t}\n"
	    "}\n"
	    "menuentry \"Tuned, 6.12\" {\n"
	    "\tlinux\t/boot/vmlinuz-6.12.115+deb12-amd64 ro numa_balancing=enable\n"
	    "}\n");
	assert_int_equal(parse("command probe x\nlegs a b c d\n"
			       "variant a\n kernel 6.1.0-*\n"
			       "variant b\n kernel 6.12.*\n cmdline numa_balancing=enable\n"
			       "variant c\n kernel 5.10.*\n"
			       "variant d\n kernel 6.1.0-*\n cmdline !quiet\n",
			       &p),
			 0);
	cmd = plan_boot_command(&p.v[0], &why);
	assert_string_equal(cmd, "grub-reboot 'Advanced options for Debian GNU/Linux>Debian "
				 "GNU/Linux, with Linux 6.1.0-54-amd64' && reboot");
	assert_null(why);
	free(cmd);
	/* the entry whose command line fits wins over the default one */
	cmd = plan_boot_command(&p.v[1], &why);
	assert_string_equal(cmd, "grub-reboot 'Tuned, 6.12' && reboot");
	assert_null(why);
	free(cmd);
	assert_null(plan_boot_command(&p.v[2], &why));
	assert_non_null(strstr(why, "no GRUB menu entry boots a kernel variant 'c' allows"));
	free(why);
	/* an entry that does not fit the command line: said how */
	cmd = plan_boot_command(&p.v[3], &why);
	assert_non_null(strstr(cmd, "with Linux 6.1.0-54-amd64'"));
	assert_non_null(strstr(why, "that entry's command line holds 'quiet': take it out"));
	free(cmd);
	free(why);
	plan_free(&p);
}

static int setup(void **state)
{
	char *root;
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	root = xasprintf("%s/root", dir);
	setenv("MEMPATH_TEST_PLAN_ROOT", root, 1);
	free(root);
	return 0;
}

static int teardown(void **state)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);
	(void)state;
	(void)!system(cmd);
	free(cmd);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_parse),
					   cmocka_unit_test(test_conditions),
					   cmocka_unit_test(test_grub)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
