/* doctor_p2p.c - the doctor's peer-to-peer rules (docs/design.md §8.17):
 * whether the GPUs of this machine can talk to each other directly, and if
 * not why, from the fingerprint's "iommu", "pcie", "cmdline" and "gpu" parts
 * (pcie.h reads them). Each rule also keeps the facts it read as JSON, so a
 * script can assert on the ports, the flags and the kernel parameter. */
#include "machine/doctor_p2p.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "machine/doctor_facts.h"
#include "machine/pcie.h"

/* Growing text: appends a formatted piece. */
static void cat(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cat(char **s, const char *fmt, ...)
{
	va_list ap;
	char *piece = NULL, *t;

	va_start(ap, fmt);
	if (vasprintf(&piece, fmt, ap) < 0)
		piece = NULL;
	va_end(ap);
	t = xasprintf("%s%s", *s ? *s : "", piece ? piece : "");
	free(piece);
	free(*s);
	*s = t;
}

static const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static char *mib(json_int_t b)
{
	if (b >= (1ll << 30))
		return xasprintf("%.4g GiB", (double)b / GiB);
	return xasprintf("%.4g MiB", (double)b / MiB);
}

/* The driver's device object at bdf (gpu.devices[].pci_bus_id), or NULL. */
static const json_t *driver_device(const json_t *h, const char *bdf)
{
	const json_t *devs = doctor_at(h, "gpu", "devices", NULL), *d;
	size_t i;

	json_array_foreach (devs, i, d)
		if (bdf && jstr(d, "pci_bus_id") && strcmp(jstr(d, "pci_bus_id"), bdf) == 0)
			return d;
	return NULL;
}

/* Both GPUs of a PCIe pair have NVLinks up (NVML): their peer traffic does
 * not cross the PCIe ports or the IOMMU. */
static int nvlinked(const json_t *h, const json_t *pair)
{
	const json_t *two = json_object_get(pair, "gpus");
	const json_t *a = driver_device(h, json_string_value(json_array_get(two, 0))),
		     *b = driver_device(h, json_string_value(json_array_get(two, 1)));

	return json_integer_value(json_object_get(a, "nvlinks_active")) > 0 &&
	       json_integer_value(json_object_get(b, "nvlinks_active")) > 0;
}

/* Every pair NVLinked (and at least one pair). */
static int all_nvlinked(const json_t *h)
{
	const json_t *pairs = doctor_at(h, "pcie", "pairs", NULL), *p;
	size_t i;

	json_array_foreach (pairs, i, p)
		if (!nvlinked(h, p))
			return 0;
	return json_array_size(pairs) > 0;
}

#define NVLINK_NOTE                                                                             \
	"; NVLink joins every pair, so their peer traffic crosses neither these ports nor the " \
	"IOMMU (GPUDirect with NICs or storage still does)"

/* The pairs of GPUs, or NULL with the finding set (no PCIe facts, no pair). */
static const json_t *p2p_pairs(const json_t *h, struct doctor_finding *f)
{
	const json_t *pcie = doctor_at(h, "pcie", NULL), *pairs = json_object_get(pcie, "pairs");

	if (!json_is_object(pcie)) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "no PCIe facts in the fingerprint (no PCI bus, or recorded by an older "
			   "mempath)");
		return NULL;
	}
	if (json_array_size(pairs) == 0) {
		doctor_set(f, DOCTOR_NA, NULL,
			   "%zu GPU(s) (PCI class 0x03xx) and no pair of one vendor: nothing "
			   "peer-to-peer",
			   json_array_size(json_object_get(pcie, "gpus")));
		return NULL;
	}
	return pairs;
}

/* The IOMMU options of a kernel command line ("intel_iommu=on iommu=pt"), or NULL. */
static char *iommu_args(const char *cmdline)
{
	static const char *const keys[] = {
		"intel_iommu=", "amd_iommu=", "iommu=", "iommu.passthrough=", "iommu.strict="};
	char *copy = xstrdup(cmdline ? cmdline : ""), *out = NULL, *save = NULL;

	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save))
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (str_starts_with(t, keys[i]))
				cat(&out, "%s%s", out ? " " : "", t);
	free(copy);
	return out;
}

