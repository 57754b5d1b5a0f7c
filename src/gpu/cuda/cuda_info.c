/* cuda_info.c - the CUDA backend's part of the fingerprint: per-device facts
 * (cuda_facts.c, nvml.c) and driver-wide ones (NVreg parameters, nvidia_uvm
 * module parameters, driver and CUDA versions). Creates no context.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "base/util.h"
#include "gpu/cuda/cuda_impl.h"

static void set_version(json_t *o, const char *key, int v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d.%d", v / 1000, (v % 1000) / 10);
	json_object_set_new(o, key, json_string(buf));
}

/* "Name: value" lines, as /proc/driver/nvidia/params writes them. */
static json_t *params_file(const char *path)
{
	char *text = read_file_str(path, NULL), *save = NULL;
	json_t *o;

	if (!text)
		return NULL;
	o = json_object();
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		json_object_set_new(o, str_trim(line), json_string(str_trim(colon + 1)));
	}
	free(text);
	return o;
}

static json_t *params_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	json_t *o;

	if (!d)
		return NULL;
	o = json_object();
	while ((de = readdir(d)) != NULL) {
		char path[512], *v;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		v = read_line_str(path);
		if (v) {
			json_object_set_new(o, de->d_name, json_string(str_trim(v)));
			free(v);
		}
	}
	closedir(d);
	return o;
}

/* Driver-wide facts: NVreg parameters (/proc/driver/nvidia/params), nvidia_uvm
 * module parameters (/sys/module/nvidia_uvm/parameters/ *), driver and CUDA
 * versions; readable ones only. A new object, never NULL. */
static json_t *driver_sysinfo(void)
{
	json_t *o = json_object(), *x;
	char *s;
	int v;

	if (cudaDriverGetVersion(&v) == cudaSuccess)
		set_version(o, "cuda_driver_api", v);
	if (cudaRuntimeGetVersion(&v) == cudaSuccess)
		set_version(o, "cuda_runtime", v);
	s = read_line_str("/proc/driver/nvidia/version");
	if (s) {
		json_object_set_new(o, "nvidia_version", json_string(str_trim(s)));
		free(s);
	}
	x = params_file("/proc/driver/nvidia/params");
	if (x)
		json_object_set_new(o, "nvreg", x);
	x = params_dir("/sys/module/nvidia_uvm/parameters");
	if (x)
		json_object_set_new(o, "uvm_params", x);
	return o;
}

/* An array of per-device objects (name, cc, SMs, L2, memory, addressing
 * mode, PCIe link, persistence, host NUMA node, driver facts). */
json_t *cuda_sysinfo(void)
{
	json_t *arr = json_array();
	int n = cuda_count();

	for (int i = 0; i < n; i++) {
		struct gpu_props p;
		json_t *o = json_object();
		char cc[16];

		if (cuda_get_props(i, &p) != 0) {
			json_object_set_new(o, "error", json_string(cuda_last_error()));
			json_array_append_new(arr, o);
			continue;
		}
		snprintf(cc, sizeof(cc), "%d.%d", p.cc_major, p.cc_minor);
		json_object_set_new(o, "index", json_integer(i));
		json_object_set_new(o, "name", json_string(p.name));
		json_object_set_new(o, "pci_bus_id", json_string(p.pci_bus_id));
		json_object_set_new(o, "compute_capability", json_string(cc));
		json_object_set_new(o, "sm_count", json_integer(p.sm_count));
		json_object_set_new(o, "l2_bytes", json_integer((json_int_t)p.l2_bytes));
		json_object_set_new(o, "mem_bytes", json_integer((json_int_t)p.mem_bytes));
		json_object_set_new(o, "addressing_mode", json_string(gpu_addressing_mode(&p)));
		json_object_set_new(o, "pageable_memory_access", json_integer(p.pageable_access));
		json_object_set_new(o, "pageable_uses_host_page_tables",
				    json_integer(p.pageable_host_pt));
		json_object_set_new(o, "concurrent_managed_access",
				    json_integer(p.concurrent_managed));
		json_object_set_new(o, "host_numa_node", json_integer(p.host_numa_node));
		set_version(o, "cuda_driver_api", p.driver_version);
		set_version(o, "cuda_runtime", p.runtime_version);
		nvml_sysinfo(p.pci_bus_id, o);
		/* Driver-wide facts are repeated per device so sysinfo's "devices"
		 * array carries them (one GPU is the common case). */
		json_object_set_new(o, "driver", driver_sysinfo());
		json_array_append_new(arr, o);
	}
	return arr;
}
