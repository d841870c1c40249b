# SonicBoom build. `make` builds build/sb and build/libsb.a; `make test` runs
# the cmocka suite; `make asan` builds and tests with AddressSanitizer and
# UBSan in build-asan/. The CUDA backend is compiled when nvcc is found.

BUILD ?= build
CC ?= gcc
# -ffp-contract=off: the canonical arithmetic (kernels/kernels.h) forbids
# the compiler from fusing a*b+c into an FMA behind our back.
# OPTFLAGS picks optimisation; CFLAGS given on the command line only adds.
OPTFLAGS ?= -O2 -g
SB_CFLAGS = -std=c11 -Wall -Wextra -Werror -ffp-contract=off -pthread \
            -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPTFLAGS) \
            $(EXTRA_CFLAGS) $(CFLAGS)
LDFLAGS += -pthread $(EXTRA_LDFLAGS)
LDLIBS += -lcrypto -ljansson -lm

NVCC ?= $(shell command -v nvcc 2>/dev/null || \
          (test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc))
CUDA_HOME ?= $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(NVCC)),)
# One build for the cards we support: RTX 30xx/A10G, Orin, Ada, Hopper.
CUDA_ARCHS ?= 86 87 89 90
NVCCFLAGS ?= -O3 -std=c++17 --fmad=false \
             $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a))

LIB_SRC := $(wildcard base/*.c engine/*.c kernels/*.c kernels/cpu/*.c)
ifeq ($(NVCC),)
LIB_SRC += kernels/cuda/absent.c
CU_SRC :=
else
CU_SRC := $(wildcard kernels/cuda/*.cu)
LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
endif

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(CU_SRC:%.cu=$(BUILD)/obj/%.o)
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_SRC := $(wildcard tests/*/test_*.c)
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_LIB_SRC := $(wildcard tests/support/*.c)
TEST_LIB_OBJ := $(TEST_LIB_SRC:%.c=$(BUILD)/obj/%.o)

.PHONY: all test asan check clean tests bench-cpu
all: $(BUILD)/sb $(BUILD)/libsb.a

$(BUILD)/libsb.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	ar rcs $@ $^

$(BUILD)/sb: $(CLI_OBJ) $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BUILD)/libsb.a $(LDLIBS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/%.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/%.c $(TEST_LIB_OBJ) $(BUILD)/libsb.a
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(BUILD)/libsb.a \
	    -lcmocka $(LDLIBS)

tests: $(TEST_BIN) $(BUILD)/sb

# Runs every test binary, reports each, fails if any failed.
test: tests
	@fail=0; for t in $(TEST_BIN); do \
	    echo "== $$t"; \
	    SB_BUILD=$(BUILD) $$t || { echo "FAILED: $$t"; fail=1; }; \
	done; \
	if [ $$fail -ne 0 ]; then echo "some tests failed"; exit 1; fi; \
	echo "all tests passed"

asan:
	$(MAKE) BUILD=build-asan NVCC= OPTFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    EXTRA_LDFLAGS="-fsanitize=address,undefined" test

$(BUILD)/membw: bench/membw.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(LDLIBS)

# CPU decode speed of the 0.5b-shape Q4_K_M model against this machine's
# memory-read floor (bench/cpu_decode.sh; THREADS=2 by default).
bench-cpu: $(BUILD)/sb $(BUILD)/membw
	BUILD=$(BUILD) bench/cpu_decode.sh

# The README's test command: the suite, then the suite under sanitizers.
check: test asan

clean:
	rm -rf build build-asan

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d)
