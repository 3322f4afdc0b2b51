# libnvdimm -- top-level Makefile: install, fetch, build, boot, test.
#
#   make run     boot our modules on QEMU's NVDIMMs, show the topology
#                (INTERACTIVE=1: a shell in the guest; SET=stock: Debian's modules)
#   make check   deps + kernel + modules + host-check + guest suites,
#                ends with "N passed, N failed[, N skipped]"
#   make check-stock   only the oracle boots (Debian's modules)
#   make bench   fio on /dev/pmem0 and its BTT, ours vs stock
#   make bench-blk   fio on a BLK vs a PMEM namespace of nfit_test
#   make check-debug   our modules (production + test build, with gcov) on
#                a debug kernel (KASAN, lockdep, kmemleak, UBSAN): the boots
#                of tests/guest/plan-debug, any checker report fails,
#                prints line coverage (docs/debug-tier.md)
#   make mutate  mutation check of the host-tested format code (not in check)
#   make soak    10,000+ enumerated BTT power cuts in one nfit_test boot
#   make stress  concurrency stress and load/unload cycles on the debug
#                kernel (STRESS_SECONDS=600 RELOAD_CYCLES=100; not in check)
#   make install  libndctl-nvt, nvt-ndctl, its manuals and bash completion
#                (PREFIX=/usr/local, DESTDIR, BINDIR, LIBDIR, ...; README.md);
#                make uninstall removes them; make man builds the manuals
#
# Steps: deps kernel modules host-check tools initramfs.  Kernel variables
# come from build/kernel.mk (scripts/fetch-kernel.sh); every one of them,
# and MODULES_DIR / TEST_MODULES_DIR, can be overridden on the command line
# (e.g. a debug kernel: make check VMLINUZ=... STOCK_MODDIR=... KVER=...).

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build
PYTHON ?= python3
NVT = $(PYTHON) $(TOP)/vm/nvt.py

-include $(BUILD)/kernel.mk

MODULES_DIR ?= $(BUILD)/modules
TEST_MODULES_DIR ?= $(BUILD)/test-modules
SET ?= ours
PLATFORM ?= qemu
export KVER VMLINUZ STOCK_MODDIR MODULES_DIR TEST_MODULES_DIR
export NVT_TIMEOUT NVT_ACCEL NVT_MEM NVT_SMP NVT_APPEND NVT_LOGS NVT_GUEST_OUT NVT_VM NVT_JOBS VMLINUX

