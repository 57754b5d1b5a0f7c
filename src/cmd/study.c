/* study.c - a study from legs, and the end of the command (cmd/study.h). */
#include "cmd/study.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/util.h"
#include "report/study_data.h"
#include "verdict/study.h"

struct study *study_of_runs(const struct run *const *runs, const char *const *files, size_t n,
			    const char *baseline, const struct compare_opts *co, int all_pairs)
{
	char *of = xcalloc(n + 1, 1), *names[STUDY_MAX_VARIANTS];
	size_t nv = study_group(runs, n, baseline, of, names);
	struct study *s = NULL;
	if (nv)
		s = study_runs(runs, files, n, of, names, nv, co, all_pairs);
	for (size_t i = 0; i < nv; i++)
		free(names[i]);
	free(of);
	return s;
}

int study_exit(const struct study *s, int fail_on_loss)
{
	struct study_data d;
	if (!study_trusted(s))
		return COMPARE_EXIT_UNTRUSTED; /* each comparison's line said why */
	if (fail_on_loss && study_has_loss(s)) {
		error("a variant reads LOSS against %s (--fail-on-loss)", s->names[0]);
		return 1;
	}
	study_data_make(&d, s);
	for (size_t v = 1; d.n_metrics && v < s->n_var; v++) {
		char *line = study_line(&d, study_headline(&d, v), v);
		fprintf(stderr, "%s\n", line);
		free(line);
	}
	study_data_free(&d);
	return 0;
}
