/* escape.c - the one escaping rule for bytes from outside (escape.h). */
#include "base/escape.h"

#include <string.h>

/* The length of the valid UTF-8 sequence at p (2..4), or 0 when the bytes
 * are not one (a lone continuation byte, an overlong form, a surrogate,
 * past U+10FFFF, cut short). */
static size_t utf8_seq(const unsigned char *p)
{
	size_t n = p[0] >= 0xf0 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
	if (n == 0 || p[0] > 0xf4)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] > 0x9f) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/* Is the code point of the n-byte sequence at p one shown as \uNNNN: a C1
 * control (U+0080-U+009F), or a bidi control (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069) that reorders the text after it? */
static unsigned shown_code(const unsigned char *p, size_t n)
{
	unsigned c = n == 2   ? (p[0] & 0x1fu) << 6 | (p[1] & 0x3fu)
		     : n == 3 ? (p[0] & 0x0fu) << 12 | (p[1] & 0x3fu) << 6 | (p[2] & 0x3fu)
			      : 0;
	if ((c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f ||
	    (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069))
		return c;
	return 0;
}

size_t escape_into(char *buf, size_t len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	const unsigned char *p = (const unsigned char *)s;
	while (*p && o + 7 <= len) {
		size_t n = *p >= 0x80 ? utf8_seq(p) : 1;
		unsigned c = n >= 2 ? shown_code(p, n) : 0;
		if (*p == '\n' || *p == '\t') {
			buf[o++] = '\\';
			buf[o++] = *p == '\n' ? 'n' : 't';
		} else if (*p < 0x20 || *p == 0x7f || n == 0) {
			/* a control, or a byte that is no UTF-8 (binary, Latin-1) */
			memcpy(buf + o, "\\x", 2);
			buf[o + 2] = hex[*p >> 4];
			buf[o + 3] = hex[*p & 15];
			o += 4;
			n = 1;
		} else if (c) {
			memcpy(buf + o, "\\u", 2);
			for (int i = 0; i < 4; i++)
				buf[o + 2 + i] = hex[(c >> (12 - 4 * i)) & 15];
			o += 6;
		} else {
			memcpy(buf + o, p, n);
			o += n;
		}
		p += n;
	}
	if (len)
		buf[o < len ? o : len - 1] = '\0';
	return o;
}

void escape_json_text(char *out, const char *json)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)json;
	while (*p) {
		size_t n = *p >= 0x80 ? utf8_seq(p) : 1;
		unsigned c = n >= 2 ? shown_code(p, n) : 0;
		if (n == 0)
			n = 1; /* jansson writes no such byte; kept as it is */
		if (c) {
			*out++ = '\\';
			*out++ = 'u';
			for (int i = 0; i < 4; i++)
				*out++ = hex[(c >> (12 - 4 * i)) & 15];
		} else {
			memcpy(out, p, n);
			out += n;
		}
		p += n;
	}
	*out = '\0';
}