void doctor_rule_iommu_mode(const json_t *h, struct doctor_finding *f)
{
	const json_t *iommu = doctor_at(h, "iommu", NULL), *pcie = doctor_at(h, "pcie", NULL), *g,
		     *n;
	const char *mode = pcie_iommu_mode(iommu, pcie), *type;
	const json_t *gpus = json_object_get(pcie, "gpus");
	char *ev = NULL, *args = iommu_args(doctor_str_at(h, "cmdline", NULL));
	size_t i, pairs = json_array_size(json_object_get(pcie, "pairs"));
	json_t *facts;

	if (!mode) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no IOMMU groups recorded");
		free(args);
		return;
	}
	cat(&ev, "IOMMU %s", mode);
	json_object_foreach ((json_t *)json_object_get(iommu, "group_types"), type, n)
		cat(&ev, "%s %lld %s",
		    strstr(ev, " groups: ") ? "," : "; groups:", (long long)json_integer_value(n),
		    type);
	json_array_foreach (gpus, i, g)
		if (jstr(g, "iommu_type"))
			cat(&ev, "; GPU %s in group %lld (%s)", jstr(g, "bdf"),
			    (long long)json_integer_value(json_object_get(g, "iommu_group")),
			    jstr(g, "iommu_type"));
	cat(&ev, "; /proc/cmdline: %s", args ? args : "no IOMMU option");
	facts = json_pack("{s:s, s:s?}", "mode", mode, "cmdline_iommu", args);
	if (strcmp(mode, "translated") == 0 || strcmp(mode, "mixed") == 0) {
		int nvl = all_nvlinked(h);
		enum doctor_level l = pairs && !nvl	      ? DOCTOR_WARN
				      : json_array_size(gpus) ? DOCTOR_INFO
							      : DOCTOR_OK;
		const char *why =
			!pairs ? ": no GPU pair here; host<->GPU DMA is translated"
			: nvl  ? NVLINK_NOTE
			       : ": peer-to-peer DMA between the GPUs goes through the IOMMU's "
				 "page tables, which a driver that maps a peer's BAR directly "
				 "does not set up (transfers fail or fall back)";
		doctor_set(f, l,
			   "for GPU peer-to-peer put the IOMMU in passthrough: intel_iommu=on "
			   "iommu=pt (Intel) or amd_iommu=on iommu=pt (AMD) on the kernel command "
			   "line (GRUB_CMDLINE_LINUX_DEFAULT, update-grub, reboot), then check "
			   "/proc/cmdline and that the GPUs' groups read identity; passthrough "
			   "gives up DMA isolation, so not where devices or guests are untrusted",
			   "%s%s", ev, why);
	} else
		doctor_set(f, DOCTOR_OK, NULL, "%s", ev);
	f->facts = facts;
	free(ev);
	free(args);
}

/* The pairs ("a-b") whose path holds port bdf, appended to list; how many. */
static int pairs_through(const json_t *pairs, const char *bdf, json_t *list)
{
	const json_t *p, *port;
	size_t i, j;
	int n = 0;

	json_array_foreach (pairs, i, p)
		json_array_foreach (json_object_get(p, "ports"), j, port)
			if (strcmp(json_string_value(port) ?: "", bdf) == 0) {
				const json_t *two = json_object_get(p, "gpus");
				char *name = xasprintf("%s-%s",
						       json_string_value(json_array_get(two, 0)),
						       json_string_value(json_array_get(two, 1)));
				json_array_append_new(list, json_string(name));
				free(name);
				n++;
			}
	return n;
}

