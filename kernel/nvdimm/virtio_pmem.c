// SPDX-License-Identifier: GPL-2.0
/*
 * virtio_pmem: the virtio driver of QEMU's (and cloud hypervisors')
 * virtio-pmem device: one nd bus and one PMEM region per device, over
 * the guest-physical range its configuration names.
 *
 * The range is host memory backed by a file: stores are durable only
 * after a flush request (nd_virtio.ko), so the region is ND_REGION_ASYNC
 * with that request as its flush hook.  DAX works on it, but is not
 * synchronous: MAP_SYNC is refused.  There are no DIMMs and no labels:
 * the region holds one io namespace covering the range.
 */
#include <linux/module.h>
#include <linux/numa.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/virtio_config.h>
#include "nd.h"
#include "virtio_pmem.h"

static int virtio_pmem_init_vq(struct virtio_pmem *vp)
{
	vp->req_vq = virtio_find_single_vq(vp->vdev, virtio_pmem_host_ack,
					   "flush_queue");
	if (IS_ERR(vp->req_vq))
		return PTR_ERR(vp->req_vq);
	spin_lock_init(&vp->lock);
	INIT_LIST_HEAD(&vp->wait_ring);
	return 0;
}

/* the configured range: non-empty, page aligned, not wrapping */
static int virtio_pmem_check_range(struct virtio_pmem *vp)
{
	struct device *dev = &vp->vdev->dev;
	u64 last;

	if (!vp->size) {
		dev_err(dev, "device memory at %#llx has size 0\n", vp->start);
		return -EINVAL;
	}
	if (!IS_ALIGNED(vp->start, PAGE_SIZE) ||
	    !IS_ALIGNED(vp->size, PAGE_SIZE)) {
		dev_err(dev, "device memory [%#llx, +%#llx) is not %lu-byte aligned\n",
			vp->start, vp->size, PAGE_SIZE);
		return -EINVAL;
	}
	if (check_add_overflow(vp->start, vp->size - 1, &last) ||
	    last > (u64)(phys_addr_t)-1) {
		dev_err(dev, "device memory [%#llx, +%#llx) wraps\n",
			vp->start, vp->size);
		return -EINVAL;
	}
	return 0;
}

static int virtio_pmem_probe(struct virtio_device *vdev)
{
	struct nd_region_desc ndr_desc = { };
	struct resource res = { };
	struct virtio_pmem *vp;
	int nid, rc;

	if (!vdev->config->get) {
		dev_err(&vdev->dev, "no configuration space\n");
		return -EINVAL;
	}
	vp = devm_kzalloc(&vdev->dev, sizeof(*vp), GFP_KERNEL);
	if (!vp)
		return -ENOMEM;
	vp->vdev = vdev;
	vdev->priv = vp;
	virtio_cread_le(vdev, struct virtio_pmem_config, start, &vp->start);
	virtio_cread_le(vdev, struct virtio_pmem_config, size, &vp->size);
	rc = virtio_pmem_check_range(vp);
	if (rc)
		return rc;
	rc = virtio_pmem_init_vq(vp);
	if (rc) {
		dev_err(&vdev->dev, "no request queue: %d\n", rc);
		return rc;
	}
	/* flushes may be asked for as soon as the region exists */
	virtio_device_ready(vdev);

	vp->nd_desc.provider_name = "virtio-pmem";
	vp->nd_desc.module = THIS_MODULE;
	vp->nvdimm_bus = nvdimm_bus_register(&vdev->dev, &vp->nd_desc);
	if (!vp->nvdimm_bus) {
		dev_err(&vdev->dev, "bus registration failed\n");
		rc = -ENXIO;
		goto out_vq;
	}

	res.start = vp->start;
	res.end = vp->start + vp->size - 1;
	res.name = "virtio_pmem";
	res.flags = IORESOURCE_MEM;
	nid = dev_to_node(&vdev->dev);
	ndr_desc.res = &res;
	ndr_desc.numa_node = nid;
	ndr_desc.target_node = phys_to_target_node(res.start);
	if (ndr_desc.target_node == NUMA_NO_NODE)
		ndr_desc.target_node = nid;
	ndr_desc.provider_data = vp;
	ndr_desc.flush = virtio_pmem_flush;
	set_bit(ND_REGION_PAGEMAP, &ndr_desc.flags);
	set_bit(ND_REGION_ASYNC, &ndr_desc.flags);
	if (!nvdimm_pmem_region_create(vp->nvdimm_bus, &ndr_desc)) {
		dev_err(&vdev->dev, "no region for %pr\n", &res);
		rc = -ENXIO;
		goto out_bus;
	}
	return 0;

out_bus:
	nvdimm_bus_unregister(vp->nvdimm_bus);
out_vq:
	virtio_reset_device(vdev);
	vdev->config->del_vqs(vdev);
	return rc;
}

static void virtio_pmem_remove(struct virtio_device *vdev)
{
	struct virtio_pmem *vp = vdev->priv;

	/* every namespace detached, so no flush is in flight any more */
	nvdimm_bus_unregister(vp->nvdimm_bus);
	virtio_reset_device(vdev);
	vdev->config->del_vqs(vdev);
}

static const struct virtio_device_id virtio_pmem_ids[] = {
	{ VIRTIO_ID_PMEM, VIRTIO_DEV_ANY_ID },
	{ },
};
MODULE_DEVICE_TABLE(virtio, virtio_pmem_ids);

static struct virtio_driver virtio_pmem_driver = {
	.driver.name = KBUILD_MODNAME,
	.driver.owner = THIS_MODULE,
	.id_table = virtio_pmem_ids,
	.probe = virtio_pmem_probe,
	.remove = virtio_pmem_remove,
};

module_virtio_driver(virtio_pmem_driver);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("virtio_pmem: virtio-pmem devices as nd PMEM regions");
MODULE_AUTHOR("libnvdimm developers");
