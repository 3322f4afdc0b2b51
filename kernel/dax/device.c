// SPDX-License-Identifier: GPL-2.0
/*
 * device_dax: the character device of a device-dax instance.
 *
 * The kernel's DAX core (built into vmlinux) keeps the dax bus, its
 * instances (daxR.N, made by dax_pmem from a namespace or by dax_hmem)
 * and their sysfs attributes (size, align, resource, mapping, target_node,
 * ...).  This driver binds an instance (the bus's match-always driver,
 * named device_dax as daxctl expects) and turns it into /dev/daxR.N:
 *
 * - probe: claims the instance's physical ranges, gives them a
 *   ZONE_DEVICE memory map (MEMORY_DEVICE_GENERIC, compound pages of the
 *   instance's align), adds the character device on the core's dax
 *   inode and marks the dax device alive.  Unbinding undoes it in the
 *   reverse order through devm: the dax device dies first and every user
 *   mapping of it is zapped before the pages and ranges go away.
 * - mmap: shared mappings only, whose start and end are multiples of the
 *   instance's align; faults are served at exactly that size (a 4 KiB
 *   pte, a 2 MiB pmd or a 1 GiB pud of the range behind the file offset),
 *   a fault of any other size is refused (SIGBUS) or left to a smaller
 *   one; get_unmapped_area() places mappings so that huge faults line up.
 *
 * In the test build (LIBNVDIMM_TEST_BUILD, kernel/test/Kbuild.drivers) a
 * range of nfit_test's mock window is vmalloc'ed memory, not physically
 * contiguous: the claim and the memory map go to the mock (--wrap), and
 * faults there are served one 4 KiB page at a time (kernel/test/iomap.c
 * nfit_test_dax_page()), whatever the align, which the mapping still has
 * to respect.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/cdev.h>
#include <linux/dax.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/huge_mm.h>
#include <linux/memremap.h>
#include <linux/pagemap.h>
#include <linux/pfn_t.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include "dax-bus.h"

/*
 * The physical address of the @size bytes at page offset @pgoff of the
 * instance: false when they are not all inside one of its ranges.
 */
static bool ddax_phys(const struct dev_dax *dev_dax, pgoff_t pgoff,
		      unsigned long size, phys_addr_t *phys)
{
	int i;

	for (i = 0; i < dev_dax->nr_range; i++) {
		const struct dev_dax_range *r = &dev_dax->ranges[i];
		u64 npages = PHYS_PFN(range_len(&r->range));
		u64 rel;

		if (pgoff < r->pgoff || pgoff - r->pgoff >= npages)
			continue;
		rel = PFN_PHYS((u64)(pgoff - r->pgoff));
		if (size > range_len(&r->range) - rel)
			return false;
		*phys = r->range.start + rel;
		return true;
	}
	return false;
}

/*
 * Whether @vma may map the instance: the dax device alive, a shared
 * mapping, both ends on the instance's align, a DAX file.  Called under
 * dax_read_lock().
 */
static int ddax_check_vma(struct dev_dax *dev_dax, struct vm_area_struct *vma,
			  const char *what)
{
	struct device *dev = &dev_dax->dev;
	unsigned long align = dev_dax->align;

	if (!dax_alive(dev_dax->dax_dev))
		return -ENXIO;
	if (!(vma->vm_flags & VM_MAYSHARE)) {
		dev_info_ratelimited(dev, "%s: %s: a private mapping is refused\n",
				     current->comm, what);
		return -EINVAL;
	}
	if (!IS_ALIGNED(vma->vm_start, align) || !IS_ALIGNED(vma->vm_end, align)) {
		dev_info_ratelimited(dev, "%s: %s: mapping [%#lx, %#lx) is not %#lx-aligned\n",
				     current->comm, what, vma->vm_start,
				     vma->vm_end, align);
		return -EINVAL;
	}
	if (!vma_is_dax(vma)) {
		dev_info_ratelimited(dev, "%s: %s: not a DAX file mapping\n",
				     current->comm, what);
		return -EINVAL;
	}
	return 0;
}

/*
 * Memory failure finds the users of a device page through its mapping
 * and index (the head page's, for the compound pages of a large align).
 */
static void ddax_note_pages(struct vm_fault *vmf, unsigned long pfn,
			    unsigned long size, pgoff_t pgoff)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	unsigned long i, step;

	for (i = 0; i < size >> PAGE_SHIFT; i += step) {
		struct page *page = pfn_to_page(pfn + i);
		struct page *head = compound_head(page);

		step = compound_nr(head) - (page - head);
		if (head->mapping)
			continue;
		head->mapping = mapping;
		head->index = pgoff + i;
	}
}

