/* doctor.h - a doctor report (machine/doctor.h) for the fingerprint `host`,
 * read from `source` ("this machine" or a file) at `time`: term, md, or JSON
 * (schema mempath/doctor/1: findings, counts per level, the host, and with
 * --measure the run of the probes that measured the costs). */
#ifndef MEMPATH_REPORT_DOCTOR_H
#define MEMPATH_REPORT_DOCTOR_H

#include "machine/doctor.h"
#include "report/format.h"
#include "results/results.h"
#include <jansson.h>
#include <stdio.h>

struct doctor_doc {
	const struct doctor_report *report;
	const json_t *host;
	const char *source, *time;
	const struct run *run; /* doctor --measure: the probes it ran, else NULL */
};
int report_doctor_term(const struct doctor_doc *d, FILE *f);
int report_doctor_md(const struct doctor_doc *d, FILE *f);
int report_doctor_json(const struct doctor_doc *d, FILE *f);
json_t *report_doctor_to_json(const struct doctor_doc *d);
/* In any format of the writer table: report_doctor_write(_file), report.h. */
/* The doctor's warnings for a run's fingerprint, one line each (term, md,
 * html list items), for the header of a results report; nothing when none. */
void report_doctor_traps(const json_t *host, enum report_format fmt, FILE *f);

#endif
