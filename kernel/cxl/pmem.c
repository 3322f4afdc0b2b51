// SPDX-License-Identifier: GPL-2.0
/*
 * cxl_pmem, the CXL side (kernel/cxl/cxl-nd.h): drivers for the three
 * device kinds the CXL core (built into Debian's 6.1) adds for persistent
 * memory, handing them to our libnvdimm (nd.c):
 *
 *   nvdimm-bridgeN (root of a CXL hierarchy)  -> an nd bus, provider "CXL"
 *   pmemN (below memN, a memory device)       -> a DIMM, nmemN, whose label
 *                                                area is the device's LSA
 *   pmem_regionN (below a committed regionN)  -> a PMEM region, regionN
 *
 * The bridge's nd bus comes and goes in a work item (the core flushes the
 * bridge's state_work when the bridge goes, and the nd bus must exist
 * before DIMMs and regions can bind: they are attached once it is).
 * Teardown, as 6.1: a region before the DIMMs it maps, the DIMMs before
 * the bus; a DIMM going first takes its regions with it.
 *
 * Lock order: a CXL device's lock (held by the driver core around probe
 * and remove), then its bridge's.  The bridge lock is dropped before a
 * driver is released from another device.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/ioport.h>
#include <linux/memory_hotplug.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/workqueue.h>
#include <linux/xarray.h>
#include "cxlmem.h"
#include "cxl.h"
#include "cxl-nd.h"

/* bridge state changes, in order (the core's CXL_NVB_* states) */
static struct workqueue_struct *cxl_nd_wq;

/* mailbox commands only the kernel may send while a DIMM is bound */
static DECLARE_BITMAP(cxl_nd_kernel_cmds, CXL_MEM_COMMAND_ID_MAX);

/* ------------------------------------------------------ label area --- */

static struct cxl_dev_state *cxl_nd_cxlds(void *cxl_nvd)
{
	return ((struct cxl_nvdimm *)cxl_nvd)->cxlmd->cxlds;
}

void cxl_nd_lsa_geometry(void *cxl_nvd, u32 *size, u32 *max_xfer)
{
	struct cxl_dev_state *cxlds = cxl_nd_cxlds(cxl_nvd);

	*size = cxlds->lsa_size;
	/* a Set LSA payload carries an 8-byte header before the data */
	*max_xfer = cxlds->payload_size - sizeof(struct cxl_mbox_set_lsa);
}

int cxl_nd_lsa_read(void *cxl_nvd, u32 offset, void *buf, u32 len)
{
	struct cxl_mbox_get_lsa in = {
		.offset = cpu_to_le32(offset),
		.length = cpu_to_le32(len),
	};

	/* the device checks the range against its LSA, as on 6.1 */
	return cxl_mbox_send_cmd(cxl_nd_cxlds(cxl_nvd), CXL_MBOX_OP_GET_LSA,
				 &in, sizeof(in), buf, len);
}

