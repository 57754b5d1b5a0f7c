/* plan_cond.h - what a plan's variant needs of the machine (flow/plan.h),
 * read now, and the command that boots a machine where it holds.
 *
 * MEMPATH_TEST_PLAN_ROOT (tests only) names a directory read in place of
 * / for the conditions and GRUB: proc/sys/kernel/osrelease (for uname -r),
 * proc/cmdline, sys/module/NAME/version, boot/grub/grub.cfg. */
#ifndef MEMPATH_FLOW_PLAN_COND_H
#define MEMPATH_FLOW_PLAN_COND_H

#include "flow/plan_file.h"

/* Does every condition of kind kernel or cmdline (before_setup) or of kind
 * module (!before_setup) of variant v hold now? 1 yes, 0 no with *why (a
 * new string: "kernel 6.1.0-54-amd64 is running, the variant needs
 * 6.12*"). */
int plan_conds_hold(const struct plan_variant *v, int before_setup, char **why);
/* The running kernel's release (uname -r, or the test root's); a new string. */
char *plan_kernel_release(void);
/* The command that boots a machine where v's leg can run: its boot line,
 * else grub-reboot of the GRUB menu entry that boots its kernel (and then
 * what the command line lacks); NULL with *why when none is known. New
 * strings. */
char *plan_boot_command(const struct plan_variant *v, char **why);

#endif
