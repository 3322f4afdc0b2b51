// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test_iomap.ko: the other end of the test build's --wrap=SYMBOL.
 *
 * libnvdimm.ko, nfit.ko and nd_pmem.ko of the test build are linked with
 * --wrap for the calls they make that map or claim physical address space
 * (kernel/test/Kbuild.drivers lists them), so their references resolve to
 * the __wrap_SYMBOL() functions below.  This file is built in its own
 * directory without --wrap, so its own calls reach the real functions.
 *
 * Addresses in the mock window (nfit_test.h) belong to nfit_test:
 *  - mappings return the mock memory nfit_test registered for the range
 *    (there is nothing to unmap: the memory belongs to nfit_test);
 *  - claims (insert_resource, request_mem_region) go to a private
 *    resource tree that spans the window, with the real kernel functions,
 *    so conflicts and releases behave exactly as in iomem_resource.
 * Every other address goes to the real function unchanged: the test
 * build drives real (QEMU) NVDIMMs like the production build does.
 *
 * The out-of-line MMIO helpers of the block-window protocol
 * (__iowrite64_copy, ioread32, ioread64_lo_hi) hand accesses inside a
 * range registered with mmio callbacks to its mock device (nfit_test's
 * DIMMs), and every other address to the real function.
 *
 * copy_mc_to_kernel(), the drivers' media reads, stops at the poison that
 * nfit_test marks on its media (a range registered with media callbacks)
 * and reports the bytes it did not copy, as the real function does when
 * a read hits a poisoned line; every other copy is the real function's.
 *
 * arch_invalidate_pmem(), the cache invalidation of a write-back mapping
 * (nfit.ko's block-window reads with READ_FLUSH), is reported to the
 * mock range it touches (struct nfit_test_cache_ops), then done.
 *
 * Calls that need no wrapper: remove_resource() works on whatever tree
 * the resource was inserted in, and region_intersects() is right to say
 * that nothing in iomem_resource intersects the window.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/memremap.h>
#include <linux/ioport.h>
#include <linux/err.h>
#include <linux/spinlock.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/atomic.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>
#include <linux/pfn_t.h>
#include "nfit_test.h"

static DEFINE_SPINLOCK(nfit_test_res_lock);
static LIST_HEAD(nfit_test_res_list);

/* The private resource tree of the mock window. */
static struct resource nfit_test_iomem = {
	.name = "nfit_test mock iomem",
	.start = NFIT_TEST_PHYS_BASE,
	.end = NFIT_TEST_PHYS_BASE + NFIT_TEST_PHYS_SIZE - 1,
	.flags = IORESOURCE_MEM,
};

enum nfit_test_wrapped {
	NT_WRAP_MEMREMAP,
	NT_WRAP_MEMREMAP_PAGES,
	NT_WRAP_IOREMAP,
	NT_WRAP_REQUEST_REGION,
	NT_WRAP_INSERT_RESOURCE,
	NT_WRAP_IOWRITE64_COPY,
	NT_WRAP_IOREAD32,
	NT_WRAP_IOREAD64_LO_HI,
	NT_WRAP_COPY_MC,
	NT_WRAP_INVALIDATE,
	NT_WRAP_NR,
};

static const char *const nfit_test_wrapped_name[NT_WRAP_NR] = {
	[NT_WRAP_MEMREMAP] = "devm_memremap",
	[NT_WRAP_MEMREMAP_PAGES] = "devm_memremap_pages",
	[NT_WRAP_IOREMAP] = "devm_ioremap",
	[NT_WRAP_REQUEST_REGION] = "__devm_request_region",
	[NT_WRAP_INSERT_RESOURCE] = "insert_resource",
	[NT_WRAP_IOWRITE64_COPY] = "__iowrite64_copy",
	[NT_WRAP_IOREAD32] = "ioread32",
	[NT_WRAP_IOREAD64_LO_HI] = "ioread64_lo_hi",
	[NT_WRAP_COPY_MC] = "copy_mc_to_kernel",
	[NT_WRAP_INVALIDATE] = "arch_invalidate_pmem",
};

/* calls per wrapper: [0] mock address (registers: mock device), [1] passed through */
static atomic_long_t nfit_test_calls[NT_WRAP_NR][2];
static struct dentry *nfit_test_iomap_dir;

static void count_call(enum nfit_test_wrapped w, bool mock)
{
	atomic_long_inc(&nfit_test_calls[w][mock ? 0 : 1]);
}

/**
 * nfit_test_phys_is_mock - whether an address range touches the mock window
 * @start: first address
 * @size: bytes (0 is treated as 1)
 *
 * A range that only partly lies in the window is still the mock's: the
 * mock path then refuses it instead of handing it to the real function.
 *
 * Return: true when the range belongs to the mock.
 */
bool nfit_test_phys_is_mock(resource_size_t start, resource_size_t size)
{
	u64 last = start + (size ? size - 1 : 0);

	if (last < start)	/* wraps: certainly not a real range */
		return true;
	return last >= NFIT_TEST_PHYS_BASE &&
	       start < NFIT_TEST_PHYS_BASE + NFIT_TEST_PHYS_SIZE;
}
EXPORT_SYMBOL_GPL(nfit_test_phys_is_mock);

/**
 * nfit_test_res_add - publish mock memory behind a range of the window
 * @res: the range; @res->list is initialised here
 *
 * Return: 0, or -EINVAL when the range is not inside the window or
 * overlaps a range already published.
 */
int nfit_test_res_add(struct nfit_test_res *res)
{
	const char *other = NULL;
	struct nfit_test_res *r;

	INIT_LIST_HEAD(&res->list);
	if (!res->size || !res->virt || res->start < NFIT_TEST_PHYS_BASE ||
	    res->size > NFIT_TEST_PHYS_SIZE ||
	    res->start - NFIT_TEST_PHYS_BASE > NFIT_TEST_PHYS_SIZE - res->size)
		return -EINVAL;

	spin_lock(&nfit_test_res_lock);
	list_for_each_entry(r, &nfit_test_res_list, list) {
		if (res->start < r->start + r->size &&
		    r->start < res->start + res->size) {
			other = r->name;
			break;
		}
	}
	if (!other)
		list_add_tail(&res->list, &nfit_test_res_list);
	spin_unlock(&nfit_test_res_lock);
	if (other) {
		pr_err("nfit_test_iomap: %s [%#llx, +%#llx) overlaps %s\n",
		       res->name, (u64)res->start, (u64)res->size, other);
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(nfit_test_res_add);

/**
 * nfit_test_res_del - withdraw a range published by nfit_test_res_add()
 * @res: the range; nothing happens when it is not published
 */
void nfit_test_res_del(struct nfit_test_res *res)
{
	spin_lock(&nfit_test_res_lock);
	list_del_init(&res->list);
	spin_unlock(&nfit_test_res_lock);
}
EXPORT_SYMBOL_GPL(nfit_test_res_del);

/* The mock memory behind [start, start + size), NULL when there is none. */
static void *nfit_test_virt(resource_size_t start, resource_size_t size)
{
	struct nfit_test_res *r;
	void *virt = NULL;

	spin_lock(&nfit_test_res_lock);
	list_for_each_entry(r, &nfit_test_res_list, list) {
		if (start >= r->start && size <= r->size &&
		    start - r->start <= r->size - size) {
			virt = r->virt + (start - r->start);
			break;
		}
	}
	spin_unlock(&nfit_test_res_lock);
	return virt;
}

/**
 * __wrap_devm_memremap - devm_memremap() of the test build
 * @dev: device owning the mapping
 * @offset: first physical address
 * @size: bytes
 * @flags: MEMREMAP_* flags
 *
 * Mock addresses map to nfit_test's memory (nothing to release later),
 * anything else is devm_memremap()'s.
 *
 * Return: the mapping, or an ERR_PTR() (-ENXIO: no mock memory there).
 */
void *__wrap_devm_memremap(struct device *dev, resource_size_t offset,
			   size_t size, unsigned long flags)
{
	void *virt;

	if (!nfit_test_phys_is_mock(offset, size)) {
		count_call(NT_WRAP_MEMREMAP, false);
		return devm_memremap(dev, offset, size, flags);
	}
	count_call(NT_WRAP_MEMREMAP, true);
	virt = nfit_test_virt(offset, size);
	if (!virt) {
		dev_err(dev, "nfit_test: no mock memory behind [%#llx, +%#zx)\n",
			(u64)offset, size);
		return ERR_PTR(-ENXIO);
	}
	return virt;
}
EXPORT_SYMBOL_GPL(__wrap_devm_memremap);

/**
 * __wrap_devm_memremap_pages - devm_memremap_pages() of the test build
 * @dev: device owning the mapping
 * @pgmap: the range (one) and how to map it
 *
 * A mock range gets no ZONE_DEVICE memory map: it maps to nfit_test's
 * memory, whose vmalloc/vmap pages have struct pages of their own; the
 * test build's nd_pmem serves DAX from them one page at a time
 * (nfit_test_dax_page()).  Anything else is devm_memremap_pages()'s.
 *
 * Return: the mapping of the range's start, or an ERR_PTR().
 */
void *__wrap_devm_memremap_pages(struct device *dev, struct dev_pagemap *pgmap)
{
	u64 start = pgmap->range.start;
	u64 size = range_len(&pgmap->range);
	void *virt;

	if (pgmap->nr_range != 1 || !nfit_test_phys_is_mock(start, size)) {
		count_call(NT_WRAP_MEMREMAP_PAGES, false);
		return devm_memremap_pages(dev, pgmap);
	}
	count_call(NT_WRAP_MEMREMAP_PAGES, true);
	virt = nfit_test_virt(start, size);
	if (!virt) {
		dev_err(dev, "nfit_test: no mock memory behind [%#llx, +%#llx)\n",
			start, size);
		return ERR_PTR(-ENXIO);
	}
	return virt;
}
EXPORT_SYMBOL_GPL(__wrap_devm_memremap_pages);

/**
 * nfit_test_dax_page - DAX of a mock range, page by page (test build only)
 * @phys: a physical address, mock or real
 * @flags: the PFN_* flags of the pfn (nd_pmem's: PFN_DEV | PFN_MAP)
 * @pfn: set to the pfn of the page behind a mock address (may be NULL)
 *
 * nd_pmem of the test build asks this before it hands a range to the
 * DAX core.  A mock range is nfit_test's vmalloc/vmap memory: ordinary
 * pages, each with its struct page, but not physically contiguous, so
 * only the one page behind @phys is valid.  With PFN_DEV | PFN_MAP the
 * DAX core maps it with a device-map pte, as it maps pmem (6.1's DAX
 * VMAs are not VM_MIXEDMAP: a plain pfn is refused there); the pages
 * have no dev_pagemap, so get_user_pages() of such a mapping does not
 * get them (O_DIRECT from a DAX mapping of a mock range: not served).
 *
 * Return: 0 for a real address (the caller's own pfn stands), 1 for a
 * mock one (one page), -ENXIO when no mock memory is behind it.
 */
int nfit_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn)
{
	void *virt;

	if (!nfit_test_phys_is_mock(phys, PAGE_SIZE))
		return 0;
	virt = nfit_test_virt(phys, PAGE_SIZE);
	if (!virt || !is_vmalloc_addr(virt) || offset_in_page(virt))
		return -ENXIO;
	if (pfn)
		*pfn = __pfn_to_pfn_t(page_to_pfn(vmalloc_to_page(virt)), flags);
	return 1;
}
EXPORT_SYMBOL_GPL(nfit_test_dax_page);

/**
 * __wrap_devm_ioremap - devm_ioremap() of the test build
 * @dev: device owning the mapping
 * @offset: first physical address
 * @size: bytes
 *
 * Mock "registers" are plain memory; anything else is devm_ioremap()'s.
 *
 * Return: the mapping, or NULL (no mock memory there).
 */
void __iomem *__wrap_devm_ioremap(struct device *dev, resource_size_t offset,
				  resource_size_t size)
{
	void *virt;

	if (!nfit_test_phys_is_mock(offset, size)) {
		count_call(NT_WRAP_IOREMAP, false);
		return devm_ioremap(dev, offset, size);
	}
	count_call(NT_WRAP_IOREMAP, true);
	virt = nfit_test_virt(offset, size);
	if (!virt)
		dev_err(dev, "nfit_test: no mock registers behind [%#llx, +%#llx)\n",
			(u64)offset, (u64)size);
	return (void __force __iomem *)virt;
}
EXPORT_SYMBOL_GPL(__wrap_devm_ioremap);

/* Claims of mock ranges in iomem_resource go to the mock tree. */
static struct resource *nfit_test_parent(struct resource *parent,
					 resource_size_t start,
					 resource_size_t n)
{
	if (parent == &iomem_resource && nfit_test_phys_is_mock(start, n))
		return &nfit_test_iomem;
	return parent;
}

/**
 * __wrap___devm_request_region - __devm_request_region() of the test build
 * @dev: device owning the claim
 * @parent: resource tree (&iomem_resource for request_mem_region)
 * @start: first address
 * @n: bytes
 * @name: claimant
 *
 * A mock range is claimed in the mock tree, by the real function, so it
 * is released by the real devres callback too.
 *
 * Return: the claimed resource, or NULL when the range is busy.
 */
struct resource *__wrap___devm_request_region(struct device *dev,
					      struct resource *parent,
					      resource_size_t start,
					      resource_size_t n,
					      const char *name)
{
	struct resource *p = nfit_test_parent(parent, start, n);

	count_call(NT_WRAP_REQUEST_REGION, p != parent);
	return __devm_request_region(dev, p, start, n, name);
}
EXPORT_SYMBOL_GPL(__wrap___devm_request_region);

/**
 * __wrap_insert_resource - insert_resource() of the test build
 * @parent: resource tree
 * @new: resource to insert
 *
 * A mock range published in iomem_resource lands in the mock tree.
 *
 * Return: 0, or -EBUSY when the range conflicts in its tree.
 */
int __wrap_insert_resource(struct resource *parent, struct resource *new)
{
	struct resource *p = nfit_test_parent(parent, new->start,
					      resource_size(new));

	count_call(NT_WRAP_INSERT_RESOURCE, p != parent);
	return insert_resource(p, new);
}
EXPORT_SYMBOL_GPL(__wrap_insert_resource);

/*
 * The register range holding [addr, addr + size), NULL when @addr is not
 * inside one.  Called with nfit_test_res_lock held.
 */
static struct nfit_test_res *nfit_test_mmio_res(const void __iomem *addr,
						size_t size, u64 *off)
{
	const void *p = (const void __force *)addr;
	struct nfit_test_res *r;

	list_for_each_entry(r, &nfit_test_res_list, list) {
		if (!r->mmio || p < r->virt || p >= r->virt + r->size)
			continue;
		*off = p - r->virt;
		return size <= r->size - *off ? r : NULL;
	}
	return NULL;
}

/**
 * __wrap___iowrite64_copy - __iowrite64_copy() of the test build
 * @to: destination registers
 * @from: source words
 * @count: number of 64-bit words
 *
 * Each word stored into a mock register range is handed to the range's
 * device (nfit_test.h struct nfit_test_mmio_ops); anything else is
 * __iowrite64_copy()'s.
 */
void __wrap___iowrite64_copy(void __iomem *to, const void *from, size_t count)
{
	struct nfit_test_res *r;
	size_t i;
	u64 off;

	spin_lock(&nfit_test_res_lock);
	r = count <= SIZE_MAX / sizeof(u64) ?
		nfit_test_mmio_res(to, count * sizeof(u64), &off) : NULL;
	if (r && r->mmio->write64) {
		for (i = 0; i < count; i++) {
			u64 raw;

			memcpy(&raw, from + i * sizeof(raw), sizeof(raw));
			r->mmio->write64(r, off + i * sizeof(raw), raw);
		}
		spin_unlock(&nfit_test_res_lock);
		count_call(NT_WRAP_IOWRITE64_COPY, true);
		return;
	}
	spin_unlock(&nfit_test_res_lock);
	count_call(NT_WRAP_IOWRITE64_COPY, false);
	__iowrite64_copy(to, from, count);
}
EXPORT_SYMBOL_GPL(__wrap___iowrite64_copy);

/*
 * A load of @size (4 or 8) bytes at @addr answered by a mock device:
 * true with *@val set, false when @addr is no mock register.
 */
static bool nfit_test_mmio_read(const void __iomem *addr, size_t size,
				u64 *val)
{
	struct nfit_test_res *r;
	bool mock = false;
	u64 off;

	spin_lock(&nfit_test_res_lock);
	r = nfit_test_mmio_res(addr, size, &off);
	if (r && size == sizeof(u32) && r->mmio->read32) {
		*val = r->mmio->read32(r, off);
		mock = true;
	} else if (r && size == sizeof(u64) && r->mmio->read64) {
		*val = r->mmio->read64(r, off);
		mock = true;
	}
	spin_unlock(&nfit_test_res_lock);
	count_call(size == sizeof(u32) ? NT_WRAP_IOREAD32 :
		   NT_WRAP_IOREAD64_LO_HI, mock);
	return mock;
}

/**
 * __wrap_ioread32 - ioread32() of the test build
 * @addr: register
 *
 * Return: what the mock device answers for a mock register, else
 * ioread32()'s value.
 */
unsigned int __wrap_ioread32(const void __iomem *addr)
{
	u64 val;

	if (nfit_test_mmio_read(addr, sizeof(u32), &val))
		return val;
	return ioread32(addr);
}
EXPORT_SYMBOL_GPL(__wrap_ioread32);

/**
 * __wrap_ioread64_lo_hi - ioread64_lo_hi() of the test build
 * @addr: register
 *
 * Return: what the mock device answers for a mock register, else
 * ioread64_lo_hi()'s value.
 */
u64 __wrap_ioread64_lo_hi(const void __iomem *addr)
{
	u64 val;

	if (nfit_test_mmio_read(addr, sizeof(u64), &val))
		return val;
	return ioread64_lo_hi(addr);
}
EXPORT_SYMBOL_GPL(__wrap_ioread64_lo_hi);

/**
 * __wrap_copy_mc_to_kernel - copy_mc_to_kernel() of the test build
 * @to: destination (kernel memory)
 * @from: source, mock media or any other kernel memory
 * @len: bytes
 *
 * A source inside a mock media range (struct nfit_test_media_ops) is
 * copied up to its first poisoned byte, as a machine check on that line
 * stops the real copy; the mock memory itself holds the bytes last
 * written.  Any other source goes to copy_mc_to_kernel() unchanged.
 *
 * Return: the number of bytes not copied (0: all of them), the contract
 * of copy_mc_to_kernel().
 */
unsigned long __wrap_copy_mc_to_kernel(void *to, const void *from,
				       unsigned int len)
{
	u64 readable = len;
	struct nfit_test_res *r;
	bool mock = false;

	spin_lock(&nfit_test_res_lock);
	list_for_each_entry(r, &nfit_test_res_list, list) {
		u64 off;

		if (!r->media || from < r->virt || from >= r->virt + r->size)
			continue;
		off = from - r->virt;
		mock = true;
		/* a copy running past the range is refused from its end on */
		readable = r->media->readable(r, off,
					      min_t(u64, len, r->size - off));
		break;
	}
	spin_unlock(&nfit_test_res_lock);
	count_call(NT_WRAP_COPY_MC, mock);
	if (readable >= len)
		return copy_mc_to_kernel(to, from, len);
	return copy_mc_to_kernel(to, from, readable) + (len - readable);
}
EXPORT_SYMBOL_GPL(__wrap_copy_mc_to_kernel);

/**
 * __wrap_arch_invalidate_pmem - arch_invalidate_pmem() of the test build
 * @addr: first byte
 * @size: bytes
 *
 * Inside a mock range with cache callbacks, the range's owner learns
 * which bytes were invalidated (nfit_test's cached block-window
 * apertures show the device's bytes only from then on).  The real
 * function runs in every case.
 */
void __wrap_arch_invalidate_pmem(void *addr, size_t size)
{
	struct nfit_test_res *r;
	bool mock = false;

	spin_lock(&nfit_test_res_lock);
	list_for_each_entry(r, &nfit_test_res_list, list) {
		u64 off;

		if (!r->cache || addr < r->virt || addr >= r->virt + r->size)
			continue;
		off = addr - r->virt;
		r->cache->invalidate(r, off, min_t(u64, size, r->size - off));
		mock = true;
		break;
	}
	spin_unlock(&nfit_test_res_lock);
	count_call(NT_WRAP_INVALIDATE, mock);
	arch_invalidate_pmem(addr, size);
}
EXPORT_SYMBOL_GPL(__wrap_arch_invalidate_pmem);

static int nfit_test_calls_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < NT_WRAP_NR; i++)
		seq_printf(m, "%s mock %ld real %ld\n", nfit_test_wrapped_name[i],
			   atomic_long_read(&nfit_test_calls[i][0]),
			   atomic_long_read(&nfit_test_calls[i][1]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nfit_test_calls);

static int nfit_test_ranges_show(struct seq_file *m, void *unused)
{
	struct nfit_test_res *r;

	spin_lock(&nfit_test_res_lock);
	list_for_each_entry(r, &nfit_test_res_list, list)
		seq_printf(m, "%#llx-%#llx %s\n", (u64)r->start,
			   (u64)(r->start + r->size - 1), r->name);
	spin_unlock(&nfit_test_res_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nfit_test_ranges);

static int __init nfit_test_iomap_init(void)
{
	nfit_test_iomap_dir = debugfs_create_dir("nfit_test_iomap", NULL);
	debugfs_create_file("calls", 0444, nfit_test_iomap_dir, NULL,
			    &nfit_test_calls_fops);
	debugfs_create_file("ranges", 0444, nfit_test_iomap_dir, NULL,
			    &nfit_test_ranges_fops);
	return 0;
}

static void __exit nfit_test_iomap_exit(void)
{
	debugfs_remove_recursive(nfit_test_iomap_dir);
	/* nfit_test and every wrapped module are gone: nothing may be left */
	WARN_ON(!list_empty(&nfit_test_res_list));
	WARN_ON(nfit_test_iomem.child);
}

module_init(nfit_test_iomap_init);
module_exit(nfit_test_iomap_exit);
MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("nfit_test_iomap: mock-aware resource and mapping calls of the libnvdimm test build");
MODULE_AUTHOR("libnvdimm developers");
