/* plan_cond.c - what a plan's variant needs of the machine, read now, and
 * the command that boots one where it holds (flow/plan.h). */
#include "flow/plan_cond.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "base/util.h"

/* The test root (MEMPATH_TEST_PLAN_ROOT), or NULL: the machine's own. */
static const char *test_root(void)
{
	const char *r = getenv("MEMPATH_TEST_PLAN_ROOT");
	return r && *r ? r : NULL;
}

static char *sys_path(const char *path)
{
	return xasprintf("%s%s", test_root() ? test_root() : "", path);
}

char *plan_kernel_release(void)
{
	struct utsname u;
	if (test_root()) {
		char *path = sys_path("/proc/sys/kernel/osrelease"), *s = read_line_str(path);
		free(path);
		return s ? s : xstrdup("?");
	}
	return uname(&u) == 0 ? xstrdup(u.release) : xstrdup("?");
}

/* Does the blank-separated text hold word as a whole word? */
static int has_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *s = text; (s = strstr(s, word)); s++)
		if ((s == text || s[-1] == ' ' || s[-1] == '\t') &&
		    (s[n] == '\0' || s[n] == ' ' || s[n] == '\t' || s[n] == '\n'))
			return 1;
	return 0;
}

/* The loaded module's version: sysfs, else what modinfo says of the file
 * modprobe would load (the machine's own only); NULL when none. */
