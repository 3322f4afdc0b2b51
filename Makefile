# libnvdimm -- top-level Makefile: install, fetch, build, boot, test.
#
#   make run     boot our modules on QEMU's NVDIMMs, show the topology
#                (INTERACTIVE=1: a shell in the guest; SET=stock: Debian's modules)
#   make check   deps + kernel + modules + host-check + guest suites,
#                ends with "N passed, N failed[, N skipped]"
#   make check-changed  the same, but boot groups whose inputs did not
#                change since their last passing run are not booted again
#                (their results are reused; make check always boots all)
#   make check-stock   only the oracle boots (Debian's modules)
#   make upstream-mock  upstream's 6.1 tools/testing/nvdimm (linux-source-6.1)
#                built into the cache: the module set `upstream` (check
#                builds it when the plan boots it)
#   make bench   fio on /dev/pmem0 and its BTT, ours vs stock
#   make bench-blk   fio on a BLK vs a PMEM namespace of nfit_test
#   make bench-prov  fio on the e820 and virtio-pmem namespaces, ours vs stock
#   make check-peer   ndctl v76.1's own test suite (its nfit_test tests) on
#                our test build beside upstream's 6.1 mock, per test
#                (PEER_SRC: an ndctl clone; none: a SKIP, exit 0)
#   make check-debug   our modules (production + test build, with gcov) on
#                a debug kernel (KASAN, lockdep, kmemleak, UBSAN): the boots
#                of tests/guest/plan-debug, any checker report fails,
#                prints line coverage (docs/debug-tier.md)
#   make mutate  mutation check of the host-tested format code (not in check)
#   make fuzz    libFuzzer on the NFIT, label, BTT and PFN parsers (FUZZ_TIME
#                seconds or FUZZ_RUNS executions each, FUZZ_TARGETS=)
#   make soak    10,000+ enumerated BTT power cuts in one nfit_test boot
#   make fuzz-guest   the interface fuzzer on the debug kernel for
#                FUZZ_SECONDS (FUZZ_PLATFORM=nfit_test|qemu, FUZZ_SEED)
#   make check-boots KFLAVOUR=rt-amd64   a few boots (BOOTS=file) on another
#                kernel flavour (cloud-amd64, rt-amd64) or ABI (KABI=6.1.0-47)
#   make deb     build/deb/libnvdimm-dkms_*.deb (module sources for DKMS);
#                make deb-check tests it in a scratch DKMS tree (BOOT=1)
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
# A pyenv shim (a chain of bash scripts before every interpreter start:
# ~0.5 s of CPU per call on a busy 2-core machine, measured against ~0.1 s)
# is resolved once: the interpreter's own directory goes first in PATH, so
# every python3 of the host tests, the harness and its compare scripts
# starts the interpreter directly.  Nothing changes without a shim.
PY_REAL_DIR := $(shell $(PYTHON) -c 'import os, sys; print(os.path.dirname(sys.executable))' 2>/dev/null)
ifneq ($(PY_REAL_DIR),)
ifneq ($(PY_REAL_DIR)/,$(dir $(shell command -v $(PYTHON))))
export PATH := $(PY_REAL_DIR):$(PATH)
endif
endif
NVT = $(PYTHON) $(TOP)/vm/nvt.py

# Kernel flavours and ABIs (docs/harness.md "Kernel flavours"): KFLAVOUR=
# amd64 (default) | cloud-amd64 | rt-amd64, KABI=6.1.0-NN for an older ABI
# than the archive's current one.  Anything but the default gets its own
# make fragment (build/kernel-TAG.mk), module and object dirs, images,
# backing files, logs and guest output under build/TAG/, TAG being
# rt-amd64 or 6.1.0-47-amd64: a flavour run never touches the default's.
KFLAVOUR ?= amd64
KABI ?=
ifeq ($(KFLAVOUR)$(KABI),amd64)
KTAG :=
KERNEL_MK := $(BUILD)/kernel.mk
MODULES_DIR ?= $(BUILD)/modules
TEST_MODULES_DIR ?= $(BUILD)/test-modules
KOBJ := $(BUILD)/kbuild/prod
KTEST_OBJ := $(BUILD)/kbuild/test
else
KTAG := $(if $(KABI),$(KABI)-)$(KFLAVOUR)
KERNEL_MK := $(BUILD)/kernel-$(KTAG).mk
MODULES_DIR ?= $(BUILD)/$(KTAG)/modules
TEST_MODULES_DIR ?= $(BUILD)/$(KTAG)/test-modules
KOBJ := $(BUILD)/$(KTAG)/kbuild/prod
KTEST_OBJ := $(BUILD)/$(KTAG)/kbuild/test
NVT_VM ?= $(BUILD)/$(KTAG)/vm
NVT_LOGS ?= $(BUILD)/$(KTAG)/logs
NVT_GUEST_OUT ?= $(BUILD)/$(KTAG)/guest-out
endif
# KVER pins the ABI only when the user gives it (command line or
# environment, as a parent make passes it down): the KVER of a previous
# fetch, read from KERNEL_MK below, must not stop `make kernel` from moving
# to Debian's current ABI.
KVER_ASKED := $(if $(filter command line environment,$(origin KVER)),$(KVER))
-include $(KERNEL_MK)
SET ?= ours
PLATFORM ?= qemu
export KVER VMLINUZ STOCK_MODDIR MODULES_DIR TEST_MODULES_DIR
export NVT_TIMEOUT NVT_ACCEL NVT_MEM NVT_SMP NVT_APPEND NVT_LOGS NVT_GUEST_OUT NVT_VM NVT_JOBS VMLINUX

