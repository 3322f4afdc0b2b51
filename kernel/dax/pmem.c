// SPDX-License-Identifier: GPL-2.0
/*
 * dax_pmem: devdax.  Binds the dax devices (daxR.N) of the nd bus: makes
 * sure the claimed namespace carries a dax info block (nvdimm_setup_pfn()),
 * keeps the metadata part of the range, and hands the data part to the
 * kernel's device-dax core as a static dax region with one instance on
 * the dax bus, named after the namespace as 6.1 names it (namespaceR.N
 * gives daxR.N).  The device_dax driver (the stock one in production, the
 * test build's own, kernel/dax/device.c, over nfit_test) binds that
 * instance, makes the struct pages (in the namespace or in RAM, as the
 * info block says) and offers the character device /dev/daxR.N.
 *
 * The device-dax core keeps its region in the nd device's driver data
 * and its attributes (dax_region/) in the nd device's sysfs directory,
 * which is where ndctl and daxctl read them.  Everything is devm on the
 * nd device: unbinding it removes the instance first.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/memremap.h>
#include <linux/pfn_t.h>
#include "nd.h"
#include "dax-bus.h"

#ifdef LIBNVDIMM_TEST_BUILD
/*
 * The test build only (kernel/test/Kbuild.drivers defines it): a range of
 * nfit_test's mock window, vmalloc'ed memory that the test build's
 * device_dax serves page by page (kernel/test/iomap.c).
 */
int nfit_test_dax_page(phys_addr_t phys, u64 flags, pfn_t *pfn);

static bool dax_pmem_test_range(u64 start)
{
	return nfit_test_dax_page(start, 0, NULL) == 1;
}
#else
static bool dax_pmem_test_range(u64 start)
{
	return false;
}
#endif

static int dax_pmem_probe(struct device *dev)
{
	struct nd_pfn *nd_pfn = to_nd_pfn(dev);
	struct nd_region *nd_region = to_nd_region(dev->parent);
	struct dev_pagemap pgmap = { };
	struct dax_region *dax_region;
	struct dev_dax_data data;
	struct dev_dax *dev_dax;
	struct device *ndns;
	struct range range;
	int rc, region_id, id;
	u64 meta;

	if (!is_nd_dax(dev))
		return -ENODEV;
	ndns = nd_pfn->cd.ndns;
	if (ndns) {
		struct nd_namespace_io *nsio = to_nd_namespace_io(ndns);

		/*
		 * device_dax makes struct pages: a real memory range only,
		 * or (test build) nfit_test's mock memory
		 */
		if (!nvdimm_range_is_pmem(nd_region, nsio->res_start,
					  nsio->res_size) &&
		    !dax_pmem_test_range(nsio->res_start)) {
			dev_err(dev, "%s is not system persistent memory: no device-dax\n",
				dev_name(ndns));
			return -ENXIO;
		}
	}
	rc = nvdimm_setup_pfn(dev, &pgmap);
	if (rc)
		return rc;

	/* the info block and struct pages are ours; device_dax takes the rest */
	meta = nd_pfn->dataoff;
	if (!devm_request_mem_region(dev, pgmap.range.start, meta,
				     dev_name(ndns))) {
		dev_warn(dev, "could not reserve the metadata of %s\n",
			 dev_name(ndns));
		return -EBUSY;
	}
	/* 6.1 names the instance after the namespace: namespaceR.N -> daxR.N */
	if (sscanf(dev_name(ndns), "namespace%d.%d", &region_id, &id) != 2) {
		dev_err(dev, "%s: not a namespaceR.N name\n", dev_name(ndns));
		return -EINVAL;
	}
	/*
	 * The data: the mapped range behind dataoff, to its end (never the
	 * media's npfns; nvdimm_setup_pfn() checked that it fits).
	 */
	range = pgmap.range;
	range.start += meta;
	dax_region = alloc_dax_region(dev, region_id, &range,
				      nd_region_target_node(nd_region), nd_pfn->align,
				      IORESOURCE_DAX_STATIC);
	if (!dax_region) {
		dev_err(dev, "%s: no dax region for [%#llx, %#llx] align %lu\n",
			dev_name(ndns), range.start, range.end, nd_pfn->align);
		return -ENXIO;
	}
	data = (struct dev_dax_data) {
		.dax_region = dax_region,
		.pgmap = &pgmap,
		.size = range_len(&range),
		.id = id,
	};
	dev_dax = devm_create_dev_dax(&data);
	/* the instance holds the region from here on */
	dax_region_put(dax_region);
	if (IS_ERR(dev_dax)) {
		dev_err(dev, "%s: device-dax instance not created: %ld\n",
			dev_name(ndns), PTR_ERR(dev_dax));
		return PTR_ERR(dev_dax);
	}
	dev_dbg(dev, "%s: device-dax over [%#llx, %#llx], align %lu\n",
		dev_name(ndns), range.start, range.end, nd_pfn->align);
	return 0;
}

static struct nd_device_driver dax_pmem_driver = {
	.probe = dax_pmem_probe,
	.drv = {
		.name = "dax_pmem",
	},
	.type = ND_DRIVER_DAX_PMEM,
};

module_nd_driver(dax_pmem_driver);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("dax_pmem: device-dax over persistent memory namespaces");
MODULE_AUTHOR("libnvdimm developers");
MODULE_ALIAS_ND_DEVICE(ND_DEVICE_DAX_PMEM);
