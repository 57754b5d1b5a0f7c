/* escape.h - the one rule for bytes from outside (files, argv, the
 * environment, /proc, sysfs, a child's output) on their way to a terminal,
 * Markdown, HTML, CSV or a log (docs/design.md §9.3): control characters as
 * text (\x1b, \n, \t), C1 controls and bidi controls as \uNNNN (\u009b,
 * \u202e, \u2066), bytes that are not UTF-8 (binary) as \xNN; the rest as
 * it is. util_escape_controls() (base/util.h) returns it as a new string;
 * the writers add their format's own rule on top (report/format.h). */
#ifndef MEMPATH_ESCAPE_H
#define MEMPATH_ESCAPE_H

#include <stddef.h>

/* s escaped into buf[len] without allocating (a child after fork may use
 * it): stops before a character that would not fit; NUL-terminated when
 * len > 0; returns the length written. 4 * strlen(s) + 8 bytes always fit. */
size_t escape_into(char *buf, size_t len, const char *s);

/* JSON text (json_dumps) with each C1 and bidi control, raw UTF-8 in it,
 * as the JSON escape \uNNNN: the same strings when read back, and nothing
 * that acts on a terminal showing the file (jansson escapes only the C0
 * controls). out has room for 3 * strlen(json) + 1 bytes. */
void escape_json_text(char *out, const char *json);

#endif