GUEST_TOOLS := $(patsubst tests/guest/tools/%.c,$(BUILD)/guest-tools/%,$(wildcard tests/guest/tools/*.c))
SUBMAKE = $(MAKE) --no-print-directory

.PHONY: all help deps kernel modules userspace _userspace host-check tools initramfs run check check-changed \
	check-stock check-boots _check-boots deb deb-check _deb-check check-debug bench bench-blk bench-prov soak _soak stress clean _modules _host-check _initramfs _run \
	_check _check-stock _bench install uninstall man

all: modules

help:
	@sed -n '2,40p' Makefile | sed 's/^# \{0,1\}//'

deps:
	@scripts/install-deps.sh

kernel: deps
	@KFLAVOUR=$(KFLAVOUR) OUT_MK=$(KERNEL_MK) \
		KVER=$(if $(KABI),$(KABI)-$(KFLAVOUR),$(KVER_ASKED)) scripts/fetch-kernel.sh

# The kernel build (kernel/Makefile, the lead's) gets KDIR and OUT; it puts
# libnvdimm.ko nfit.ko nd_pmem.ko ... into build/modules/, and its "test"
# target the test build (same sources, --wrap, + nfit_test*) into
# build/test-modules/.  Both always run; either failing fails the step.
modules: kernel
	@$(SUBMAKE) _modules
_modules:
	@if [ -f kernel/Makefile ]; then \
		rc=0; \
		echo "build: kernel modules against $(KVER) -> $(MODULES_DIR:$(TOP)/%=%)/"; \
		$(MAKE) -C kernel KDIR=$(KDIR) OUT=$(MODULES_DIR) OBJ=$(KOBJ) \
			KVER=$(KVER) KHDR_COMMON=$(KHDR_COMMON) || rc=1; \
		echo "build: test build (nfit_test, --wrap) -> $(TEST_MODULES_DIR:$(TOP)/%=%)/"; \
		$(MAKE) -C kernel test KDIR=$(KDIR) TEST_OUT=$(TEST_MODULES_DIR) \
			TEST_OBJ=$(KTEST_OBJ) KVER=$(KVER) \
			KHDR_COMMON=$(KHDR_COMMON) || rc=1; \
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

# libFuzzer on the four parsers of untrusted bytes (NFIT, label area, BTT,
# PFN info block) in turn, each from its committed seeds for FUZZ_TIME
# seconds (default 60) or FUZZ_RUNS executions; FUZZ_TARGETS= selects
# (nfit labels btt pfn).  One summary line per target; a crash fails it
# (docs/fuzzing.md).  Not in check (host-check runs a few seconds each).
.PHONY: fuzz
fuzz: kernel
	@$(MAKE) --no-print-directory -C tests/host fuzz \
		$(if $(KHDR_COMMON),KHDR_COMMON=$(KHDR_COMMON)) \
		$(if $(FUZZ_TIME),FUZZ_TIME=$(FUZZ_TIME)) \
		$(if $(FUZZ_RUNS),FUZZ_RUNS=$(FUZZ_RUNS)) \
		$(if $(FUZZ_SEED),FUZZ_SEED=$(FUZZ_SEED)) \
		$(if $(FUZZ_TARGETS),FUZZ_TARGETS="$(FUZZ_TARGETS)")

# Semantic mutants of the four host-tested format files, each killed by
# the host tests or marked equivalent (tests/host/README.md); not in check.
.PHONY: mutate
mutate:
	@$(MAKE) --no-print-directory -C tests/host mutate \
		$(if $(KHDR_COMMON),KHDR_COMMON=$(KHDR_COMMON))

# Host suites, each ending in its own "N passed, N failed" line: the NFIT
# walker (tests/host), every stock module that needs libnvdimm shipped by
# us or loading against ours (tests/host/stock-consumers.py), libndctl/ndctl on fake sysfs trees under ASan
# (tests/userspace), make install with its manuals and bash completion in
# a temporary DESTDIR, and the kernel habits (W=1, sparse, checkpatch).
host-check: kernel
	@$(SUBMAKE) _host-check
_host-check:
	@rc=0; took=; t=$$(date +%s); \
	lap() { local n=$$(date +%s); took="$$took$${took:+, }$$1 $$((n - t)) s"; t=$$n; }; \
	echo "test: NFIT walker unit tests (tests/host)"; \
	$(MAKE) --no-print-directory -C tests/host check KHDR_COMMON=$(KHDR_COMMON) KDIR=$(KDIR) || rc=1; lap walker; \
	echo "test: stock consumers of libnvdimm, each shipped or loading against ours (tests/host/stock-consumers.py)"; \
	KDIR=$(KDIR) $(PYTHON) tests/host/stock-consumers.py || rc=1; lap stock-consumers; \
	echo "test: make check-changed's record of unchanged boot groups (tests/host/harness-reuse.py)"; \
	$(PYTHON) tests/host/harness-reuse.py || rc=1; lap reuse; \
	echo "test: libndctl + ndctl on fake sysfs trees (tests/userspace)"; \
	$(MAKE) --no-print-directory -C tests/userspace check || rc=1; lap userspace; \
	echo "test: make install, manuals, bash completion (tests/userspace/install-check.sh)"; \
	$(MAKE) --no-print-directory -C tests/userspace install-check || rc=1; lap install-check; \
	echo "test: kernel lint (W=1, sparse, checkpatch --strict)"; \
	scripts/kernel-lint.sh $(KDIR) || rc=1; lap lint; \
	echo "host-check: took: $$took"; \
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
# Two single-vCPU guests at a time (boot groups with their own backing
# files): a guest's tests hardly use a second vCPU, so this nearly halves
# the boots' wall time on 2 cores.  NVT_JOBS / NVT_SMP given to make win.
CHECK_JOBS ?= 2
CHECK_SMP ?= 1
CHECK_ENV = NVT_JOBS=$${NVT_JOBS:-$(CHECK_JOBS)} NVT_SMP=$${NVT_SMP:-$(CHECK_SMP)}
check: kernel
	@$(SUBMAKE) _check
_check:
	@mkdir -p $(BUILD); steps=; took=; t=$$(date +%s); \
	lap() { local n=$$(date +%s); took="$$took$${took:+, }$$1 $$((n - t)) s"; t=$$n; }; \
	$(SUBMAKE) _modules || steps="$$steps modules"; lap modules; \
	$(SUBMAKE) _userspace || steps="$$steps userspace"; lap userspace; \
	$(SUBMAKE) _host-check 2>&1 | tee $(BUILD)/host-check.log; \
	[ $${PIPESTATUS[0]} = 0 ] || steps="$$steps host-check"; lap host-check; \
	$(SUBMAKE) tools || steps="$$steps tools"; lap tools; \
	if grep -qE '^boot +[^ ]+ +upstream ' tests/guest/plan; then \
		$(SUBMAKE) _upstream-mock || steps="$$steps upstream-mock"; lap upstream-mock; fi; \
	echo "check: host steps took: $$took"; \
	$(CHECK_ENV) UPSTREAM_MK=$(UPSTREAM_MK) $(NVT) check $(CHECK_CHANGED) --failed-steps "$$steps" --host-log $(BUILD)/host-check.log

# The same steps, but a boot group (boots sharing backing files) whose
# inputs are byte for byte those of its last passing run is not booted
# again: its recorded results are reported (vm/nvtlib/reuse.py says what
# counts as an input).  The warm loop after an edit of a test or a module.
check-changed: kernel
	@$(SUBMAKE) _check CHECK_CHANGED=--changed

# Some boots of the plan on one kernel (KFLAVOUR/KABI): the modules built
# against it, then the boots the file BOOTS names (tests/guest/plan-flavour:
# QEMU's platform and nfit_test); CI's short rt-amd64 step.
BOOTS ?= tests/guest/plan-flavour
check-boots: kernel
	@$(SUBMAKE) _check-boots
_check-boots:
	@steps=; \
	$(SUBMAKE) _modules || steps="$$steps modules"; \
	$(SUBMAKE) _userspace || steps="$$steps userspace"; \
	$(SUBMAKE) tools || steps="$$steps tools"; \
	if awk 'NR == FNR { if ($$1 !~ /^#/) n[$$1] = 1; next } \
		$$1 == "boot" && $$3 == "upstream" && ($$2 in n) { f = 1 } \
		END { exit !f }' $(BOOTS) tests/guest/plan; then \
		$(SUBMAKE) _upstream-mock || steps="$$steps upstream-mock"; fi; \
	UPSTREAM_MK=$(UPSTREAM_MK) $(NVT) check --boots $(BOOTS) --failed-steps "$$steps"

# The Debian package libnvdimm-dkms (packaging/, scripts/make-deb.sh) in
# build/deb/; deb-check (scripts/dkms-check.sh) builds and unpacks it, runs
# DKMS in a scratch tree for the fetched kernel (KFLAVOUR/KABI pick it) and
# checks that depmod picks our modules over the stock ones, which stay;
# with a second fetched kernel (DKMS_UPGRADE_MK) an autoinstall for it as
# on a kernel upgrade; BOOT=1 boots what DKMS built (ours-1, ours-2).
DKMS_UPGRADE_MK ?= $(firstword $(filter-out $(KERNEL_MK),$(wildcard $(BUILD)/kernel-*amd64.mk $(BUILD)/kernel.mk)))
deb:
	@scripts/make-deb.sh >/dev/null
deb-check: kernel $(if $(filter 1,$(BOOT)),tools)
	@$(SUBMAKE) _deb-check
_deb-check:
	@KDIR=$(KDIR) WORK=$(BUILD)/$(if $(KTAG),$(KTAG)/)dkms-check \
		DKMS_UPGRADE_MK=$(DKMS_UPGRADE_MK) BOOT=$(BOOT) scripts/dkms-check.sh

# Upstream's own 6.1 mock platform as an oracle (docs/harness.md "The
# upstream-mock oracle"): tools/testing/nvdimm of Debian's
# linux-source-6.1 built against KDIR into the cache (about 100 s cold,
# 0.2 s warm), for the boots on the module set `upstream`; `check` runs it
# when the plan has such a boot.  No source to be had: a SKIP, exit 0.
UPSTREAM_MK := $(BUILD)/$(if $(KTAG),$(KTAG)/)upstream-mock.mk
.PHONY: upstream-mock _upstream-mock
upstream-mock: kernel
	@$(SUBMAKE) _upstream-mock
_upstream-mock:
	@KERNEL_MK=$(KERNEL_MK) OUT_MK=$(UPSTREAM_MK) scripts/upstream-mock.sh

# ndctl v76.1's own test suite (docs/harness.md "The peer suite"):
# scripts/peer-suite.sh builds it out of PEER_SRC into the cache (none
# there: SKIP, exit 0, before anything else is built), then the boots of
# tests/guest/plan-peer (our test build, upstream's mock) and the table of
# compare-peer.py (build/logs/peer-report.txt).  Fails when a test that
# passes on upstream's mock does not pass on ours.  Each test may take
# meson's 600 s: the guest's per-test timeout and the boots' are raised.
PEER_MK := $(BUILD)/$(if $(KTAG),$(KTAG)/)peer-suite.mk
PEER_TIMEOUT ?= 2400
.PHONY: check-peer _check-peer
check-peer: kernel
	@$(SUBMAKE) _check-peer
_check-peer:
	@OUT_MK=$(PEER_MK) scripts/peer-suite.sh || exit 1; \
	if grep -q '^PEER_SKIP' $(PEER_MK); then \
		echo "check-peer: SKIP: $$(sed -n 's/^PEER_SKIP := //p' $(PEER_MK))"; \
		exit 0; fi; \
	steps=; \
	$(SUBMAKE) _modules || steps="$$steps modules"; \
	$(SUBMAKE) tools || steps="$$steps tools"; \
	$(SUBMAKE) _upstream-mock || steps="$$steps upstream-mock"; \
	rm -f $(or $(NVT_LOGS),$(BUILD)/logs)/peer-report.txt; \
	$(CHECK_ENV) NVT_TIMEOUT=$${NVT_TIMEOUT:-$(PEER_TIMEOUT)} \
		NVT_APPEND="NVT_TEST_TIMEOUT=$(PEER_TIMEOUT) $$NVT_APPEND" \
		PEER_MK=$(PEER_MK) UPSTREAM_MK=$(UPSTREAM_MK) \
		$(NVT) check --plan tests/guest/plan-peer --failed-steps "$$steps"; \
	rc=$$?; \
	cat $(or $(NVT_LOGS),$(BUILD)/logs)/peer-report.txt 2>/dev/null || \
		echo "check-peer: no report (see above)"; \
	exit $$rc

check-stock: kernel userspace tools
	@$(SUBMAKE) _check-stock
_check-stock:
	@$(CHECK_ENV) $(NVT) check --sets stock

# Debug-kernel tier (docs/debug-tier.md): scripts/check-debug.sh builds
# the debug kernel (or finds it in the cache), rebuilds both builds of our
# modules against it with gcov, runs the boots of DEBUG_PLAN with their own
# logs, outputs, images and backing files (build/*-debug), and prints the
# line coverage of kernel/.  The variables below reach it as environment
# (its header says what each does); NVT_JOBS, NVT_SMP, NVT_TIMEOUT and
# NVT_APPEND given to make win over the DEBUG_ ones.
DEBUG_PLAN ?= tests/guest/plan-debug
DEBUG_APPEND ?= acpi=noirq oops=panic NVT_RELOAD_CYCLES=2 NVT_NT_CYCLES=3 NVT_TEST_TIMEOUT=600 \
	NVT_STRESS_SECONDS=60 NVT_LOAD_CYCLES=3
DEBUG_TIMEOUT ?= 3000
# two single-vCPU guests at a time: twice the throughput on 2 cores
DEBUG_JOBS ?= 2
DEBUG_SMP ?= 1

check-debug: deps userspace tools
	@DEBUG_PLAN="$(DEBUG_PLAN)" DEBUG_APPEND="$(DEBUG_APPEND)" \
		DEBUG_TIMEOUT="$(DEBUG_TIMEOUT)" DEBUG_JOBS="$(DEBUG_JOBS)" \
		DEBUG_SMP="$(DEBUG_SMP)" MAKE="$(MAKE)" PYTHON="$(PYTHON)" \
		scripts/check-debug.sh

# The interface fuzzer (tests/guest/tools/nvt-fuzz.c, docs/debug-tier.md)
# on the debug kernel's test build for FUZZ_SECONDS: check-debug with one
# boot of its plan (FUZZ_PLATFORM nfit_test: nt-label-fault, whose fuzz-nt
# reloads nfit_test; qemu: dax-tq, fuzz-qemu on the namespaces dax-write
# left) and the fuzzer's budget set by time.  FUZZ_SEED replays a run (a
# fresh seed otherwise, printed).  Ends with the fuzzer's summary line
# (operations, ops/s, failures) and check-debug's result line.
FUZZ_SECONDS ?= 600
FUZZ_PLATFORM ?= nfit_test
FUZZ_SEED ?= $(shell date +%s)
FUZZ_BOOT_nfit_test := nt-label-fault
FUZZ_BOOT_qemu := dax-tq
FUZZ_TEST_nfit_test := fuzz-nt
FUZZ_TEST_qemu := fuzz-qemu
.PHONY: fuzz-guest
fuzz-guest:
	@[ -n "$(FUZZ_BOOT_$(FUZZ_PLATFORM))" ] || \
		{ echo "fuzz-guest: FUZZ_PLATFORM is nfit_test or qemu"; exit 2; }
	@mkdir -p $(BUILD); echo $(FUZZ_BOOT_$(FUZZ_PLATFORM)) > $(BUILD)/fuzz-guest.plan; \
	echo "fuzz-guest: $(FUZZ_SECONDS) s of nvt-fuzz on $(FUZZ_PLATFORM)" \
		"(boot $(FUZZ_BOOT_$(FUZZ_PLATFORM))), seed $(FUZZ_SEED)"; \
	$(SUBMAKE) check-debug DEBUG_PLAN=$(BUILD)/fuzz-guest.plan \
		DEBUG_TIMEOUT=$$(($(FUZZ_SECONDS) + 1500)) \
		DEBUG_APPEND="$(filter-out NVT_TEST_TIMEOUT=%,$(DEBUG_APPEND)) \
		NVT_TEST_TIMEOUT=$$(($(FUZZ_SECONDS) + 900)) \
		NVT_FUZZ_SECONDS=$(FUZZ_SECONDS) NVT_FUZZ_SEED=$(FUZZ_SEED)"; rc=$$?; \
	grep -h '^# \(nvt-fuzz: seed .* ops \|nvt-fuzz: time:\|MISMATCH\)' \
		$(BUILD)/logs-debug/$(FUZZ_BOOT_$(FUZZ_PLATFORM)).log | \
		sed 's/^# /fuzz-guest: /'; \
	exit $$rc

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

bench-prov: modules userspace tools
	@$(NVT) bench --prov

clean:
	rm -rf $(BUILD)
	@if [ -f kernel/Makefile ]; then $(MAKE) -C kernel clean KDIR=$(KDIR) OUT=$(MODULES_DIR) || true; fi
