/* finding.h - what a doctor rule produces: one finding with its level, the
 * evidence read and the fix; shared by the rule files and the report. */
#ifndef MEMPATH_MACHINE_FINDING_H
#define MEMPATH_MACHINE_FINDING_H

#include <jansson.h>
#include <stddef.h>

enum doctor_level {
	DOCTOR_WARN,	/* a trap that costs memory-path performance here */
	DOCTOR_INFO,	/* worth knowing when reading results from this machine */
	DOCTOR_OK,	/* checked, nothing found */
	DOCTOR_NA,	/* does not apply (no GPU, one NUMA node) */
	DOCTOR_UNKNOWN, /* the facts it needs are not in the fingerprint */
};
#define DOCTOR_LEVELS 5

struct doctor_finding {
	const char *id;	   /* stable name, e.g. "thp_mode" */
	const char *title; /* what the rule checks */
	enum doctor_level level;
	char *evidence;	     /* the facts read, with their values (owned) */
	char *fix;	     /* what to do (owned); NULL when level is OK, NA or UNKNOWN */
	const char *measure; /* the mempath command that measures the cost; may be NULL */
	char *measured;	     /* doctor --measure: what it cost here (owned), or NULL */
	json_t *facts;	     /* the facts behind it as JSON (owned), or NULL */
};

struct doctor_report {
	struct doctor_finding *items; /* one per rule, in rule order */
	size_t n;
	size_t count[DOCTOR_LEVELS];
};

/* What a rule's trap costs on this machine, measured by one probe: two cells
 * of one metric, the trap's path (key=a) against the path that avoids it
 * (key=b), any other label fixed (fixed_key=fixed_val). */
struct doctor_cost {
	const char *probe, *opts; /* run at its quick sizes with these options */
	const char *metric, *key, *a, *b, *fixed_key, *fixed_val;
	const char *what; /* what the two cells are, for the sentence */
};

#endif
