#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# usage: check-wrap.sh TEST_OBJ
#        check-wrap.sh --prod PROD_OBJ
#
# After the test build: every driver module (not test/) must reach the
# functions that map or claim physical address space, and the media
# reads that nfit_test poisons, only through the --wrap of
# Kbuild.drivers.  A raw call would hand a mock address to the real
# kernel (a failed mapping, a warning, or worse) or read past the mock's
# poison, so it fails the build and names the symbol to wrap.
#
# After the production build (--prod): no module may reference a
# __wrap_ or nfit_test_ symbol (only nfit_test_iomap.ko defines them,
# e.g. the LIBNVDIMM_TEST_BUILD hook of nd_pmem; such a module would not
# load without the test build's helpers).
if [ "$1" = --prod ]; then
	rc=0
	for ko in $(cat "$2/modules.order"); do
		for sym in $(nm -u "$ko" | awk '$2 ~ /^(__wrap_|nfit_test_)/ { print $2 }'); do
			echo "check-wrap: production module ${ko##*/} references $sym (a test-build wrapper or hook)" >&2
			rc=1
		done
	done
	exit $rc
fi
obj=$1
# map, unmap, claim, release: what a driver may do with an address range;
# copy_mc_to_kernel: how it reads media
family='memremap devm_memremap memunmap devm_memunmap memremap_pages
devm_memremap_pages devm_memunmap_pages ioremap ioremap_cache ioremap_wc
ioremap_wt ioremap_uc ioremap_prot ioremap_encrypted devm_ioremap
devm_ioremap_wc devm_ioremap_uc devm_ioremap_np devm_ioremap_resource
devm_ioremap_resource_wc devm_platform_ioremap_resource iounmap devm_iounmap
__request_region __release_region __devm_request_region __devm_release_region
request_resource request_resource_conflict devm_request_resource
release_resource insert_resource insert_resource_conflict
insert_resource_expand_to_fit allocate_resource adjust_resource
acpi_os_map_memory acpi_os_map_iomem acpi_os_unmap_memory
acpi_os_unmap_iomem copy_mc_to_kernel'
rc=0
for ko in $(cat "$obj/modules.order"); do
	case $ko in "$obj"/test/*) continue ;; esac
	for sym in $(nm -u "$ko" | awk '{ print $2 }'); do
		for f in $family; do
			[ "$sym" = "$f" ] || continue
			echo "check-wrap: ${ko##*/} calls $sym unwrapped: add a __wrap_$sym to kernel/test/iomap.c and $sym to NFIT_TEST_WRAP in kernel/test/Kbuild.drivers" >&2
			rc=1
		done
	done
done
exit $rc