int cxl_nd_lsa_write(void *cxl_nvd, u32 offset, const void *buf, u32 len)
{
	struct cxl_mbox_set_lsa *in;
	size_t size = struct_size(in, data, len);
	int rc;

	in = kvzalloc(size, GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	in->offset = cpu_to_le32(offset);
	memcpy(in->data, buf, len);
	rc = cxl_mbox_send_cmd(cxl_nd_cxlds(cxl_nvd), CXL_MBOX_OP_SET_LSA, in,
			       size, NULL, 0);
	kvfree(in);
	return rc;
}

/* ---------------------------------------------------------- DIMMs --- */

static void cxl_nd_release_cmds(void *cxlds)
{
	clear_exclusive_cxl_commands(cxlds, cxl_nd_kernel_cmds);
}

/*
 * The DIMM goes (its memory device or the bridge goes, or cxl_pmem is
 * unbound from it): every region still mapping it is unbound first, then
 * the DIMM is deleted.  Unpublishing the DIMM (drvdata) under the bridge
 * lock keeps a region probe from picking it up meanwhile.
 */
static void cxl_nd_dimm_teardown(void *data)
{
	struct cxl_nvdimm *cxl_nvd = data;
	struct cxl_nvdimm_bridge *nvb = cxl_nvd->bridge;
	struct nvdimm *nvdimm = dev_get_drvdata(&cxl_nvd->dev);
	struct cxl_pmem_region *cxlr_pmem;
	unsigned long key = 0;

	device_lock(&nvb->dev);
	dev_set_drvdata(&cxl_nvd->dev, NULL);
	while ((cxlr_pmem = xa_find(&cxl_nvd->pmem_regions, &key, ULONG_MAX,
				    XA_PRESENT))) {
		get_device(&cxlr_pmem->dev);
		device_unlock(&nvb->dev);
		/* its unbind drops its entry (cxl_nd_region_unpin()) */
		device_release_driver(&cxlr_pmem->dev);
		put_device(&cxlr_pmem->dev);
		device_lock(&nvb->dev);
		key++;
	}
	device_unlock(&nvb->dev);

	cxl_nd_dimm_del(nvdimm);
	cxl_nvd->bridge = NULL;
}

static int cxl_nd_dimm_probe(struct device *dev)
{
	struct cxl_nvdimm *cxl_nvd = to_cxl_nvdimm(dev);
	struct cxl_dev_state *cxlds = cxl_nvd->cxlmd->cxlds;
	struct cxl_nvdimm_bridge *nvb;
	struct nvdimm *nvdimm;
	int rc;

	nvb = cxl_find_nvdimm_bridge(dev);
	if (!nvb)
		return -ENXIO;

	device_lock(&nvb->dev);
	if (!nvb->nvdimm_bus) {
		/* the bridge attaches it once the bus is there */
		rc = -ENXIO;
		goto out;
	}
	/* labels are the kernel's now: user space may not Set LSA behind it */
	set_exclusive_cxl_commands(cxlds, cxl_nd_kernel_cmds);
	rc = devm_add_action_or_reset(dev, cxl_nd_release_cmds, cxlds);
	if (rc)
		goto out;

	/* registered (and its labels read) before any region can use it */
	nvdimm = cxl_nd_dimm_add(nvb->nvdimm_bus, cxl_nvd);
	if (!nvdimm) {
		rc = -ENOMEM;
		goto out;
	}
	dev_set_drvdata(dev, nvdimm);
	cxl_nvd->bridge = nvb;
	rc = devm_add_action_or_reset(dev, cxl_nd_dimm_teardown, cxl_nvd);
out:
	device_unlock(&nvb->dev);
	put_device(&nvb->dev);
	return rc;
}

static struct cxl_driver cxl_nd_dimm_driver = {
	.name = "cxl_nvdimm",
	.probe = cxl_nd_dimm_probe,
	.id = CXL_DEVICE_NVDIMM,
};

/* --------------------------------------------------------- regions --- */

/* the region no longer pins the DIMMs it mapped (and they not it) */
static void cxl_nd_region_unpin(void *data)
{
	struct cxl_pmem_region *cxlr_pmem = data;
	struct cxl_nvdimm_bridge *nvb = cxlr_pmem->bridge;
	int i;

	device_lock(&nvb->dev);
	for (i = 0; i < cxlr_pmem->nr_mappings; i++) {
		struct cxl_pmem_region_mapping *m = &cxlr_pmem->mapping[i];

		if (!m->cxl_nvd)
			continue;
		if (xa_erase(&m->cxl_nvd->pmem_regions,
			     (unsigned long)cxlr_pmem))
			put_device(&cxlr_pmem->dev);
		m->cxl_nvd = NULL;
	}
	device_unlock(&nvb->dev);
}

static void cxl_nd_region_release_res(void *res)
{
	remove_resource(res);
}

static void cxl_nd_region_gone(void *nd_region)
{
	cxl_nd_region_del(nd_region);
}

static int cxl_nd_match_nvdimm(struct device *dev, void *unused)
{
	return is_cxl_nvdimm(dev);
}

/*
 * Pin the region in the DIMM of memory device @i (found under the bridge
 * lock) and describe its part; 0 or -ENODEV when the device has no bound
 * DIMM, or the xarray's errno.
 */
static int cxl_nd_region_map(struct device *dev,
			     struct cxl_pmem_region *cxlr_pmem, int i,
			     struct cxl_nd_mapping *out)
{
	struct cxl_pmem_region_mapping *m = &cxlr_pmem->mapping[i];
	struct cxl_nvdimm *cxl_nvd;
	struct nvdimm *nvdimm;
	struct device *d;
	int rc;

	d = device_find_child(&m->cxlmd->dev, NULL, cxl_nd_match_nvdimm);
	if (!d) {
		dev_dbg(dev, "mapping %d: %s has no nvdimm device\n", i,
			dev_name(&m->cxlmd->dev));
		return -ENODEV;
	}
	cxl_nvd = to_cxl_nvdimm(d);
	nvdimm = dev_get_drvdata(d);
	if (!nvdimm) {
		dev_dbg(dev, "mapping %d: %s is not bound to cxl_nvdimm\n", i,
			dev_name(d));
		rc = -ENODEV;
		goto out;
	}
	rc = xa_insert(&cxl_nvd->pmem_regions, (unsigned long)cxlr_pmem,
		       cxlr_pmem, GFP_KERNEL);
	if (rc)
		goto out;
	get_device(&cxlr_pmem->dev);
	m->cxl_nvd = cxl_nvd;
	*out = (struct cxl_nd_mapping) {
		.nvdimm = nvdimm,
		.dpa = m->start,
		.size = m->size,
		.serial = m->cxlmd->cxlds->serial,
	};
out:
	put_device(d);
	return rc;
}

static int cxl_nd_region_probe(struct device *dev)
{
	struct cxl_pmem_region *cxlr_pmem = to_cxl_pmem_region(dev);
	struct cxl_nvdimm_bridge *nvb;
	struct cxl_nd_mapping *map;
	struct cxl_nd_region r = {};
	struct resource *res;
	int rc, i;

	nvb = cxl_find_nvdimm_bridge(&cxlr_pmem->mapping[0].cxlmd->dev);
	if (!nvb) {
		dev_dbg(dev, "no nvdimm bridge above %s\n",
			dev_name(&cxlr_pmem->mapping[0].cxlmd->dev));
		return -ENXIO;
	}
	cxlr_pmem->bridge = nvb;
	map = kcalloc(cxlr_pmem->nr_mappings, sizeof(*map), GFP_KERNEL);
	if (!map) {
		put_device(&nvb->dev);
		return -ENOMEM;
	}

	device_lock(&nvb->dev);
	if (!nvb->nvdimm_bus) {
		dev_dbg(dev, "%s has no nd bus\n", dev_name(&nvb->dev));
		rc = -ENXIO;
		goto out;
	}

	res = devm_kzalloc(dev, sizeof(*res), GFP_KERNEL);
	if (!res) {
		rc = -ENOMEM;
		goto out;
	}
	res->name = "Persistent Memory";
	res->start = cxlr_pmem->hpa_range.start;
	res->end = cxlr_pmem->hpa_range.end;
	res->flags = IORESOURCE_MEM;
	res->desc = IORES_DESC_PERSISTENT_MEMORY;
	rc = insert_resource(&iomem_resource, res);
	if (rc) {
		dev_dbg(dev, "%pr: not inserted: %d\n", res, rc);
		goto out;
	}
	rc = devm_add_action_or_reset(dev, cxl_nd_region_release_res, res);
	if (rc)
		goto out;

	rc = devm_add_action_or_reset(dev, cxl_nd_region_unpin, cxlr_pmem);
	if (rc)
		goto out;
	for (i = 0; i < cxlr_pmem->nr_mappings; i++) {
		rc = cxl_nd_region_map(dev, cxlr_pmem, i, &map[i]);
		if (rc)
			goto out;
	}

	r.res = res;
	r.id = cxlr_pmem->cxlr->id;
	r.numa_node = memory_add_physaddr_to_nid(res->start);
	r.target_node = phys_to_target_node(res->start);
	if (r.target_node == NUMA_NO_NODE)
		r.target_node = r.numa_node;
	r.provider_data = cxlr_pmem;
	r.nr = cxlr_pmem->nr_mappings;
	r.map = map;
	cxlr_pmem->nd_region = cxl_nd_region_add(nvb->nvdimm_bus, &r);
	if (!cxlr_pmem->nd_region) {
		rc = -ENOMEM;
		goto out;
	}
	rc = devm_add_action_or_reset(dev, cxl_nd_region_gone,
				      cxlr_pmem->nd_region);
out:
	device_unlock(&nvb->dev);
	put_device(&nvb->dev);
	kfree(map);
	return rc;
}

static struct cxl_driver cxl_nd_region_driver = {
	.name = "cxl_pmem_region",
	.probe = cxl_nd_region_probe,
	.id = CXL_DEVICE_PMEM_REGION,
};

/* --------------------------------------------------------- bridges --- */

static int cxl_nd_unbind_region(struct device *dev, void *nvb)
{
	if (is_cxl_pmem_region(dev) && to_cxl_pmem_region(dev)->bridge == nvb)
		device_release_driver(dev);
	return 0;
}

static int cxl_nd_unbind_dimm(struct device *dev, void *nvb)
{
	if (is_cxl_nvdimm(dev) && to_cxl_nvdimm(dev)->bridge == nvb)
		device_release_driver(dev);
	return 0;
}

static int cxl_nd_attach_dimm(struct device *dev, void *unused)
{
	if (is_cxl_nvdimm(dev) && device_attach(dev) < 0)
		dev_dbg(dev, "not attached\n");
	return 0;
}

static int cxl_nd_attach_region(struct device *dev, void *unused)
{
	if (is_cxl_pmem_region(dev) && device_attach(dev) < 0)
		dev_dbg(dev, "not attached\n");
	return 0;
}

/*
 * The bridge's state changed (probe: ONLINE; remove: OFFLINE; the core
 * going: DEAD): bring its nd bus in line.  Online: the bus is registered
 * and the DIMMs and regions waiting for it are attached.  Offline or
 * dead: regions, then DIMMs are unbound, then the bus is unregistered.
 * Runs on cxl_nd_wq with a reference on the bridge.
 */
static void cxl_nd_bridge_work(struct work_struct *work)
{
	struct cxl_nvdimm_bridge *nvb =
		container_of(work, struct cxl_nvdimm_bridge, state_work);
	struct nvdimm_bus *gone = NULL;
	bool online = false, failed = false;

	device_lock(&nvb->dev);
	if (nvb->state == CXL_NVB_ONLINE) {
		if (!nvb->nvdimm_bus)
			nvb->nvdimm_bus = cxl_nd_bus_add(&nvb->dev);
		online = !!nvb->nvdimm_bus;
		failed = !online;
	} else if (nvb->state == CXL_NVB_OFFLINE ||
		   nvb->state == CXL_NVB_DEAD) {
		gone = nvb->nvdimm_bus;
		nvb->nvdimm_bus = NULL;
	}
	device_unlock(&nvb->dev);

	if (failed) {
		dev_err(&nvb->dev, "failed to establish nvdimm bus\n");
		device_release_driver(&nvb->dev);
	}
	if (online) {
		/*
		 * DIMMs first, then the regions that map them.  Each device
		 * on its own: bus_rescan_devices() stops at the first probe
		 * that fails, which may be any other device of the CXL bus.
		 */
		bus_for_each_dev(&cxl_bus_type, NULL, NULL, cxl_nd_attach_dimm);
		bus_for_each_dev(&cxl_bus_type, NULL, NULL, cxl_nd_attach_region);
		dev_dbg(&nvb->dev, "DIMMs and regions attached\n");
	}
	if (gone) {
		bus_for_each_dev(&cxl_bus_type, NULL, nvb, cxl_nd_unbind_region);
		bus_for_each_dev(&cxl_bus_type, NULL, nvb, cxl_nd_unbind_dimm);
		cxl_nd_bus_del(gone);
	}
	put_device(&nvb->dev);
}

/* queue the state work; the reference is the work's (dropped if queued) */
static void cxl_nd_bridge_kick(struct cxl_nvdimm_bridge *nvb)
{
	get_device(&nvb->dev);
	if (!queue_work(cxl_nd_wq, &nvb->state_work))
		put_device(&nvb->dev);
}

static int cxl_nd_bridge_probe(struct device *dev)
{
	struct cxl_nvdimm_bridge *nvb = to_cxl_nvdimm_bridge(dev);

	if (nvb->state == CXL_NVB_DEAD)
		return -ENXIO;
	/* NEW: never bound, or bound to a cxl_pmem since unloaded */
	if (nvb->state == CXL_NVB_NEW)
		INIT_WORK(&nvb->state_work, cxl_nd_bridge_work);
	nvb->state = CXL_NVB_ONLINE;
	cxl_nd_bridge_kick(nvb);
	return 0;
}

static void cxl_nd_bridge_remove(struct device *dev)
{
	struct cxl_nvdimm_bridge *nvb = to_cxl_nvdimm_bridge(dev);

	if (nvb->state == CXL_NVB_ONLINE)
		nvb->state = CXL_NVB_OFFLINE;
	cxl_nd_bridge_kick(nvb);
}

static struct cxl_driver cxl_nd_bridge_driver = {
	.name = "cxl_nvdimm_bridge",
	.probe = cxl_nd_bridge_probe,
	.remove = cxl_nd_bridge_remove,
	.id = CXL_DEVICE_NVDIMM_BRIDGE,
};

/*
 * After the work queue is gone, no bridge may keep a state that makes the
 * core flush, or a later cxl_pmem reuse, a work item of this module.
 */
static int cxl_nd_bridge_forget(struct device *dev, void *unused)
{
	if (!is_cxl_nvdimm_bridge(dev))
		return 0;
	device_lock(dev);
	to_cxl_nvdimm_bridge(dev)->state = CXL_NVB_NEW;
	device_unlock(dev);
	return 0;
}

static void cxl_nd_wq_destroy(void)
{
	destroy_workqueue(cxl_nd_wq);
	bus_for_each_dev(&cxl_bus_type, NULL, NULL, cxl_nd_bridge_forget);
}

static int __init cxl_nd_init(void)
{
	int rc;

	set_bit(CXL_MEM_COMMAND_ID_SET_LSA, cxl_nd_kernel_cmds);
	set_bit(CXL_MEM_COMMAND_ID_SET_SHUTDOWN_STATE, cxl_nd_kernel_cmds);

	cxl_nd_wq = alloc_ordered_workqueue("cxl_pmem", 0);
	if (!cxl_nd_wq)
		return -ENOMEM;
	rc = cxl_driver_register(&cxl_nd_bridge_driver);
	if (rc)
		goto err_wq;
	rc = cxl_driver_register(&cxl_nd_dimm_driver);
	if (rc)
		goto err_bridge;
	rc = cxl_driver_register(&cxl_nd_region_driver);
	if (rc)
		goto err_dimm;
	return 0;

err_dimm:
	cxl_driver_unregister(&cxl_nd_dimm_driver);
err_bridge:
	cxl_driver_unregister(&cxl_nd_bridge_driver);
err_wq:
	cxl_nd_wq_destroy();
	return rc;
}

static void __exit cxl_nd_exit(void)
{
	cxl_driver_unregister(&cxl_nd_region_driver);
	cxl_driver_unregister(&cxl_nd_dimm_driver);
	cxl_driver_unregister(&cxl_nd_bridge_driver);
	cxl_nd_wq_destroy();
}

module_init(cxl_nd_init);
module_exit(cxl_nd_exit);
MODULE_IMPORT_NS(CXL);
MODULE_ALIAS_CXL(CXL_DEVICE_NVDIMM_BRIDGE);
MODULE_ALIAS_CXL(CXL_DEVICE_NVDIMM);
MODULE_ALIAS_CXL(CXL_DEVICE_PMEM_REGION);
MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("cxl_pmem: CXL persistent memory on libnvdimm");
MODULE_AUTHOR("libnvdimm developers");