void doctor_rule_acs_redirect(const json_t *h, struct doctor_finding *f)
{
	const json_t *pairs = p2p_pairs(h, f), *ports = doctor_at(h, "pcie", "ports", NULL), *p;
	char *redir = NULL, *clear = NULL, *unread = NULL, *param, *fix, *had = NULL;
	const char *bdf, *cmd = doctor_str_at(h, "cmdline", NULL);
	json_t *facts, *list = json_array();
	int n_redir = 0, n_unread = 0, n_ports = 0;

	if (!pairs) {
		json_decref(list);
		return;
	}
	json_object_foreach ((json_t *)ports, bdf, p) {
		json_t *on = json_array();
		int through = pairs_through(pairs, bdf, on);
		const char *acs = jstr(p, "acs") ?: "?";
		unsigned ctl = (unsigned)json_integer_value(json_object_get(p, "acs_ctl"));
		unsigned cap = (unsigned)json_integer_value(json_object_get(p, "acs_cap"));
		int set = (ctl & PCIE_ACS_REDIR) != 0 && strcmp(acs, "present") == 0;

		if (!through) {
			json_decref(on);
			continue;
		}
		n_ports++;
		json_array_append_new(list, json_pack("{s:s, s:s?, s:s, s:o, s:b}", "port", bdf,
						      "type", jstr(p, "type"), "acs", acs, "pairs",
						      on, "redirect", set));
		if (strcmp(acs, "present") == 0) {
			json_t *e = json_array_get(list, json_array_size(list) - 1);
			json_object_set_new(e, "acs_cap", json_integer(cap));
			json_object_set_new(e, "acs_ctl", json_integer(ctl));
			json_object_set_new(e, "acs_ctl_flags",
					    json_string(jstr(p, "acs_ctl_flags") ?: ""));
		}
		if (set)
			cat(&redir,
			    "%s%s (%s on %d pair(s)' path): ACSCap 0x%04x, ACSCtl 0x%04x %s",
			    n_redir++ ? "; " : "", bdf, jstr(p, "type") ?: "port", through, cap,
			    ctl, jstr(p, "acs_ctl_flags") ?: "");
		else if (strcmp(acs, "unreadable") == 0)
			cat(&unread, "%s%s (%lld bytes of config space)", n_unread++ ? ", " : "",
			    bdf, (long long)json_integer_value(json_object_get(p, "config_bytes")));
		else if (strcmp(acs, "present") == 0)
			cat(&clear, "%s%s ACSCtl 0x%04x (no redirect)", clear ? ", " : "", bdf,
			    ctl);
		else
			cat(&clear, "%s%s without ACS", clear ? ", " : "", bdf);
	}
	param = pcie_acs_param(doctor_at(h, "pcie", NULL));
	facts = json_pack("{s:o, s:s?}", "ports", list, "kernel_parameter", param);
	if (cmd && strstr(cmd, "pci=disable_acs_redir=")) {
		const char *s = strstr(cmd, "pci=disable_acs_redir=");
		had = xasprintf("; /proc/cmdline already has %.*s", (int)strcspn(s, " "), s);
	}
	if (n_redir) {
		fix = xasprintf(
			"add %s to the kernel command line (GRUB_CMDLINE_LINUX_DEFAULT, "
			"update-grub, "
			"reboot), or turn ACS off on those ports in the firmware where it offers "
			"it; then check /proc/cmdline and that lspci -vvv -s PORT reads ACSCtl "
			"ReqRedir- CmpltRedir-. The redirect is what keeps devices behind those "
			"ports from reaching each other's memory: clear it only where they are "
			"trusted",
			param);
		int nvl = all_nvlinked(h);
		doctor_set(f, nvl ? DOCTOR_INFO : DOCTOR_WARN, fix,
			   "ACS redirect on %d of %d port(s) between the GPUs: %s%s%s: "
			   "peer-to-peer requests and completions are sent up to the root "
			   "complex instead of across%s%s",
			   n_redir, n_ports, redir, unread ? "; unreadable: " : "",
			   unread ? unread : "", had ? had : "", nvl ? NVLINK_NOTE : "");
		free(fix);
	} else if (n_unread) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "ACS of %d of %d port(s) between the GPUs not readable: %s (extended "
			   "config space needs root: run doctor as root)%s%s",
			   n_unread, n_ports, unread, clear ? "; " : "", clear ? clear : "");
	} else {
		doctor_set(f, DOCTOR_OK, NULL,
			   "no ACS redirect on the %d port(s) between the GPUs: %s%s", n_ports,
			   clear ? clear : "", had ? had : "");
	}
	f->facts = facts;
	free(redir);
	free(clear);
	free(unread);
	free(param);
	free(had);
}

/* A GPU's aperture: BAR 1 on NVIDIA (the framebuffer BAR), else its largest. */
static const json_t *aperture(const json_t *g)
{
	const json_t *bars = json_object_get(g, "bars"), *b, *best = NULL;
	int nvidia = strcmp(jstr(g, "vendor") ?: "", "0x10de") == 0;
	size_t i;

	json_array_foreach (bars, i, b) {
		if (nvidia && json_integer_value(json_object_get(b, "bar")) == 1)
			return b;
		if (!best || json_integer_value(json_object_get(b, "bytes")) >
				     json_integer_value(json_object_get(best, "bytes")))
			best = b;
	}
	return best;
}

