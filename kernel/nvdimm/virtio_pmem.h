/* SPDX-License-Identifier: GPL-2.0 */
/*
 * virtio-pmem (virtio device 27): a range of guest-physical memory the
 * host backs with a file, and one request queue on which the guest asks
 * the host to make what it stored durable (the host syncs the file).
 * Shared by virtio_pmem.ko (the driver) and nd_virtio.ko (the flush).
 */
#ifndef __ND_VIRTIO_PMEM_H__
#define __ND_VIRTIO_PMEM_H__

#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/virtio.h>
#include <uapi/linux/virtio_pmem.h>
#include "libnvdimm.h"

/**
 * struct virtio_pmem - one virtio-pmem device
 * @vdev: the virtio device
 * @req_vq: its request queue
 * @lock: serialises @req_vq and @wait_ring
 * @wait_ring: requests waiting for a free descriptor (FIFO)
 * @start: guest-physical start of the range (device config)
 * @size: its length in bytes (device config)
 * @nd_desc: the bus descriptor
 * @nvdimm_bus: the bus registered for the device
 */
struct virtio_pmem {
	struct virtio_device *vdev;
	struct virtqueue *req_vq;
	spinlock_t lock; /* @req_vq and @wait_ring */
	struct list_head wait_ring;
	u64 start;
	u64 size;
	struct nvdimm_bus_descriptor nd_desc;
	struct nvdimm_bus *nvdimm_bus;
};

int virtio_pmem_flush(struct nd_region *nd_region);
void virtio_pmem_host_ack(struct virtqueue *vq);

#endif /* __ND_VIRTIO_PMEM_H__ */
