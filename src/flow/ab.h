/* ab.h - the orchestration of `mempath ab`: each leg's setup command, then
 * this mempath measuring with that variant's environment, the restore
 * command at the end, on a failed setup or leg and on Ctrl-C/SIGTERM. The
 * comparison of the legs is the command's (verdict/compare.c).
 *
 * Only commands from the command line run: a results file is read for the
 * comparison and never executed from. Each child (setup, leg, restore) gets
 * its own process group and stdin from /dev/null, so a signal reaches it
 * only through us: a leg is stopped cleanly (it keeps its partial results),
 * and the restore command is never cut short by the Ctrl-C that asked for it.
 */
#ifndef MEMPATH_FLOW_AB_H
#define MEMPATH_FLOW_AB_H

#include <stddef.h>

struct ab_variant {
	const char *setup; /* sh -c command, or NULL */
	const char *label; /* the legs' run label */
	char **env;	   /* "K=V" added to the leg's and setup's environment */
	size_t n_env;
};

struct ab_plan {
	struct ab_variant a, b;
	const char *legs;    /* "ABA" */
	const char *dir;     /* results and logs */
	const char *restore; /* NULL: a.setup */
	char *const *argv;   /* the mempath command each leg runs, without -o and --label */
	int argc;
};

enum ab_outcome {
	AB_DONE,	   /* every leg ran; the restore ran and succeeded */
	AB_LEG_FAILED,	   /* a setup or leg failed; the restore ran */
	AB_RESTORE_FAILED, /* the legs ran, the restore did not succeed */
	AB_INTERRUPTED,	   /* SIGINT/SIGTERM/SIGHUP; the restore ran */
};

/* "K=V" into v's environment; 0, or -1 after an error line. */
int ab_variant_env(struct ab_variant *v, const char *kv);
void ab_variant_free(struct ab_variant *v);
/* Runs the legs in order. leg_paths gets one results path per leg (caller
 * frees each and the array), whether or not the leg ran. */
enum ab_outcome ab_flow(const struct ab_plan *plan, char ***leg_paths);

#endif
