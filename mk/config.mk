# Shared build settings.  Override on the command line: make CC=clang
# Parallel by default (one job per core) unless the caller chose -j itself.
ifeq ($(filter -j%,$(MAKEFLAGS)),)
MAKEFLAGS += -j$(shell nproc 2>/dev/null || echo 2)
endif
BUILD ?= build
BUILD := $(patsubst %/,%,$(BUILD))
BIN := $(BUILD)/bin
LIBDIR_B := $(BUILD)/lib
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
FUZZ_SECONDS ?= 60
FUZZ_RUNS ?=
FUZZ_JOBS ?= 1
FUZZ_MAX_LEN ?= 65536
FUZZ_ONLY ?=
FUZZ_CORPUS ?=

CC ?= cc
CLANG ?= clang
OPT ?= -O2 -g
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wformat=2
STD := -std=c11 -D_DEFAULT_SOURCE
CFLAGS ?=
CPPFLAGS ?=
LDFLAGS ?=
ALL_CFLAGS = $(STD) $(OPT) $(WARN) $(CFLAGS)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer

ALL_TARGETS :=
CHECK_DEPS :=
FUZZ_TARGETS :=
BENCH_DEPS :=
INSTALL_TARGETS :=

$(BUILD)/%/.dir:
	@mkdir -p $(@D) && touch $@
# directory markers are not intermediate files: keep them (and keep make
# quiet after the test summary line)
.PRECIOUS: $(BUILD)/%/.dir