/* the size a fault of @pe maps */
static unsigned long ddax_fault_bytes(enum page_entry_size pe)
{
	switch (pe) {
	case PE_SIZE_PTE:
		return PAGE_SIZE;
	case PE_SIZE_PMD:
		return PMD_SIZE;
	case PE_SIZE_PUD:
		return IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD) ?
			PUD_SIZE : 0;
	}
	return 0;
}

#ifdef LIBNVDIMM_TEST_BUILD
/* kernel/test/iomap.c: 1 for a page of nfit_test's mock, 0 for real memory */
int nfit_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn);

/*
 * A page of nfit_test's mock (test build): the one page behind the
 * faulting address, for a fault of any size the mapping's align allows.
 * Return: 0 when @vmf is not on the mock, else the fault's result.
 */
static vm_fault_t ddax_fault_mock(struct dev_dax *dev_dax, struct vm_fault *vmf,
				  enum page_entry_size pe)
{
	unsigned long addr = vmf->address & PAGE_MASK;
	phys_addr_t phys;
	pfn_t pfn;
	int rc;

	if (!ddax_phys(dev_dax, linear_page_index(vmf->vma, addr), PAGE_SIZE,
		       &phys))
		return 0;	/* past the end: the common path refuses it */
	rc = nfit_test_dax_page(phys, PFN_DEV | PFN_MAP, &pfn);
	if (rc == 0)
		return 0;
	if (rc < 0)
		return VM_FAULT_SIGBUS;
	if (pe != PE_SIZE_PTE)
		return VM_FAULT_FALLBACK;
	return vmf_insert_mixed(vmf->vma, addr, pfn);
}

#else
static vm_fault_t ddax_fault_mock(struct dev_dax *dev_dax, struct vm_fault *vmf,
				  enum page_entry_size pe)
{
	return 0;
}
#endif

static vm_fault_t ddax_fault_locked(struct dev_dax *dev_dax, struct vm_fault *vmf,
				    enum page_entry_size pe)
{
	struct vm_area_struct *vma = vmf->vma;
	unsigned long size = ddax_fault_bytes(pe);
	bool write = vmf->flags & FAULT_FLAG_WRITE;
	unsigned long addr;
	phys_addr_t phys;
	vm_fault_t ret;
	pgoff_t pgoff;
	pfn_t pfn;

	if (ddax_check_vma(dev_dax, vma, "fault"))
		return VM_FAULT_SIGBUS;
	ret = ddax_fault_mock(dev_dax, vmf, pe);
	if (ret)
		return ret;
	/* a size the arch cannot map, or larger than the align: go smaller */
	if (!size || size > dev_dax->align)
		return VM_FAULT_FALLBACK;
	/* smaller than the align: the device is mapped in align units only */
	if (size < dev_dax->align) {
		dev_dbg(&dev_dax->dev, "%#lx fault refused, align %#x\n",
			size, dev_dax->align);
		return VM_FAULT_SIGBUS;
	}
	addr = ALIGN_DOWN(vmf->address, size);
	if (addr < vma->vm_start || vma->vm_end - addr < size)
		return VM_FAULT_SIGBUS;
	pgoff = linear_page_index(vma, addr);
	if (!ddax_phys(dev_dax, pgoff, size, &phys)) {
		dev_dbg(&dev_dax->dev, "%#lx bytes at page offset %#lx: past the end\n",
			size, pgoff);
		return VM_FAULT_SIGBUS;
	}
	pfn = phys_to_pfn_t(phys, PFN_DEV | PFN_MAP);
	ddax_note_pages(vmf, pfn_t_to_pfn(pfn), size, pgoff);
	switch (pe) {
	case PE_SIZE_PMD:
		return vmf_insert_pfn_pmd(vmf, pfn, write);
	case PE_SIZE_PUD:
		if (IS_ENABLED(CONFIG_HAVE_ARCH_TRANSPARENT_HUGEPAGE_PUD))
			return vmf_insert_pfn_pud(vmf, pfn, write);
		return VM_FAULT_FALLBACK;
	default:
		return vmf_insert_mixed(vma, addr, pfn);
	}
}

static vm_fault_t ddax_huge_fault(struct vm_fault *vmf, enum page_entry_size pe)
{
	struct dev_dax *dev_dax = vmf->vma->vm_file->private_data;
	vm_fault_t ret;
	int id;

	/* the dax device stays alive (or its mappings are zapped) meanwhile */
	id = dax_read_lock();
	ret = ddax_fault_locked(dev_dax, vmf, pe);
	dax_read_unlock(id);
	return ret;
}

