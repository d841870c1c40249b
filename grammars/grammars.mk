# grammars.mk — tree-sitter grammars compiled into libsb (included by the
# Makefile). lsp/syntax.c parses the document around a code action with them.
#
# The runtime is Debian 12's libtree-sitter-dev (0.20.7, linked statically
# so sb runs where the .so is absent); it loads grammars of ABI 13..14, so
# the grammar releases are pinned to the last ABI-14 ones
# (grammars/package.json, with tarball integrity in package-lock.json).
# `npm ci --ignore-scripts` fetches them into grammars/node_modules (never
# committed); each C file is checked against grammars/SHA256SUMS before
# anything is compiled. Without npm the build fails: grammars are not
# optional.
#
# After a version bump: `cd grammars && npm install --package-lock-only`,
# `npm ci --ignore-scripts`, then regenerate SHA256SUMS from node_modules
# (sha256sum of each file listed there, paths relative to node_modules).

GRAMMARS_NM := grammars/node_modules

# Every C file of every grammar, relative to $(GRAMMARS_NM). A grammar is
# parser.c plus, for most, an external scanner.c (which may #include more
# files from its own folder: all of them are in SHA256SUMS).
GRAMMAR_C := \
    tree-sitter-c/src/parser.c \
    tree-sitter-cpp/src/parser.c tree-sitter-cpp/src/scanner.c \
    tree-sitter-python/src/parser.c tree-sitter-python/src/scanner.c \
    tree-sitter-javascript/src/parser.c tree-sitter-javascript/src/scanner.c \
    tree-sitter-typescript/typescript/src/parser.c \
    tree-sitter-typescript/typescript/src/scanner.c \
    tree-sitter-typescript/tsx/src/parser.c tree-sitter-typescript/tsx/src/scanner.c \
    tree-sitter-rust/src/parser.c tree-sitter-rust/src/scanner.c \
    tree-sitter-go/src/parser.c \
    tree-sitter-java/src/parser.c \
    tree-sitter-json/src/parser.c \
    tree-sitter-bash/src/parser.c tree-sitter-bash/src/scanner.c \
    @tree-sitter-grammars/tree-sitter-lua/src/parser.c \
    @tree-sitter-grammars/tree-sitter-lua/src/scanner.c \
    @tree-sitter-grammars/tree-sitter-yaml/src/parser.c \
    @tree-sitter-grammars/tree-sitter-yaml/src/scanner.c \
    @tree-sitter-grammars/tree-sitter-markdown/tree-sitter-markdown/src/parser.c \
    @tree-sitter-grammars/tree-sitter-markdown/tree-sitter-markdown/src/scanner.c

GRAMMAR_OBJ := $(GRAMMAR_C:%.c=$(BUILD)/grammars/%.o)
# npm ci writes node_modules/.package-lock.json: a stamp newer than the lock
# file (as for the tokenizer reference in the Makefile).
GRAMMARS_STAMP := $(GRAMMARS_NM)/.package-lock.json
GRAMMARS_VERIFIED := $(BUILD)/grammars/verified

# Generated parser code is not ours and does not pass -Wall -Werror: its
# own flags, no warnings, no sanitizers (make asan instruments our code).
GRAMMAR_CFLAGS ?= -std=c11 -O2 -w -D_DEFAULT_SOURCE

$(GRAMMARS_STAMP): grammars/package-lock.json grammars/package.json grammars/.npmrc \
    | $(DEPS_BUILD)
	@command -v npm >/dev/null || { \
	    echo "grammars: npm is required to fetch the tree-sitter grammars" \
	         "(apt-get install nodejs npm)" >&2; exit 1; }
	cd grammars && flock .npm-lock sh -c \
	    '[ node_modules/.package-lock.json -nt package-lock.json ] || \
	     npm ci --ignore-scripts --no-audit --no-fund' \
	    || { echo "grammars: npm ci failed in grammars/" >&2; exit 1; }
	touch $@

$(GRAMMARS_VERIFIED): grammars/SHA256SUMS $(GRAMMARS_STAMP)
	@mkdir -p $(@D)
	cd $(GRAMMARS_NM) && grep -v '^#' ../SHA256SUMS | sha256sum --quiet -c - \
	    || { echo "grammars: a grammar source does not match grammars/SHA256SUMS" >&2; \
	         exit 1; }
	touch $@

# The source is named through the stem, not as a prerequisite: it exists
# only once npm ci has run, which the verified stamp orders first.
$(GRAMMAR_OBJ): $(BUILD)/grammars/%.o: $(GRAMMARS_VERIFIED)
	@mkdir -p $(@D)
	$(CC) $(GRAMMAR_CFLAGS) -c -o $@ $(GRAMMARS_NM)/$*.c

$(BUILD)/libsb.a: $(GRAMMAR_OBJ)

# The runtime, statically (see PORTABLE_LDLIBS in the Makefile).
LDLIBS += -l:libtree-sitter.a
