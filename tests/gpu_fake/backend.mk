# tests/gpu_fake/backend.mk - the fake backend's make rule (GPU_BACKEND=fake;
# the Makefile includes this file): plain C over host memory, built by CC like
# the rest, no device compiler, no libraries. docs/adding-a-backend.md.
GPU_BACKEND_SRC := $(wildcard tests/gpu_fake/*.c)
GPU_DEVICE_SRC  :=
GPU_LDLIBS      :=
