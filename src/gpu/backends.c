/* backends.c - the GPU backend built in: gpu_backend(), its table checked
 * and completed once (GPU_ENTRIES' defaults for what it left NULL), and the
 * reasons GPU work cannot run (backend.h). The Makefile names the backend's
 * table when it compiles this file (MEMPATH_GPU_TABLE: gpu_backend_cuda of
 * src/gpu/cuda/cuda.c, gpu_backend_fake of tests/gpu_fake/; the backend is
 * chosen at build time, docs/adding-a-backend.md); without one (make GPU=0)
 * this and um.c are the only files of src/gpu/ built, and there is no
 * backend. Nothing registers itself. Not backend.c: the backends' files
 * include backend.h and this file names their table, so one module would
 * reach the other both ways (make check-layers).
 *
 * The defaults are made from GPU_ENTRIES, like the struct: a refusal per
 * entry (records "<api> backend: no <entry>" through the completed table's
 * set_error), and the OWN ones written here. A refusal knows its table
 * through `done`, the one gpu_backend() completed: a table completed for a
 * test (gpu_backend_complete) records its refusals there too, which the
 * tests read back with that table's last_error.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "gpu/backend.h"

#ifdef MEMPATH_GPU
extern const struct gpu_backend MEMPATH_GPU_TABLE;
#endif

/* the table whose refusals and defaults run now: gpu_backend()'s, or the
 * last one gpu_backend_complete() made */
static const struct gpu_backend *cur;
static char refused_why[256];

/* ---- OWN defaults ------------------------------------------------------- */

static __thread char last_err[512];

static void own_set_error(const char *msg)
{
	snprintf(last_err, sizeof(last_err), "%s", msg);
}

static const char *own_last_error(void)
{
	return last_err;
}

static void own_clear_error(void)
{
}

static const char *own_error_name(int err)
{
	static __thread char buf[48];

	snprintf(buf, sizeof(buf), "%s error %d", cur->names.api, err);
	return buf;
}

/* The fingerprint's devices from get_props, in the keys the CUDA backend
 * writes for the same facts, with the backend's name; a fact the backend
 * left 0 (unknown) is left out, not written as 0. */
static json_t *own_sysinfo(void)
{
	json_t *devs = json_array();
	int n = cur->count();

	for (int i = 0; i < n; i++) {
		json_t *o = json_pack("{s:i,s:s}", "index", i, "backend", cur->names.api);
		struct gpu_props p;
		char cc[16];

		json_array_append_new(devs, o);
		if (cur->get_props(i, &p) != 0) {
			json_object_set_new(o, "error", json_string(cur->last_error()));
			continue;
		}
		json_object_set_new(o, "name", json_string(p.name));
		if (p.pci_bus_id[0])
			json_object_set_new(o, "pci_bus_id", json_string(p.pci_bus_id));
		snprintf(cc, sizeof(cc), "%d.%d", p.cc_major, p.cc_minor);
		if (p.cc_major > 0)
			json_object_set_new(o, "compute_capability", json_string(cc));
		if (p.sm_count > 0)
			json_object_set_new(o, "sm_count", json_integer(p.sm_count));
		if (p.l2_bytes > 0)
			json_object_set_new(o, "l2_bytes", json_integer((json_int_t)p.l2_bytes));
		if (p.mem_bytes > 0)
			json_object_set_new(o, "mem_bytes", json_integer((json_int_t)p.mem_bytes));
		json_object_set_new(o, "host_numa_node", json_integer(p.host_numa_node));
	}
	return devs;
}

/* "the <api> backend has no <what>" into buf: the OWN "not here" answers */
static const char *has_none(char *buf, size_t len, const char *what)
{
	snprintf(buf, len, "the %s backend has no %s", cur->names.api, what);
	return buf;
}

static const char *own_telemetry_unavailable(void)
{
	static char why[96];

	return has_none(why, sizeof(why), "telemetry");
}

static int own_link_devices(char *why, size_t len)
{
	has_none(why, len, "link counters");
	return -1;
}

static json_t *own_mem(const int *pids, size_t n_pids, const char **why)
{
	static char buf[96];

	*why = has_none(buf, sizeof(buf), "device memory monitor");
	return NULL;
}

static int own_um_open(char *why, size_t len)
{
	has_none(why, len, "unified-memory counters");
	return -1;
}

static int own_hold_memory(uint64_t bytes, double hold_s, int ready_fd, char *err, size_t errlen)
{
	snprintf(err, errlen, "the %s backend cannot hold device memory (no hold_memory)",
		 cur->names.api);
	return -1;
}

/* A refused table's answers: why, no device, no facts. */
static const char *refused_reason(void)
{
	return refused_why;
}

static int refused_count(void)
{
	return 0;
}

static int refused_get_props(int dev, struct gpu_props *p)
{
	cur->set_error(refused_why);
	return -1;
}

/* ---- refusals, one per entry (GPU_ENTRIES) ------------------------------ */

static void refuse(const char *entry)
{
	char msg[160];

	snprintf(msg, sizeof(msg), "%s backend: no %s (the backend leaves it out)", cur->names.api,
		 entry);
	cur->set_error(msg);
}