GUEST_TOOLS := $(patsubst tests/guest/tools/%.c,$(BUILD)/guest-tools/%,$(wildcard tests/guest/tools/*.c))
SUBMAKE = $(MAKE) --no-print-directory

.PHONY: all help deps kernel modules userspace _userspace host-check tools initramfs run check \
	check-stock check-debug bench bench-blk soak _soak stress clean _modules _host-check _initramfs _run \
	_check _check-stock _check-debug _bench install uninstall man

all: modules

help:
	@sed -n '2,25p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/install-deps.sh

kernel: deps
	@scripts/fetch-kernel.sh

# The kernel build (kernel/Makefile, the lead's) gets KDIR and OUT; it puts
# libnvdimm.ko nfit.ko nd_pmem.ko ... into build/modules/, and its "test"
# target the test build (same sources, --wrap, + nfit_test*) into
# build/test-modules/.  Both always run; either failing fails the step.
modules: kernel
	@$(SUBMAKE) _modules
_modules:
	@if [ -f kernel/Makefile ]; then \
		rc=0; \
		echo "build: kernel modules against $(KVER) -> build/modules/"; \
		$(MAKE) -C kernel KDIR=$(KDIR) OUT=$(MODULES_DIR) KVER=$(KVER) \
			KHDR_COMMON=$(KHDR_COMMON) || rc=1; \
		echo "build: test build (nfit_test, --wrap) -> build/test-modules/"; \
		$(MAKE) -C kernel test KDIR=$(KDIR) TEST_OUT=$(TEST_MODULES_DIR) \
			KVER=$(KVER) KHDR_COMMON=$(KHDR_COMMON) || rc=1; \
		exit $$rc; \
	else \
		echo "build: kernel/Makefile not there yet, no modules built"; \
	fi

# libndctl and our ndctl (userspace/) -> build/lib, build/bin
userspace: deps
	@$(SUBMAKE) _userspace
_userspace:
	@echo "build: libndctl + ndctl -> build/lib, build/bin"
	@$(MAKE) --no-print-directory -s -C userspace

# The userspace installed beside Debian's ndctl (userspace/Makefile):
# nvt-ndctl, libndctl-nvt.so.1 with its header and libndctl-nvt.pc, the
# man pages (scdoc) and the bash completion.  No deps step: `sudo make
# install` after a build installs no packages.
install uninstall man:
	@$(MAKE) --no-print-directory -C userspace $@

# Semantic mutants of the four host-tested format files, each killed by
# the host tests or marked equivalent (tests/host/README.md); not in check.
.PHONY: mutate
mutate:
	@$(MAKE) --no-print-directory -C tests/host mutate \
		$(if $(KHDR_COMMON),KHDR_COMMON=$(KHDR_COMMON))

# Host suites, each ending in its own "N passed, N failed" line: the NFIT
# walker (tests/host), libndctl/ndctl on fake sysfs trees under ASan
# (tests/userspace), make install with its manuals and bash completion in
# a temporary DESTDIR, and the kernel habits (W=1, sparse, checkpatch).
host-check: kernel
	@$(SUBMAKE) _host-check
_host-check:
	@rc=0; \
	echo "test: NFIT walker unit tests (tests/host)"; \
	$(MAKE) --no-print-directory -C tests/host check KHDR_COMMON=$(KHDR_COMMON) KDIR=$(KDIR) || rc=1; \
	echo "test: libndctl + ndctl on fake sysfs trees (tests/userspace)"; \
	$(MAKE) --no-print-directory -C tests/userspace check || rc=1; \
	echo "test: make install, manuals, bash completion (tests/userspace/install-check.sh)"; \
	$(MAKE) --no-print-directory -C tests/userspace install-check || rc=1; \
	echo "test: kernel lint (W=1, sparse, checkpatch --strict)"; \
	scripts/kernel-lint.sh $(KDIR) || rc=1; \
	exit $$rc

# static guest tools, built against the uapi headers of linux-libc-dev
tools: $(GUEST_TOOLS)
$(BUILD)/guest-tools/%: tests/guest/tools/%.c
	@mkdir -p $(@D)
	@echo "build: guest tool $*"
	@gcc -static -O2 -Wall -Werror -o $@ $<

initramfs: kernel tools
	@$(SUBMAKE) _initramfs
_initramfs:
	@$(NVT) image --set stock
	@if ls $(MODULES_DIR)/*.ko >/dev/null 2>&1; then $(NVT) image --set ours; \
	else echo "image: $(MODULES_DIR)/*.ko missing, no 'ours' image"; fi

run: modules userspace tools
	@$(SUBMAKE) _run
_run:
	@$(NVT) run --set $(SET) --platform $(PLATFORM) $(if $(INTERACTIVE),--interactive)

# Every step runs even if an earlier one failed; failures are counted in
# the final line.  A failed module build is not booted (no stale modules).
check: kernel
	@$(SUBMAKE) _check
_check:
	@mkdir -p $(BUILD); steps=; \
	$(SUBMAKE) _modules || steps="$$steps modules"; \
	$(SUBMAKE) _userspace || steps="$$steps userspace"; \
	$(SUBMAKE) _host-check 2>&1 | tee $(BUILD)/host-check.log; \
	[ $${PIPESTATUS[0]} = 0 ] || steps="$$steps host-check"; \
	$(SUBMAKE) tools || steps="$$steps tools"; \
	$(NVT) check --failed-steps "$$steps" --host-log $(BUILD)/host-check.log

check-stock: kernel userspace tools
	@$(SUBMAKE) _check-stock
_check-stock:
	@$(NVT) check --sets stock

# Debug-kernel tier (docs/debug-tier.md).  scripts/debug-kernel.sh builds
# the debug kernel (or finds it in the cache) and writes
# build/kernel-debug.mk, whose variables replace kernel.mk's on the
# sub-make's command line.  Both builds of our modules are redone against
# that tree with GCOV_PROFILE=y (it reaches Kbuild through MAKEFLAGS;
# Debian's kernel has no CONFIG_GCOV_KERNEL, so `make modules` stays
# unprofiled) in their own object and output dirs.  The boots named in
# tests/guest/plan-debug run with their own logs, guest output, images and
# backing files (build/*-debug); compares, and boots that continue a stock
# boot's backing files, use what the last `make check` saved.
# DEBUG_APPEND: acpi=noirq skips QEMU's _PRT AML loop (~20 s per boot under
# the debug kernel); NAME=value words reach the guest's /init as
# environment (fewer reload cycles, a longer per-test timeout).
DEBUG_MK := $(BUILD)/kernel-debug.mk
DEBUG_PLAN ?= tests/guest/plan-debug
DEBUG_MODULES_DIR := $(BUILD)/debug-modules
DEBUG_TEST_MODULES_DIR := $(BUILD)/debug-test-modules
DEBUG_OBJ := $(BUILD)/kbuild/debug
DEBUG_TEST_OBJ := $(BUILD)/kbuild/debug-test
DEBUG_APPEND ?= acpi=noirq oops=panic NVT_RELOAD_CYCLES=2 NVT_NT_CYCLES=3 NVT_TEST_TIMEOUT=600 \
	NVT_STRESS_SECONDS=60 NVT_LOAD_CYCLES=3
DEBUG_TIMEOUT ?= 900
# two single-vCPU guests at a time: twice the throughput on 2 cores
DEBUG_JOBS ?= 2
DEBUG_SMP ?= 1

check-debug: deps userspace tools
	@t0=$$(date +%s); scripts/debug-kernel.sh || exit 1; \
	$(SUBMAKE) _check-debug DEBUG_T0=$$t0 \
		$$(sed -n 's/^\([A-Z_]*\) := \(.*\)$$/\1=\2/p' $(DEBUG_MK))
_check-debug:
	@mkdir -p $(BUILD); steps=; t1=$$(date +%s); \
	echo "build: kernel modules against $(KVER) (gcov) -> build/debug-modules/"; \
	$(MAKE) -C kernel KDIR=$(KDIR) OUT=$(DEBUG_MODULES_DIR) OBJ=$(DEBUG_OBJ) \
		KVER=$(KVER) GCOV_PROFILE=y || steps="$$steps modules"; \
	echo "build: test build against $(KVER) (gcov) -> build/debug-test-modules/"; \
	$(MAKE) -C kernel test KDIR=$(KDIR) TEST_OUT=$(DEBUG_TEST_MODULES_DIR) \
		TEST_OBJ=$(DEBUG_TEST_OBJ) KVER=$(KVER) GCOV_PROFILE=y || \
		steps="$$steps modules"; \
	t2=$$(date +%s); rm -rf $(BUILD)/guest-out-debug; \
	NVT_LOGS=$(BUILD)/logs-debug NVT_GUEST_OUT=$(BUILD)/guest-out-debug \
	NVT_VM=$(BUILD)/vm-debug MODULES_DIR=$(DEBUG_MODULES_DIR) \
	TEST_MODULES_DIR=$(DEBUG_TEST_MODULES_DIR) \
	NVT_APPEND="$(DEBUG_APPEND) $(NVT_APPEND)" \
	NVT_TIMEOUT=$${NVT_TIMEOUT:-$(DEBUG_TIMEOUT)} \
	NVT_JOBS=$${NVT_JOBS:-$(DEBUG_JOBS)} NVT_SMP=$${NVT_SMP:-$(DEBUG_SMP)} \
		$(NVT) check --boots $(DEBUG_PLAN) --failed-steps "$$steps" \
		| tee $(BUILD)/check-debug.log; rc=$${PIPESTATUS[0]}; t3=$$(date +%s); \
	$(PYTHON) scripts/coverage.py --obj $(DEBUG_OBJ) --obj $(DEBUG_TEST_OBJ) \
		--runs $(BUILD)/guest-out-debug --out $(BUILD)/coverage || \
		{ echo "check-debug: FAIL: no coverage report (see above)"; rc=1; }; \
	t4=$$(date +%s); \
	echo "check-debug: kernel $$((t1 - $(DEBUG_T0))) s, modules $$((t2 - t1)) s," \
		"boots $$((t3 - t2)) s, coverage $$((t4 - t3)) s, total $$((t4 - $(DEBUG_T0))) s"; \
	tail -n 1 $(BUILD)/check-debug.log; exit $$rc

# At least 10,000 enumerated BTT power cuts (tests/guest/plan-soak); not
# in check (about ten minutes).
soak: modules userspace tools
	@$(SUBMAKE) _soak
_soak:
	@NVT_APPEND="NVT_TEST_TIMEOUT=3000 $(NVT_APPEND)" \
		$(NVT) check --plan tests/guest/plan-soak --timeout 3600

# Issue 14's reliability runs, not in check (docs/debug-tier.md, "make
# stress"): the boots of tests/guest/plan-stress on the debug kernel, as
# check-debug runs them, with nt-stress's workers running STRESS_SECONDS
# and RELOAD_CYCLES load/unload cycles of every module set (nt-load-cycles:
# the test build on nfit_test; reload-modes: ours and the test build on
# QEMU's NVDIMMs); kmemleak and the dmesg check at the end of every boot.
# The per-test and per-boot timeouts grow with both.
STRESS_SECONDS ?= 600
RELOAD_CYCLES ?= 100
STRESS_PLAN ?= tests/guest/plan-stress
STRESS_TEST_TIMEOUT = $(shell echo $$(( $(STRESS_SECONDS) + 60 * $(RELOAD_CYCLES) + 900 )))
stress:
	@$(SUBMAKE) check-debug DEBUG_PLAN=$(STRESS_PLAN) \
		DEBUG_APPEND="acpi=noirq oops=panic NVT_STRESS_SECONDS=$(STRESS_SECONDS) NVT_LOAD_CYCLES=$(RELOAD_CYCLES) NVT_RELOAD_CYCLES=$(RELOAD_CYCLES) NVT_TEST_TIMEOUT=$(STRESS_TEST_TIMEOUT)" \
		DEBUG_TIMEOUT=$$(( 2 * $(STRESS_TEST_TIMEOUT) + 1200 ))

bench: modules userspace tools
	@$(SUBMAKE) _bench
_bench:
	@$(NVT) bench

bench-blk: modules userspace tools
	@$(NVT) bench --blk

clean:
	rm -rf $(BUILD)
	@if [ -f kernel/Makefile ]; then $(MAKE) -C kernel clean KDIR=$(KDIR) OUT=$(MODULES_DIR) || true; fi
