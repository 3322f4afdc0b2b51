// SPDX-License-Identifier: GPL-2.0
/*
 * nd_e820: the "Persistent Memory (legacy)" ranges of the firmware's
 * memory map (e820 type 12), or of `memmap=SIZE!START` on the kernel
 * command line, as one nd bus with one PMEM region per range.
 *
 * The platform device "e820_pmem" is created by the kernel itself
 * (arch/x86/kernel/pmem.c) when such ranges exist.  There are no DIMMs
 * and no label areas behind them, so each region holds a single io
 * namespace covering the range.  The range is ordinary memory to the
 * kernel, so the region is ND_REGION_PAGEMAP: a raw namespace comes up
 * with struct pages (mode "memory", fsdax without a pfn device), as 6.1.
 */
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/ioport.h>
#include <linux/numa.h>
#include <linux/slab.h>
#include "nd.h"

/**
 * struct e820_pmem - the bus of the e820_pmem platform device
 * @nd_desc: its descriptor (referenced by the core while registered)
 * @nvdimm_bus: the registered bus
 * @nregions: regions created on it
 */
struct e820_pmem {
	struct nvdimm_bus_descriptor nd_desc;
	struct nvdimm_bus *nvdimm_bus;
	unsigned int nregions;
};

/* walk_iomem_res_desc() callback: @res is a copy of one legacy range */
static int e820_pmem_add_range(struct resource *res, void *data)
{
	struct e820_pmem *e820 = data;
	struct device *dev = to_nvdimm_bus_dev(e820->nvdimm_bus);
	struct nd_region_desc ndr_desc = { };
	int nid = phys_to_target_node(res->start);

	ndr_desc.res = res;
	/* the node the memory would be onlined in, and the nearest online */
	ndr_desc.target_node = nid;
	ndr_desc.numa_node = numa_map_to_online_node(nid);
	set_bit(ND_REGION_PAGEMAP, &ndr_desc.flags);
	/*
	 * A range the core refuses (not page aligned, say) is logged by it
	 * and left out; the other ranges still get their regions.
	 */
	if (!nvdimm_pmem_region_create(e820->nvdimm_bus, &ndr_desc)) {
		dev_err(dev, "legacy pmem %pr: no region\n", res);
		return 0;
	}
	e820->nregions++;
	return 0;
}

static int e820_pmem_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct e820_pmem *e820;

	e820 = devm_kzalloc(dev, sizeof(*e820), GFP_KERNEL);
	if (!e820)
		return -ENOMEM;
	e820->nd_desc.provider_name = "e820";
	e820->nd_desc.module = THIS_MODULE;
	e820->nvdimm_bus = nvdimm_bus_register(dev, &e820->nd_desc);
	if (!e820->nvdimm_bus)
		return -ENXIO;
	walk_iomem_res_desc(IORES_DESC_PERSISTENT_MEMORY_LEGACY,
			    IORESOURCE_MEM, 0, -1, e820, e820_pmem_add_range);
	if (!e820->nregions) {
		dev_err(dev, "no usable legacy persistent memory range\n");
		nvdimm_bus_unregister(e820->nvdimm_bus);
		return -ENXIO;
	}
	platform_set_drvdata(pdev, e820);
	return 0;
}

static int e820_pmem_remove(struct platform_device *pdev)
{
	struct e820_pmem *e820 = platform_get_drvdata(pdev);

	nvdimm_bus_unregister(e820->nvdimm_bus);
	return 0;
}

static struct platform_driver e820_pmem_driver = {
	.probe = e820_pmem_probe,
	.remove = e820_pmem_remove,
	.driver = {
		.name = "e820_pmem",
	},
};

module_platform_driver(e820_pmem_driver);

MODULE_ALIAS("platform:e820_pmem*");
MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nd_e820: legacy (e820 type 12, memmap=) persistent memory");
MODULE_AUTHOR("libnvdimm developers");
