/* gpu_kit.c - GPU error checks for probes (gpu_kit.h), over the backend's
 * last-error record, so the backend's own failures and the probe's checks
 * land in the one place gpu_fail() reads; notes in the probe's extra. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kit/gpu_kit.h"

int gpu_check(int err, const char *text)
{
	const struct gpu_backend *gpu;

	if (err == 0)
		return 0;
	gpu = gpu_backend();
	/* a launcher the backend left out: its refusal said why */
	if (gpu && err == GPU_REFUSED)
		return gpu_error("%s: %s", text, gpu->last_error());
	return gpu_error("%s: %s", text, gpu && err > 0 ? gpu->error_name(err) : "failed");
}

int gpu_error(const char *fmt, ...)
{
	const struct gpu_backend *gpu = gpu_backend();
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (gpu)
		gpu->set_error(msg);
	return -1;
}

const char *gpu_last_error(void)
{
	const struct gpu_backend *gpu = gpu_backend();

	return gpu ? gpu->last_error() : gpu_unsupported_reason();
}

int gpu_fail(struct probe_result *res, const char *what)
{
	const char *err = gpu_last_error();

	probe_result_set_status(res, STATUS_FAIL, "%s%s%s", what ? what : "", what ? ": " : "",
				err[0] ? err : "unknown GPU error");
	return PROBE_FAIL;
}

void gpu_param(struct probe_result *res, const char *key, const char *fmt, ...)
{
	char v[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(v, sizeof(v), fmt, ap);
	va_end(ap);
	probe_result_add_param(res, key, v);
}

void gpu_extra_note(struct probe_result *res, const char *key, const char *text)
{
	json_t *a = json_object_get(gpu_extra(res), key), *v;
	size_t i;

	json_array_foreach (a, i, v)
		if (strcmp(json_string_value(v), text) == 0)
			return;
	if (!a) {
		a = json_array();
		json_object_set_new(gpu_extra(res), key, a);
	}
	json_array_append_new(a, json_string(text));
}