void doctor_rule_bar1(const json_t *h, struct doctor_finding *f)
{
	const json_t *gpus = doctor_at(h, "pcie", "gpus", NULL), *g;
	size_t i, pairs = json_array_size(doctor_at(h, "pcie", "pairs", NULL));
	char *ev = NULL;
	int small = 0, known = 0;
	json_t *list = json_array();

	if (!json_is_array(gpus)) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no PCIe facts in the fingerprint");
		json_decref(list);
		return;
	}
	if (json_array_size(gpus) == 0) {
		doctor_set(f, DOCTOR_NA, NULL, "no GPU (PCI class 0x03xx) on the PCI bus");
		json_decref(list);
		return;
	}
	json_array_foreach (gpus, i, g) {
		const json_t *b = aperture(g), *d = driver_device(h, jstr(g, "bdf"));
		json_int_t size = b ? json_integer_value(json_object_get(b, "bytes")) : 0,
			   mem = json_integer_value(json_object_get(d, "mem_bytes")),
			   nv = json_integer_value(json_object_get(d, "bar1_total_bytes"));
		const char *start = b ? jstr(b, "start") : NULL;
		int low = start && strtoull(start, NULL, 16) < (1ull << 32);
		char *s = mib(size), *m = mib(mem), *v = mib(nv);

		cat(&ev, "%s%s BAR%lld %s%s%s", ev ? "; " : "", jstr(g, "bdf"),
		    b ? (long long)json_integer_value(json_object_get(b, "bar")) : -1LL, s,
		    low ? " below 4 GiB at " : "", low ? start : "");
		if (nv > 0)
			cat(&ev, " (NVML BAR1 %s)", v);
		if (mem > 0) {
			known++;
			small |= (nv > 0 ? nv : size) < mem;
			cat(&ev, " for %s of memory", m);
		}
		json_array_append_new(list,
				      json_pack("{s:s, s:I, s:I, s:I, s:b}", "bdf", jstr(g, "bdf"),
						"bar_bytes", size, "mem_bytes", mem,
						"nvml_bar1_bytes", nv, "below_4g", low));
		free(s);
		free(m);
		free(v);
	}
	if (small)
		doctor_set(f, pairs ? DOCTOR_WARN : DOCTOR_INFO,
			   "turn on Above 4G Decoding and Resizable BAR in the firmware (boot UEFI "
			   "with CSM off), then check the size again: lspci -vv -s GPU (Region 1, "
			   "size=) or nvidia-smi -q -d MEMORY (BAR1 Memory Usage, Total)",
			   "%s: a BAR smaller than the GPU's memory (Resizable BAR or Above 4G "
			   "decoding off) maps only a window of it to peers and to the host",
			   ev);
	else if (known)
		doctor_set(f, DOCTOR_OK, NULL, "%s: the BAR covers the memory", ev);
	else
		doctor_set(f, DOCTOR_UNKNOWN, NULL,
			   "%s; the GPUs' memory size is not recorded (no CUDA device at these "
			   "addresses), so the BAR cannot be judged",
			   ev);
	f->facts = json_pack("{s:o}", "gpus", list);
	free(ev);
}

void doctor_rule_p2p_path(const json_t *h, struct doctor_finding *f)
{
	const json_t *pairs = p2p_pairs(h, f), *p, *port;
	static const char *const kinds[][2] = {{"switch", "PIX/PXB"},
					       {"root_port", "PXB"},
					       {"root_complex", "PHB"},
					       {"host_bridges", "NODE"},
					       {"sockets", "SYS"}};
	char *ev = NULL;
	int far = 0;
	size_t i, j;

	if (!pairs)
		return;
	/* per kind: how many pairs, and up to four of them with their ancestor and ports */
	for (size_t k = 0; k < ARRAY_SIZE(kinds); k++) {
		int n = 0;
		json_array_foreach (pairs, i, p) {
			if (strcmp(jstr(p, "kind") ?: "", kinds[k][0]) != 0)
				continue;
			far |= k >= 3 && !nvlinked(h, p);
			if (n == 0)
				cat(&ev, "%s%s (nvidia-smi topo %s):", ev ? "; " : "", kinds[k][0],
				    kinds[k][1]);
			if (n++ >= 4)
				continue;
			cat(&ev, "%s %s-%s %s%s", n > 1 ? "," : "",
			    json_string_value(json_array_get(json_object_get(p, "gpus"), 0)),
			    json_string_value(json_array_get(json_object_get(p, "gpus"), 1)),
			    jstr(p, "ancestor") ? "through " : "with no common PCI ancestor",
			    jstr(p, "ancestor") ?: "");
			json_array_foreach (json_object_get(p, "ports"), j, port)
				cat(&ev, "%s%s", j ? " " : " (ports ", json_string_value(port));
			if (json_array_size(json_object_get(p, "ports")))
				cat(&ev, ")");
			if (nvlinked(h, p))
				cat(&ev, " and NVLink");
		}
		if (n > 4)
			cat(&ev, " and %d more", n - 4);
	}
	if (far)
		doctor_set(f, DOCTOR_INFO,
			   "put the GPUs that exchange most under one switch or host bridge "
			   "(CUDA_VISIBLE_DEVICES, slot choice); mempath probe gpu.p2p measures "
			   "every pair",
			   "%zu pair(s): %s: traffic between some GPUs crosses host bridges or "
			   "sockets",
			   json_array_size(pairs), ev);
	else
		doctor_set(f, DOCTOR_OK, NULL, "%zu pair(s): %s", json_array_size(pairs), ev);
	f->facts = json_pack("{s:O}", "pairs", (json_t *)pairs);
	free(ev);
}

