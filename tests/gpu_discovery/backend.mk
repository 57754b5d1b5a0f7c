# tests/gpu_discovery/backend.mk - GPU_BACKEND=discovery: one C file, no libraries.
GPU_BACKEND_SRC := $(wildcard tests/gpu_discovery/*.c)
GPU_DEVICE_SRC  :=
GPU_LDLIBS      :=
