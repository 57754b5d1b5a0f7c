/* history_args.c - the readers of `mempath history`'s arguments: a results
 * file, a run number, a metric (history_cmd.h). */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "cmd/history_cmd.h"
#include "results/results_json.h"
#include "verdict/comparison.h"

/* A results file (a comparison is no run): NULL after an error line. With
 * text, the file's bytes too, kept as they are (writing the run out again
 * would print every sample: most of the time of an add). */
struct run *history_cmd_read_run(const char *path, char **text)
{
	json_t *j = results_load_file_text(path, text, NULL);
	const char *schema = json_string_value(json_object_get(j, "schema"));
	struct run *r = NULL;

	if (j && schema && strcmp(schema, COMPARE_SCHEMA) == 0)
		error("'%s' is a comparison; the history keeps results files (mempath/run/1)",
		      path);
	else if (j)
		r = run_from_json(j, path);
	json_decref(j);
	if (text && !r) {
		free(*text);
		*text = NULL;
	}
	return r;
}

/* A run's id as typed: "12" or "#12". 0 when it is none. */
int64_t history_cmd_run_id(const char *s)
{
	char *end;
	long long v = strtoll(s + (*s == '#'), &end, 10);

	return *s && !*end && v > 0 ? v : 0;
}

/* "probe:metric[,k=GLOB...]" split; 0, or -1 after an error line. */
int history_cmd_parse_metric(const char *spec, char **probe, char **metric, const char **labels)
{
	const char *colon = strchr(spec, ':'), *comma;

	*probe = *metric = NULL;
	if (!colon || colon == spec || colon[1] == '\0' || colon[1] == ',')
		return error("bad metric '%s' for history trend (PROBE:METRIC[,LABEL=GLOB...], "
			     "e.g. cpu.stream:bandwidth,kernel=read)",
			     spec);
	comma = strchr(colon, ',');
	*probe = xasprintf("%.*s", (int)(colon - spec), spec);
	*metric =
		comma ? xasprintf("%.*s", (int)(comma - colon - 1), colon + 1) : xstrdup(colon + 1);
	*labels = comma ? comma + 1 : NULL;
	return 0;
}