/* The link between driver devices a and b: NVLink when both have active
 * links, else the PCIe pair's kind. */
static char *link_kind(const json_t *h, const json_t *a, const json_t *b)
{
	const json_t *pairs = doctor_at(h, "pcie", "pairs", NULL), *p;
	json_int_t la = json_integer_value(json_object_get(a, "nvlinks_active")),
		   lb = json_integer_value(json_object_get(b, "nvlinks_active"));
	const char *x = jstr(a, "pci_bus_id") ?: "", *y = jstr(b, "pci_bus_id") ?: "";
	size_t i;

	if (la > 0 && lb > 0)
		return xasprintf("NVLink, %lld/%lld links up", (long long)la, (long long)lb);
	json_array_foreach (pairs, i, p) {
		const char *g0 = json_string_value(json_array_get(json_object_get(p, "gpus"), 0))
					 ?: "",
			   *g1 = json_string_value(json_array_get(json_object_get(p, "gpus"), 1))
					 ?: "";
		if ((!strcmp(g0, x) && !strcmp(g1, y)) || (!strcmp(g0, y) && !strcmp(g1, x)))
			return xasprintf("PCIe %s", jstr(p, "kind") ?: "?");
	}
	return xstrdup("link not known");
}

void doctor_rule_peer_access(const json_t *h, struct doctor_finding *f)
{
	const json_t *devs = doctor_at(h, "gpu", "devices", NULL),
		     *acc = doctor_at(h, "gpu", "peer_access", NULL), *e;
	char *ev = NULL;
	int no = 0;
	size_t i;
	json_t *list = json_array();

	if (!doctor_at(h, "gpu", NULL)) {
		doctor_set(f, DOCTOR_UNKNOWN, NULL, "no GPU part in the fingerprint");
		json_decref(list);
		return;
	}
	if (doctor_str_at(h, "gpu", "unsupported")) {
		doctor_set(f, DOCTOR_NA, NULL, "no usable GPU: %s",
			   doctor_str_at(h, "gpu", "unsupported"));
		json_decref(list);
		return;
	}
	if (json_array_size(devs) < 2) {
		doctor_set(f, DOCTOR_NA, NULL, "%zu GPU(s) known to the driver: no pair",
			   json_array_size(devs));
		json_decref(list);
		return;
	}
	if (!json_is_array(acc)) {
		doctor_set(
			f, DOCTOR_UNKNOWN, NULL,
			"the driver's peer-access answers are not recorded (recorded by an older "
			"mempath?)");
		json_decref(list);
		return;
	}
	json_array_foreach (acc, i, e) {
		json_int_t s = json_integer_value(json_object_get(e, "src")),
			   d = json_integer_value(json_object_get(e, "dst"));
		json_t *can = json_object_get(e, "can_access_peer");
		char *link = link_kind(h, json_array_get(devs, (size_t)s),
				       json_array_get(devs, (size_t)d));
		const char *ans = !json_is_integer(can)		 ? "not answered"
				  : json_integer_value(can) != 0 ? "yes"
								 : "no";
		no += strcmp(ans, "yes") != 0;
		cat(&ev, "%s%lld->%lld %s (%s)", ev ? ", " : "", (long long)s, (long long)d, ans,
		    link);
		json_array_append_new(list, json_pack("{s:I, s:I, s:s, s:s}", "src", s, "dst", d,
						      "can_access_peer", ans, "link", link));
		free(link);
	}
	if (no)
		doctor_set(
			f, DOCTOR_WARN,
			"copies between those GPUs are staged through host memory (gpu.p2p's "
			"peer=disabled cells are that path); check iommu_mode and acs_redirect "
			"above; GeForce cards need a driver build that enables peer-to-peer over "
			"PCIe; nvidia-smi topo -p2p r (and w) show the same answer",
			"the driver refuses peer access on %d of %zu ordered pair(s): %s", no,
			json_array_size(acc), ev);
	else
		doctor_set(f, DOCTOR_OK, NULL, "peer access on every ordered pair: %s", ev);
	f->facts = json_pack("{s:o}", "pairs", list);
	free(ev);
}
