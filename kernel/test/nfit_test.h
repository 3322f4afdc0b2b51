/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared between nfit_test.ko (the mock platform) and nfit_test_iomap.ko
 * (the --wrap'ed resource and mapping calls of the test build).
 *
 * Mock NVDIMM resources live at fake system-physical addresses in a
 * window above 2^52: no x86-64 CPU can address it (52 physical address
 * bits at most), so it can never collide with real memory or MMIO, and
 * the real resource tree (iomem_resource ends at the CPU's limit) never
 * contains it.  The wrappers hand out mock memory for addresses in the
 * window and pass every other address to the real kernel function.
 */
#ifndef __NFIT_TEST_H__
#define __NFIT_TEST_H__

#include <linux/types.h>
#include <linux/list.h>
#include <linux/ioport.h>
#include <linux/bits.h>

struct device;

#define NFIT_TEST_PHYS_BASE	BIT_ULL(52)
#define NFIT_TEST_PHYS_SIZE	BIT_ULL(40)

struct nfit_test_res;

/**
 * struct nfit_test_mmio_ops - a mock device behind a range of registers
 * @write64: a 64-bit store (the wrapped __iowrite64_copy(), once per
 *	word) of @raw, the 8 bytes as they are in memory, at byte @off of
 *	the range; the device stores it itself
 * @read64: a 64-bit load at byte @off (the wrapped ioread64_lo_hi())
 * @read32: a 32-bit load at byte @off (the wrapped ioread32()), in CPU
 *	byte order as ioread32() returns it
 *
 * Called with nfit_test_iomap's registry lock held (the range cannot be
 * withdrawn meanwhile): they must not sleep nor use the registry.
 * Accesses with the inline MMIO helpers (readl, writeq, ...) cannot be
 * observed: they see plain memory.
 */
struct nfit_test_mmio_ops {
	void (*write64)(struct nfit_test_res *res, u64 off, u64 raw);
	u64 (*read64)(struct nfit_test_res *res, u64 off);
	u32 (*read32)(struct nfit_test_res *res, u64 off);
};

/**
 * struct nfit_test_media_ops - a mock range whose memory is NVDIMM media
 * @readable: how many bytes of [@off, @off + @len) of the range can be
 *	read before the first poisoned byte: @len when none is poisoned.
 *	The wrapped copy_mc_to_kernel() stops there, as a machine check on
 *	that line would stop the real one.  A return below @len means the
 *	read consumes the poison (the owner may count and log it).
 *
 * Called with nfit_test_iomap's registry lock held, from any context a
 * driver reads media in (bio submission, under the BTT's spinlocks): it
 * must not sleep nor use the registry.
 */
struct nfit_test_media_ops {
	u64 (*readable)(struct nfit_test_res *res, u64 off, u64 len);
};

/**
 * struct nfit_test_cache_ops - a mock range a driver maps write-back
 * @invalidate: the driver invalidated its cached copy of bytes [@off,
 *	@off + @len) of the range (the wrapped arch_invalidate_pmem()),
 *	@len clipped to the range; a mock that keeps stale lines visible
 *	until then (a cached block-window aperture) shows the device's
 *	current bytes there from now on
 *
 * Called with nfit_test_iomap's registry lock held, from the context of
 * the driver's I/O: it must not sleep nor use the registry.
 */
struct nfit_test_cache_ops {
	void (*invalidate)(struct nfit_test_res *res, u64 off, u64 len);
};

/**
 * struct nfit_test_res - mock memory behind a range of fake addresses
 * @list: entry in nfit_test_iomap's registry (self-linked when not in it)
 * @start: first fake system-physical address
 * @size: bytes
 * @virt: kernel mapping of the mock memory, @size bytes
 * @name: what the range is, for the iomap debugfs listing
 * @mmio: when set, the range is registers: the wrapped MMIO helpers
 *	hand accesses inside @virt to these callbacks (the owner's module
 *	provides them; nfit_test_iomap.ko does not depend on it)
 */
struct nfit_test_res {
	struct list_head list;
	resource_size_t start;
	resource_size_t size;
	void *virt;
	const char *name;
	const struct nfit_test_mmio_ops *mmio;
	const struct nfit_test_media_ops *media;
	const struct nfit_test_cache_ops *cache;
	void *priv;
};

bool nfit_test_phys_is_mock(resource_size_t start, resource_size_t size);
int nfit_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn);
int nfit_test_res_add(struct nfit_test_res *res);
void nfit_test_res_del(struct nfit_test_res *res);

/* The wrappers, called instead of the real functions by the test build. */
struct dev_pagemap;
void *__wrap_devm_memremap_pages(struct device *dev, struct dev_pagemap *pgmap);
void *__wrap_devm_memremap(struct device *dev, resource_size_t offset,
			   size_t size, unsigned long flags);
void __iomem *__wrap_devm_ioremap(struct device *dev, resource_size_t offset,
				  resource_size_t size);
struct resource *__wrap___devm_request_region(struct device *dev,
					      struct resource *parent,
					      resource_size_t start,
					      resource_size_t n,
					      const char *name);
int __wrap_insert_resource(struct resource *parent, struct resource *new);
void __wrap___iowrite64_copy(void __iomem *to, const void *from, size_t count);
unsigned int __wrap_ioread32(const void __iomem *addr);
u64 __wrap_ioread64_lo_hi(const void __iomem *addr);
unsigned long __wrap_copy_mc_to_kernel(void *to, const void *from,
				       unsigned int len);
void __wrap_arch_invalidate_pmem(void *addr, size_t size);
/* the real one: include/linux/libnvdimm.h, which this tree does not use */
void arch_invalidate_pmem(void *addr, size_t size);

/* nd_btt.ko's media stores, through nfit_test_powercut.ko (powercut.c) */
int __wrap_nvdimm_write_bytes(struct device *ndns_dev, u64 offset,
			      const void *buf, size_t size);
struct nd_region;
int __wrap_nvdimm_flush(struct nd_region *nd_region);

#endif /* __NFIT_TEST_H__ */