static char *module_version(const char *name)
{
	char *path = xasprintf("/sys/module/%s/version", name), *full = sys_path(path), *v;
	free(path);
	v = read_line_str(full);
	free(full);
	if (!v && !test_root() &&
	    strspn(name, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == strlen(name)) {
		char *cmd = xasprintf("modinfo -F version %s 2>/dev/null", name), line[256];
		FILE *f = popen(cmd, "r");
		free(cmd);
		if (f) {
			if (fgets(line, sizeof(line), f) && *str_trim(line))
				v = xstrdup(str_trim(line));
			pclose(f);
		}
	}
	return v;
}

static int module_loaded(const char *name)
{
	char *path = xasprintf("/sys/module/%s", name), *full = sys_path(path);
	struct stat st;
	int ok = stat(full, &st) == 0 && S_ISDIR(st.st_mode);
	free(path);
	free(full);
	return ok;
}

/* One condition: 1 holds, 0 not with *why. */
static int cond_holds(const struct plan_cond *c, const char *release, const char *cmdline,
		      char **why)
{
	char *v;
	switch (c->kind) {
	case PLAN_KERNEL:
		if (fnmatch(c->what, release, 0) == 0)
			return 1;
		*why = xasprintf("kernel %s is running, the variant needs %s", release, c->what);
		return 0;
	case PLAN_CMDLINE:
		if (has_word(cmdline, c->what) != c->negate)
			return 1;
		*why = xasprintf("the kernel command line %s '%s'", c->negate ? "holds" : "lacks",
				 c->what);
		return 0;
	case PLAN_MODULE:
		if (!module_loaded(c->what)) {
			*why = xasprintf("module %s is not loaded", c->what);
			return 0;
		}
		if (!c->version)
			return 1;
		v = module_version(c->what);
		if (v && strcmp(v, c->version) == 0) {
			free(v);
			return 1;
		}
		*why = xasprintf("module %s is version %s, the variant needs %s", c->what,
				 v ? v : "(none recorded)", c->version);
		free(v);
		return 0;
	}
	return 0;
}

int plan_conds_hold(const struct plan_variant *v, int before_setup, char **why)
{
	char *release = plan_kernel_release(), *path = sys_path("/proc/cmdline");
	char *cmdline = read_file_str(path, NULL);
	int ok = 1;
	*why = NULL;
	for (size_t i = 0; ok && i < v->n_conds; i++)
		if ((v->conds[i].kind == PLAN_MODULE) != before_setup)
			ok = cond_holds(&v->conds[i], release, cmdline ? cmdline : "", why);
	free(release);
	free(path);
	free(cmdline);
	return ok;
}

/* ---- GRUB ---------------------------------------------------------------- */

/* The first quoted (or bare) word after the keyword at s; a new string. */
static char *grub_title(const char *s)
{
	char q;
	const char *e;
	s += strcspn(s, " \t");
	s += strspn(s, " \t");
	q = *s;
	if (q != '\'' && q != '"')
		return xasprintf("%.*s", (int)strcspn(s, " \t{"), s);
	e = strchr(s + 1, q);
	return e ? xasprintf("%.*s", (int)(e - s - 1), s + 1) : xstrdup(s + 1);
}

/* s in single quotes for sh; a new string. */
static char *sh_quote(const char *s)
{
	char *q = xstrdup("'"), *n;
	for (; *s; s++, free(q), q = n)
		n = *s == '\'' ? xasprintf("%s'\\''", q) : xasprintf("%s%c", q, *s);
	n = xasprintf("%s'", q);
	free(q);
	return n;
}

/* Does the linux line boot a kernel v's kernel conditions allow? Its
 * release in *release (a new string) when it does; *lacks: a cmdline
 * condition of v's the line does not satisfy, or NULL. */
static int entry_fits(const struct plan_variant *v, const char *linux_line, char **release,
		      const struct plan_cond **lacks)
{
	const char *img = strstr(linux_line, "vmlinuz-");
	int ok = 1;
	*lacks = NULL;
	*release = NULL;
	if (!img)
		return 0;
	*release = xasprintf("%.*s", (int)strcspn(img + 8, " \t\n"), img + 8);
	for (size_t i = 0; i < v->n_conds; i++) {
		const struct plan_cond *c = &v->conds[i];
		if (c->kind == PLAN_KERNEL && fnmatch(c->what, *release, 0) != 0)
			ok = 0;
		if (c->kind == PLAN_CMDLINE && has_word(linux_line, c->what) == c->negate &&
		    !*lacks)
			*lacks = c;
	}
	if (!ok) {
		free(*release);
		*release = NULL;
	}
	return ok;
}

/* The GRUB entry "SUBMENU>TITLE" that boots v's kernel, none in recovery
 * mode; of those, one whose command line fits, then one whose title names
 * the release (the default entry's kernel changes with every install: the
 * one named for it does not). NULL when none. */
static char *grub_entry(const struct plan_variant *v, const char *cfg, char **lacks_out)
{
	char *copy = xstrdup(cfg), *save = NULL, *sub = NULL, *entry = NULL, *best = NULL;
	int depth = 0, sub_depth = -1, entry_depth = -1, best_score = -1;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char *s = str_trim(l), *release = NULL;
		const struct plan_cond *lacks;
		if (str_starts_with(s, "submenu ")) {
			free(sub);
			sub = grub_title(s);
			sub_depth = depth;
		} else if (str_starts_with(s, "menuentry ")) {
			free(entry);
			entry = grub_title(s);
			entry_depth = depth;
		} else if (entry && str_starts_with(s, "linux") && !strstr(entry, "recovery") &&
			   entry_fits(v, s, &release, &lacks)) {
			int score = 2 * !lacks + (strstr(entry, release) != NULL);
			if (score > best_score) {
				free(best);
				best = sub ? xasprintf("%s>%s", sub, entry) : xstrdup(entry);
				best_score = score;
				free(*lacks_out);
				*lacks_out =
					!lacks ? NULL
					: lacks->negate
						? xasprintf("holds '%s': take it out", lacks->what)
						: xasprintf("lacks '%s': add it", lacks->what);
			}
			free(release);
		}
		if (s[0] && s[strlen(s) - 1] == '{')
			depth++;
		if (strcmp(s, "}") == 0 && --depth <= entry_depth) {
			free(entry);
			entry = NULL;
			entry_depth = -1;
		}
		if (strcmp(s, "}") == 0 && depth <= sub_depth) {
			free(sub);
			sub = NULL;
			sub_depth = -1;
		}
	}
	free(sub);
	free(entry);
	free(copy);
	return best;
}

char *plan_boot_command(const struct plan_variant *v, char **why)
{
	char *path = sys_path("/boot/grub/grub.cfg"), *cfg, *entry, *lacks = NULL, *q, *cmd;
	*why = NULL;
	if (v->boot) {
		free(path);
		return xstrdup(v->boot);
	}
	cfg = read_file_str(path, NULL);
	if (!cfg) {
		*why = xasprintf("no GRUB configuration to read (/boot/grub/grub.cfg): give "
				 "variant '%s' a 'boot' line",
				 v->name);
		free(path);
		return NULL;
	}
	entry = grub_entry(v, cfg, &lacks);
	free(cfg);
	free(path);
	if (!entry) {
		*why = xasprintf("no GRUB menu entry boots a kernel variant '%s' allows "
				 "(/boot/grub/grub.cfg): install it, or give the variant a 'boot' "
				 "line",
				 v->name);
		return NULL;
	}
	q = sh_quote(entry);
	cmd = xasprintf("grub-reboot %s && reboot", q);
	if (lacks)
		*why = xasprintf("that entry's command line %s there first "
				 "(GRUB_CMDLINE_LINUX in /etc/default/grub, then update-grub)",
				 lacks);
	free(q);
	free(entry);
	free(lacks);
	return cmd;
}