/* a refusal returning what its kind of entry fails with */
#define GPU_MAKE_REFUSAL_RET(ret, name, params, fails) \
	static ret refuse_##name params                \
	{                                              \
		refuse(#name);                         \
		return fails;                          \
	}
#define GPU_MAKE_REFUSAL_INT(ret, name, params) GPU_MAKE_REFUSAL_RET(ret, name, params, -1)
#define GPU_MAKE_REFUSAL_LAUNCH(ret, name, params) \
	GPU_MAKE_REFUSAL_RET(ret, name, params, GPU_REFUSED)
#define GPU_MAKE_REFUSAL_PTR(ret, name, params) GPU_MAKE_REFUSAL_RET(ret, name, params, NULL)
#define GPU_MAKE_REFUSAL_VOID(ret, name, params) \
	static ret refuse_##name params          \
	{                                        \
	}
#define GPU_MAKE_REFUSAL_OWN(ret, name, params)
#define GPU_MAKE_REFUSAL_NONE(ret, name, params)
#define GPU_MAKE_REFUSAL(ret, name, need, dflt, params) GPU_MAKE_REFUSAL_##dflt(ret, name, params)
GPU_ENTRIES(GPU_MAKE_REFUSAL)

/* what an entry left NULL gets */
#define GPU_DEFAULT_INT(name)	 refuse_##name
#define GPU_DEFAULT_LAUNCH(name) refuse_##name
#define GPU_DEFAULT_PTR(name)	 refuse_##name
#define GPU_DEFAULT_VOID(name)	 refuse_##name
#define GPU_DEFAULT_OWN(name)	 own_##name
#define GPU_DEFAULT_NONE(name)	 NULL

/* appends ", name" (or "name") to the list */
static void list_add(char *list, size_t len, const char *name)
{
	size_t n = strlen(list);

	snprintf(list + n, len - n, "%s%s", n ? ", " : "", name);
}

int gpu_backend_complete(const struct gpu_backend *in, struct gpu_backend *out, char *why,
			 size_t len)
{
	enum { GPU_MUST, GPU_CORE, GPU_MAY };
	char must[256] = "", core[512] = "";
	int errs = !!in->set_error + !!in->last_error + !!in->clear_error;

	*out = *in;
	cur = out;
	if (!out->names.api)
		list_add(must, sizeof(must), "names.api");
#define GPU_FILL_NAME(field)   \
	if (!out->names.field) \
		out->names.field = #field;
	GPU_NAMES(GPU_FILL_NAME)
#undef GPU_FILL_NAME
	for (int i = 0; i < 3; i++)
		if (!out->names.p2p_attr[i])
			out->names.p2p_attr[i] = "p2p_attr";
#define GPU_FILL_ENTRY(ret, name, need, dflt, params) \
	if (!out->name && GPU_##need == GPU_MUST)     \
		list_add(must, sizeof(must), #name);  \
	if (!out->name && GPU_##need == GPU_CORE)     \
		list_add(core, sizeof(core), #name);  \
	if (!out->name)                               \
		out->name = GPU_DEFAULT_##dflt(name);
	GPU_ENTRIES(GPU_FILL_ENTRY)
#undef GPU_FILL_ENTRY
	if (!must[0] && (errs == 0 || errs == 3)) {
		if (!core[0])
			return 0;
		snprintf(why, len,
			 "the %s backend discovers devices only: it has no %s (src/gpu/backend.h: "
			 "what every measurement needs)",
			 out->names.api, core);
		return 1;
	}
	if (must[0])
		snprintf(why, len,
			 "the %s backend is refused: it leaves out %s, which every backend "
			 "writes (src/gpu/backend.h)",
			 out->names.api, must);
	else
		snprintf(why, len,
			 "the %s backend is refused: it gives some of set_error, last_error and "
			 "clear_error, not all three (they share one record)",
			 out->names.api);
	/* a refused table sees no device and says why */
	snprintf(refused_why, sizeof(refused_why), "%s", why);
	out->unsupported_reason = refused_reason;
	out->count = refused_count;
	out->get_props = refused_get_props;
	out->set_error = own_set_error;
	out->last_error = own_last_error;
	out->clear_error = own_clear_error;
	return -1;
}

/* ---- the backend built in ------------------------------------------------ */

#ifdef MEMPATH_GPU
static struct gpu_backend built;
static int built_state;	    /* gpu_backend_complete's answer */
static char built_why[640]; /* and its why */
static pthread_once_t built_once = PTHREAD_ONCE_INIT;

static void complete_built(void)
{
	built_state =
		gpu_backend_complete(&MEMPATH_GPU_TABLE, &built, built_why, sizeof(built_why));
}
#endif

const struct gpu_backend *gpu_backend(void)
{
#ifdef MEMPATH_GPU
	pthread_once(&built_once, complete_built);
	return &built;
#else
	return NULL;
#endif
}

const char *gpu_absent_reason(void)
{
	const struct gpu_backend *gpu = gpu_backend();

	/* The text results files have always had (schema stability), though
	 * CUDA is one backend of several. */
	if (!gpu)
		return "built without CUDA (no nvcc at build time, or make GPU=0)";
	return gpu->unsupported_reason();
}

const char *gpu_unsupported_reason(void)
{
	const char *why = gpu_absent_reason();

#ifdef MEMPATH_GPU
	if (!why && built_state == 1)
		return built_why;
#endif
	return why;
}