static vm_fault_t ddax_fault(struct vm_fault *vmf)
{
	return ddax_huge_fault(vmf, PE_SIZE_PTE);
}

/* munmap()/mprotect() may cut a mapping on an align boundary only */
static int ddax_may_split(struct vm_area_struct *vma, unsigned long addr)
{
	struct dev_dax *dev_dax = vma->vm_file->private_data;

	return IS_ALIGNED(addr, dev_dax->align) ? 0 : -EINVAL;
}

static unsigned long ddax_pagesize(struct vm_area_struct *vma)
{
	struct dev_dax *dev_dax = vma->vm_file->private_data;

	return dev_dax->align;
}

static const struct vm_operations_struct ddax_vm_ops = {
	.fault = ddax_fault,
	.huge_fault = ddax_huge_fault,
	.may_split = ddax_may_split,
	.pagesize = ddax_pagesize,
};

static int ddax_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct dev_dax *dev_dax = filp->private_data;
	int rc, id;

	/* checked again at every fault: the device may die in between */
	id = dax_read_lock();
	rc = ddax_check_vma(dev_dax, vma, "mmap");
	dax_read_unlock(id);
	if (rc)
		return rc;
	vma->vm_ops = &ddax_vm_ops;
	vma->vm_flags |= VM_HUGEPAGE;
	return 0;
}

/*
 * An address for a mapping of @len bytes at @pgoff that is congruent to
 * the file offset modulo the align, so that huge faults line up: the
 * mm's own choice for @len plus one align, moved up to the congruent
 * address.  A fixed or hinted address, or a mapping smaller than the
 * align, gets the mm's choice unchanged.
 */
static unsigned long ddax_get_unmapped_area(struct file *filp,
					    unsigned long addr,
					    unsigned long len,
					    unsigned long pgoff,
					    unsigned long flags)
{
	struct dev_dax *dev_dax = filp ? filp->private_data : NULL;
	unsigned long align, padded, base;

	if (!dev_dax || addr || (flags & MAP_FIXED))
		goto plain;
	align = dev_dax->align;
	if (align <= PAGE_SIZE || len < align ||
	    check_add_overflow(len, align, &padded))
		goto plain;
	base = current->mm->get_unmapped_area(filp, 0, padded, pgoff, flags);
	if (IS_ERR_VALUE(base))
		goto plain;
	return base + (((pgoff << PAGE_SHIFT) - base) & (align - 1));
plain:
	return current->mm->get_unmapped_area(filp, addr, len, pgoff, flags);
}

static const struct address_space_operations ddax_aops = {
	.dirty_folio = noop_dirty_folio,
};

/*
 * Every character device inode of the instance (devtmpfs', a mknod's)
 * maps through the dax inode's address space, so that killing the
 * instance zaps all of its user mappings; the dax inode is S_DAX, which
 * makes the mappings DAX ones (vma_is_dax()).
 */
static int ddax_open(struct inode *inode, struct file *filp)
{
	struct dax_device *dax_dev = inode_dax(inode);
	struct address_space *shared = &dax_inode(dax_dev)->i_data;
	struct dev_dax *dev_dax = dax_get_private(dax_dev);

	dev_dbg(&dev_dax->dev, "open by %s\n", current->comm);
	/* no page cache: nothing to write back when a pte is dirtied */
	shared->a_ops = &ddax_aops;
	inode->i_mapping = shared;
	inode_set_flags(inode, S_DAX, S_DAX);
	filp->f_mapping = shared;
	/* the error cursor of the mapping the file now uses */
	filp->f_wb_err = filemap_sample_wb_err(shared);
	filp->private_data = dev_dax;
	return 0;
}

static const struct file_operations ddax_fops = {
	.owner = THIS_MODULE,
	.llseek = noop_llseek,
	.open = ddax_open,
	.mmap = ddax_mmap,
	.get_unmapped_area = ddax_get_unmapped_area,
	.mmap_supported_flags = MAP_SYNC,
};

static void ddax_kill(void *dev_dax)
{
	kill_dev_dax(dev_dax);
}

static void ddax_cdev_del(void *cdev)
{
	cdev_del(cdev);
}

/* a dynamic instance's page map is devm memory of this binding only */
static void ddax_forget_pgmap(void *dev_dax)
{
	((struct dev_dax *)dev_dax)->pgmap = NULL;
}

