/* format.h - the bottom of the writers: the formats, number formatting and
 * escaping. Every writer may use it; it uses no writer (the formats' names
 * and writers are report.h's writer table). */
#ifndef MEMPATH_REPORT_FORMAT_H
#define MEMPATH_REPORT_FORMAT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

struct probe_result;

enum report_format {
	REPORT_TERM,
	REPORT_MD,
	REPORT_JSON,
	REPORT_CSV,
	REPORT_HTML,
	REPORT_OPENMETRICS
};

/* A figure whose samples spread more than this (coefficient of variation)
 * is flagged: its median moves by about that much from run to run, so a
 * difference smaller than it says nothing (docs/design.md §9). */
#define REPORT_COV_FLAG 0.10

/* A value with a sensible number of significant digits; "-" when it is not
 * finite (a statistic that overflowed: report_receipts says why). Every
 * number a writer shows goes through it or report_fmt_seconds. */
void report_fmt_value(double v, char *buf, size_t len);
/* Seconds of wall time as "12.3 s"; "- s: not a duration" or "- s: past a
 * plausible wall time" for a value that is not finite, negative or over
 * REPORT_MAX_SECONDS (a file edited to 1e308 shows no 310-digit number). */
#define REPORT_MAX_SECONDS 1e9
void report_fmt_seconds(double s, char *buf, size_t len);
/* s in a column of `width` characters (UTF-8 characters counted, not
 * bytes): padded with spaces, left- or right-aligned; longer text is cut
 * and ends in "..." so the columns after it stay where they are. */
void report_put_column(FILE *f, const char *s, size_t width, int right);
/* The characters s takes in a terminal column (UTF-8 aware). */
size_t report_text_width(const char *s);
/* A summary's median, p5, p95 and CoV (in percent, "1.2") as text, each "-" when
 * the metric has no counted sample (absent, never 0). Buffers of len bytes. */
struct summary;
void report_summary_text(const struct summary *s, char *med, char *p5, char *p95, char *cov,
			 size_t len);
/* The string o[key], or "?" when absent or not a string. */
const char *report_jstr(const json_t *o, const char *key);
/* Text as one Markdown table cell: report_md_escape's rule (controls and
 * bidi controls as text, no markup, no line break) and '|' as "\|". */
void report_md_cell(FILE *f, const char *s);
/* One RFC 4180 field (quoted when it holds a comma, quote, CR or newline; a
 * cell starting with = + - @ tab or CR is prefixed with an apostrophe so no
 * spreadsheet runs it as a formula). */
void report_csv_field(FILE *f, const char *s);
/* s as HTML text or attribute value, & < > " ' escaped (NULL prints
 * nothing). Every string that came from a file goes through it. */
void report_html_text(FILE *f, const char *s);
/* One line for each metric of p whose statistics overflow (shown "-": why,
 * STATS_OVERFLOW_WHY), and one for each metric of p whose receipt failed ("receipt failed:
 * bandwidth kernel=copy,...: working set 192 MiB is 0.4x the 480 MiB LLC",
 * docs/design.md §4.18), or whose receipt voided some of its samples
 * ("samples dropped: load_latency size=16M: 2 CPU migrations in 1 of 10
 * windows: ..."), in the format's layout; nothing when none did.
 * The strings are the file's, escaped for fmt by the caller (term, md) or
 * here (html). */
void report_receipts(const struct probe_result *p, enum report_format fmt, FILE *f);

/* Text from a file (results files are written on other machines) made safe
 * for a terminal: control characters as \xNN (\n, \t), C1 controls as
 * \u00NN, so no escape sequence is executed and no line is forged. New string. */
char *report_term_escape(const char *s);
/* ... and for Markdown: '<' as an entity (no HTML tag, no autolink), "](" as
 * "]\\(" (no inline link or image), line breaks as spaces (no forged line or
 * heading); '|' in table cells is report_md_cell's. Escaping twice gives
 * what escaping once does. New string. */
char *report_md_escape(const char *s);
/* Significant digits of the reals in a comparison file (JSON_REAL_PRECISION):
 * enough for every verdict, and few enough that a libm's last bits do not
 * reach the file. */
#define REPORT_COMPARE_DIGITS 12
/* A deep copy of j: every string and key through esc (NULL: as they are),
 * every real to `digits` significant digits (0: as it is). report.h's
 * report_print_json and report_escape_json pick esc from the writer table. */
json_t *report_json_copy(json_t *j, char *(*esc)(const char *), int digits);

/* json_dumpf for the JSON writers: C1 and bidi controls in strings written
 * as \uNNNN (escape_json_text), so the file reads back the same and shows
 * safely. 0, or -1 when it could not be written. */
int report_json_dumpf(const json_t *j, FILE *f, size_t flags);

#endif
