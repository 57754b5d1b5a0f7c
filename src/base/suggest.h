/* suggest.h - "did you mean": the nearest of a few known names to a word
 * that matched none of them (a mistyped command, probe, option or choice). */
#ifndef MEMPATH_SUGGEST_H
#define MEMPATH_SUGGEST_H

#include <stddef.h>

/* Edit distance of a and b: insertions, deletions, substitutions and swaps
 * of two neighbouring characters each count 1 (optimal string alignment). */
size_t suggest_distance(const char *a, const char *b);
/* The candidate nearest to typed when it is near enough to be a typo (at most
 * one edit for names up to 4 characters, two up to 8, three beyond), or
 * typed is a prefix of exactly one candidate; NULL otherwise or on a tie. */
const char *suggest(const char *typed, const char *const *cands, size_t n);
/* The same over '|'-separated choices ("term|md|json"): the choice copied
 * into buf, or NULL. */
const char *suggest_choice(const char *typed, const char *choices, char *buf, size_t len);
/* "; did you mean 'x'?" into buf when there is a suggestion, else "". */
const char *suggest_phrase(const char *s, char *buf, size_t len);

#endif
