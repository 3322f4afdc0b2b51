// SPDX-License-Identifier: GPL-2.0
/*
 * nd_virtio: the flush of a virtio-pmem region.  The guest's stores land
 * in the host's page cache of the backing file; they are durable only
 * once the host has synced the file, which it does when the guest puts a
 * flush request on the device's queue.  The request completes with the
 * host's status; a writer waiting on it (a REQ_PREFLUSH bio, a FUA
 * write, a BTT fence) gets an error when the host could not sync.
 *
 * Each request is {struct virtio_pmem_req (device-readable),
 * struct virtio_pmem_resp (device-writable)}.  When the ring is full the
 * request waits in struct virtio_pmem.wait_ring until an answer frees
 * descriptors.
 */
#include <linux/module.h>
#include <linux/completion.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include "virtio_pmem.h"

/**
 * struct virtio_pmem_request - one flush request
 * @req: what the host reads
 * @resp: what the host writes
 * @done: the host answered
 * @ring_free: woken (FIFO) when a descriptor may be free again
 * @wait: entry in struct virtio_pmem.wait_ring while waiting for one
 */
struct virtio_pmem_request {
	struct virtio_pmem_req req;
	struct virtio_pmem_resp resp;
	struct completion done;
	struct completion ring_free;
	struct list_head wait;
};

/**
 * virtio_pmem_host_ack - the request queue's callback: the host answered
 * @vq: the request queue
 *
 * Completes every answered request, and for each wakes the oldest
 * request waiting for ring space.  Interrupt context.
 */
void virtio_pmem_host_ack(struct virtqueue *vq)
{
	struct virtio_pmem *vp = vq->vdev->priv;
	struct virtio_pmem_request *r, *w;
	unsigned long flags;
	unsigned int len;

	spin_lock_irqsave(&vp->lock, flags);
	while ((r = virtqueue_get_buf(vq, &len)) != NULL) {
		/* the host wrote the status before it returned the buffer */
		if (len < sizeof(r->resp))
			r->resp.ret = cpu_to_le32(-EIO);
		complete(&r->done);
		w = list_first_entry_or_null(&vp->wait_ring,
					     struct virtio_pmem_request, wait);
		if (w) {
			list_del_init(&w->wait);
			complete(&w->ring_free);
		}
	}
	spin_unlock_irqrestore(&vp->lock, flags);
}
EXPORT_SYMBOL_GPL(virtio_pmem_host_ack);

/* queue @r and wait for the host's answer; 0 or a negative errno */
static int virtio_pmem_request(struct virtio_pmem *vp,
			       struct virtio_pmem_request *r)
{
	struct scatterlist out, in, *sgs[2] = { &out, &in };
	unsigned long flags;
	int rc;

	sg_init_one(&out, &r->req, sizeof(r->req));
	sg_init_one(&in, &r->resp, sizeof(r->resp));
	spin_lock_irqsave(&vp->lock, flags);
	/*
	 * Ring full: every descriptor belongs to a request in flight, whose
	 * answer wakes the oldest waiter.  A request arriving meanwhile may
	 * take the freed descriptors first; the waiter then waits again.
	 */
	while ((rc = virtqueue_add_sgs(vp->req_vq, sgs, 1, 1, r,
				       GFP_ATOMIC)) == -ENOSPC) {
		reinit_completion(&r->ring_free);
		list_add_tail(&r->wait, &vp->wait_ring);
		spin_unlock_irqrestore(&vp->lock, flags);
		wait_for_completion(&r->ring_free);
		spin_lock_irqsave(&vp->lock, flags);
	}
	if (rc) {
		spin_unlock_irqrestore(&vp->lock, flags);
		dev_err_ratelimited(&vp->vdev->dev, "flush request not queued: %d\n",
				    rc);
		return -EIO;
	}
	virtqueue_kick(vp->req_vq);
	spin_unlock_irqrestore(&vp->lock, flags);
	wait_for_completion(&r->done);
	return 0;
}

/**
 * virtio_pmem_flush - make a virtio-pmem region's stores durable
 * @nd_region: the region (its provider data is the struct virtio_pmem)
 *
 * Sends one flush request and waits for the host to have synced its
 * backing file.  Process context; sleeps.
 * Returns 0, -ENOMEM, or -EIO when the request could not be queued or
 * the host reported a failure (the stores may not be durable).
 */
int virtio_pmem_flush(struct nd_region *nd_region)
{
	struct virtio_pmem *vp = nd_region_provider_data(nd_region);
	struct virtio_pmem_request *r;
	u32 host_rc;
	int rc;

	might_sleep();
	r = kmalloc(sizeof(*r), GFP_KERNEL);
	if (!r)
		return -ENOMEM;
	r->req.type = cpu_to_le32(VIRTIO_PMEM_REQ_TYPE_FLUSH);
	r->resp.ret = cpu_to_le32(-EIO);
	init_completion(&r->done);
	init_completion(&r->ring_free);
	INIT_LIST_HEAD(&r->wait);
	rc = virtio_pmem_request(vp, r);
	host_rc = le32_to_cpu(r->resp.ret);
	if (!rc && host_rc) {
		dev_err_ratelimited(&vp->vdev->dev, "host failed to flush: status %d\n",
				    (int)host_rc);
		rc = -EIO;
	}
	kfree(r);
	return rc;
}
EXPORT_SYMBOL_GPL(virtio_pmem_flush);

MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nd_virtio: flush requests of virtio-pmem regions");
MODULE_AUTHOR("libnvdimm developers");
