# src/gpu/cuda/backend.mk - the CUDA backend's make rule (GPU_BACKEND=cuda, the
# default where nvcc is found; the Makefile includes this file): its C files
# over the CUDA runtime (NVML and CUPTI are loaded with dlopen), compiled with
# the CUDA headers; the shared kernels of src/gpu/kernels/ compiled by nvcc
# with this folder's kernel_shim.h; the runtime linked in statically.
# docs/adding-a-backend.md says what a backend's rule gives the Makefile.
CUDA_HOME ?= $(patsubst %/bin/nvcc,%,$(NVCC))
NVFLAGS ?= -O3 -std=c++17 -gencode=arch=compute_80,code=sm_80 \
	   -gencode=arch=compute_90,code=sm_90 -gencode=arch=compute_90,code=compute_90

GPU_BACKEND_SRC := $(wildcard src/gpu/cuda/*.c)
GPU_DEVICE_SRC  := $(wildcard src/gpu/kernels/*.cu)
GPU_LDLIBS      := -L$(CUDA_HOME)/lib64 -lcudart_static -lstdc++

$(GPU_BACKEND_SRC:%.c=$(BUILD)/%.o): BASE_CFLAGS += -I$(CUDA_HOME)/include

$(BUILD)/%.o: %.cu
	@mkdir -p $(dir $@)
	@$(say) NVCC $<
	$(Q)$(NVCC_LAUNCHER) $(NVCC) $(NVFLAGS) -Isrc -Isrc/gpu/cuda -MMD -MP -c $< -o $@