/*
 * The page map of the instance: the one its maker gave a static
 * instance (dax_pmem: the namespace's, with its altmap), or a new one
 * over the instance's ranges.
 */
static struct dev_pagemap *ddax_pgmap(struct dev_dax *dev_dax)
{
	struct device *dev = &dev_dax->dev;
	struct dev_pagemap *pgmap;
	int i, rc;

	if (static_dev_dax(dev_dax)) {
		if (dev_dax->nr_range != 1 || !dev_dax->pgmap) {
			dev_warn(dev, "static instance with %d ranges%s\n",
				 dev_dax->nr_range,
				 dev_dax->pgmap ? "" : " and no page map");
			return ERR_PTR(-EINVAL);
		}
		return dev_dax->pgmap;
	}
	if (dev_dax->pgmap) {
		dev_warn(dev, "dynamic instance with a page map already\n");
		return ERR_PTR(-EINVAL);
	}
	pgmap = devm_kzalloc(dev, struct_size(pgmap, ranges, dev_dax->nr_range - 1),
			     GFP_KERNEL);
	if (!pgmap)
		return ERR_PTR(-ENOMEM);
	pgmap->nr_range = dev_dax->nr_range;
	for (i = 0; i < dev_dax->nr_range; i++)
		pgmap->ranges[i] = dev_dax->ranges[i].range;
	dev_dax->pgmap = pgmap;
	rc = devm_add_action_or_reset(dev, ddax_forget_pgmap, dev_dax);
	return rc ? ERR_PTR(rc) : pgmap;
}

static int ddax_probe(struct dev_dax *dev_dax)
{
	struct device *dev = &dev_dax->dev;
	struct inode *inode = dax_inode(dev_dax->dax_dev);
	struct cdev *cdev = inode->i_cdev;
	struct dev_pagemap *pgmap;
	void *addr;
	int i, rc;

	/*
	 * The character device lives in the dax inode: a file opened in a
	 * previous binding still holds it, and it cannot be set up again
	 * until that file is closed.
	 */
	if (cdev->kobj.state_initialized && kref_read(&cdev->kobj.kref)) {
		dev_err(dev, "a file of the previous binding is still open\n");
		return -EBUSY;
	}
	if (!dev_dax->nr_range || dev_dax->align < PAGE_SIZE ||
	    !is_power_of_2(dev_dax->align)) {
		dev_warn(dev, "%d ranges, align %#x: not mappable\n",
			 dev_dax->nr_range, dev_dax->align);
		return -EINVAL;
	}
	pgmap = ddax_pgmap(dev_dax);
	if (IS_ERR(pgmap))
		return PTR_ERR(pgmap);
	for (i = 0; i < dev_dax->nr_range; i++) {
		struct range *r = &dev_dax->ranges[i].range;

		if (!devm_request_mem_region(dev, r->start, range_len(r),
					     dev_name(dev))) {
			dev_warn(dev, "mapping%d [%#llx, %#llx] is busy\n",
				 i, r->start, r->end);
			return -EBUSY;
		}
	}
	pgmap->type = MEMORY_DEVICE_GENERIC;
	pgmap->vmemmap_shift = dev_dax->align > PAGE_SIZE ?
		order_base_2(dev_dax->align >> PAGE_SHIFT) : 0;
	addr = devm_memremap_pages(dev, pgmap);
	if (IS_ERR(addr)) {
		dev_err(dev, "no memory map for its ranges: %ld\n", PTR_ERR(addr));
		return PTR_ERR(addr);
	}

	cdev_init(cdev, &ddax_fops);
	cdev->owner = THIS_MODULE;
	cdev_set_parent(cdev, &dev->kobj);
	rc = cdev_add(cdev, dev->devt, 1);
	if (rc)
		return rc;
	rc = devm_add_action_or_reset(dev, ddax_cdev_del, cdev);
	if (rc)
		return rc;
	run_dax(dev_dax->dax_dev);
	/* unbinding kills the device before anything above is undone */
	return devm_add_action_or_reset(dev, ddax_kill, dev_dax);
}

static struct dax_device_driver device_dax_driver = {
	.probe = ddax_probe,
	.match_always = 1,
};

static int __init device_dax_init(void)
{
	return dax_driver_register(&device_dax_driver);
}

static void __exit device_dax_exit(void)
{
	dax_driver_unregister(&device_dax_driver);
}

module_init(device_dax_init);
module_exit(device_dax_exit);
MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("device_dax: the character devices of device-dax instances");
MODULE_AUTHOR("libnvdimm developers");
MODULE_ALIAS_DAX_DEVICE(0);
