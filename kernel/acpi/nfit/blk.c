// SPDX-License-Identifier: GPL-2.0
/*
 * nfit.ko: BLK (block-window) access to a DIMM's media, the provider
 * side of a BLK region (struct nd_blk_ops).  The protocol, where each
 * fact comes from and how we depart from v4.2: docs/blk-aperture.md.
 *
 * A DIMM with block windows has, per window k, a 64-bit command
 * register and a 32-bit status register in a control-register range
 * (DCR), and an aperture in a block-data-window range (BDW).  One
 * transfer through window k:
 *
 *   1. write the command (DPA line, length in lines, direction) as one
 *      64-bit store; if the DIMM asks for it (LATCH), read it back;
 *   2. copy the data between the buffer and the aperture at offset
 *      DPA % 64 (non-temporal stores for writes, then nvdimm_flush());
 *   3. read the status; any defined error bit fails the transfer.
 *
 * nfit probe checks the geometry (table.c nfit_blk_geom()) and claims
 * the ranges; enable maps them and reads the DIMM's flags; do_io runs
 * under the core's lane lock and never sleeps.
 *
 * A read command that completes with an error status is an unreadable
 * range of media: where the DIMM also maps those lines 1-way into a
 * persistent-memory range of the bus, their system-physical bytes become
 * a bad range of the bus (as an ARS record or a machine check would make
 * them), so the PMEM region's and namespace's badblocks learn them.  That
 * takes sleeping locks: do_io queues the command's DPA range and a work
 * item reports it (nfit_blk_report_work()).
 */
#include <linux/device.h>
#include <linux/err.h>
#include <linux/io.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/ioport.h>
#include <linux/kernel.h>
#include <linux/math.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include "nfit.h"

/* failed reads one region queues before its work item reports them */
#define NFIT_BLK_MAX_REPORTS	16

/**
 * struct nfit_blk_reports - failed block-window reads of one BLK region,
 *	waiting to become bad ranges of the bus
 * @blk: the region's block windows
 * @work: nfit_blk_report_work(); flushed when the region is disabled
 * @lock: @nr, @dropped and @dpa/@len (taken under the lane lock)
 * @nr: queued failures
 * @dropped: failures that found the queue full since the last report
 * @dpa: first DPA of each failed command, line aligned
 * @len: its bytes (whole lines)
 */
struct nfit_blk_reports {
	struct nfit_blk *blk;
	struct work_struct work;
	spinlock_t lock; /* the queue below */
	unsigned int nr;
	unsigned int dropped;
	u64 dpa[NFIT_BLK_MAX_REPORTS];
	u32 len[NFIT_BLK_MAX_REPORTS];
};

/*
 * Report the failed read of DPA [@dpa, +@len) of @blk's DIMM: for each
 * persistent-memory range of the bus that the DIMM maps those DPAs into,
 * 1-way, their system-physical bytes become a bad range.  An interleaved
 * (n-way) map is logged only: which bytes of the range the lines are
 * depends on the interleave, and the other DIMMs' lines between them are
 * good.  Returns true when a bad range was added.
 */
static bool nfit_blk_report_one(struct nfit_blk *blk, u64 dpa, u64 len)
{
	struct acpi_nfit_desc *acpi_desc = blk->acpi_desc;
	struct nfit_mem *nfit_mem = blk->nfit_mem;
	struct device *dev = nvdimm_dev(nfit_mem->nvdimm);
	const struct acpi_nfit_memory_map *m;
	bool added = false;
	u64 end;

	if (check_add_overflow(dpa, len, &end))
		return false;
	nfit_for_each_usable(&acpi_desc->table, m, ACPI_NFIT_TYPE_MEMORY_MAP) {
		const struct acpi_nfit_system_address *spa;
		u64 m_end, s, e, off, addr;
		int rc;

		if (m->device_handle != nfit_mem->handle)
			continue;
		spa = nfit_spa_by_index(&acpi_desc->table, m->range_index);
		if (!spa || nfit_spa_kind(spa) != NFIT_SPA_PM ||
		    check_add_overflow(m->address, m->region_size, &m_end))
			continue;
		s = max(dpa, m->address);
		e = min(end, m_end);
		if (s >= e)
			continue;
		if (m->interleave_ways != 1 || m->interleave_index) {
			dev_info_ratelimited(dev, "BLK read error: DPA %#llx+%#llx is in the %u-way PMEM range %u: logged only\n",
					     s, e - s, m->interleave_ways,
					     spa->range_index);
			continue;
		}
		/* s - m->address < region_size: no underflow */
		if (check_add_overflow(m->region_offset, s - m->address, &off) ||
		    off >= spa->length || e - s > spa->length - off ||
		    check_add_overflow(spa->address, off, &addr)) {
			dev_dbg(dev, "BLK read error: DPA %#llx+%#llx: map to range %u out of bounds\n",
				s, e - s, spa->range_index);
			continue;
		}
		rc = nvdimm_bus_add_badrange(acpi_desc->nvdimm_bus, addr, e - s);
		if (rc) {
			dev_err_ratelimited(dev, "BLK read error: DPA %#llx+%#llx: bad range %#llx+%#llx of PMEM range %u not recorded: %d\n",
					    s, e - s, addr, e - s,
					    spa->range_index, rc);
			continue;
		}
		dev_info_ratelimited(dev, "BLK read error: DPA %#llx+%#llx is bad range %#llx+%#llx of PMEM range %u\n",
				     s, e - s, addr, e - s, spa->range_index);
		added = true;
	}
	return added;
}

static void nfit_blk_report_work(struct work_struct *work)
{
	struct nfit_blk_reports *rep = container_of(work, typeof(*rep), work);
	struct nfit_blk *blk = rep->blk;
	u64 dpa[NFIT_BLK_MAX_REPORTS];
	u32 len[NFIT_BLK_MAX_REPORTS];
	unsigned int nr, dropped, i;
	bool added = false;

	spin_lock(&rep->lock);
	nr = rep->nr;
	dropped = rep->dropped;
	memcpy(dpa, rep->dpa, nr * sizeof(dpa[0]));
	memcpy(len, rep->len, nr * sizeof(len[0]));
	rep->nr = 0;
	rep->dropped = 0;
	spin_unlock(&rep->lock);

	if (dropped)
		dev_warn_ratelimited(nvdimm_dev(blk->nfit_mem->nvdimm),
				     "BLK read errors: %u not checked for PMEM aliases (queue full)\n",
				     dropped);
	for (i = 0; i < nr; i++)
		added |= nfit_blk_report_one(blk, dpa[i], len[i]);
	if (added)
		nvdimm_bus_badrange_changed(blk->acpi_desc->nvdimm_bus);
}

/* Queue the failed read of DPA [@dpa, +@len) (under the lane lock). */
static void nfit_blk_report(struct nfit_blk *blk, u64 dpa, u32 len)
{
	struct nfit_blk_reports *rep = blk->reports;
	unsigned int i;

	spin_lock(&rep->lock);
	for (i = 0; i < rep->nr; i++)
		if (rep->dpa[i] == dpa && rep->len[i] == len)
			break;
	if (i < rep->nr) {
		/* already queued */
	} else if (rep->nr < NFIT_BLK_MAX_REPORTS) {
		rep->dpa[rep->nr] = dpa;
		rep->len[rep->nr] = len;
		rep->nr++;
	} else {
		rep->dropped++;
	}
	spin_unlock(&rep->lock);
	queue_work(system_wq, &rep->work);
}

/* the region's disable: what its reads queued is reported before it goes */
static void nfit_blk_reports_flush(void *data)
{
	struct nfit_blk_reports *rep = data;

	flush_work(&rep->work);
}

/**
 * struct nfit_blk_claim - one SPA range claimed for BLK access
 * @list: entry in acpi_desc->blk_claims
 * @range_index: the range
 * @rc: 0 when claimed, -EBUSY when someone else holds it
 */
struct nfit_blk_claim {
	struct list_head list;
	u16 range_index;
	int rc;
};

/*
 * Claim a control or block-data-window range once per bus, for the bus
 * device's lifetime.  Several BLK regions may share one range (DIMMs
 * interleaved in it, or packed side by side), so the claim cannot belong
 * to one region: a second request of the same range would fail.  Each
 * region maps the range itself at enable.  Called at nfit probe, before
 * the bus teardown action is registered, so devres releases the claims
 * after the regions are gone.
 */
static int nfit_blk_claim(struct acpi_nfit_desc *acpi_desc,
			  const struct acpi_nfit_system_address *spa,
			  const char *name)
{
	struct nfit_blk_claim *c;

	list_for_each_entry(c, &acpi_desc->blk_claims, list)
		if (c->range_index == spa->range_index)
			return c->rc;
	c = devm_kzalloc(acpi_desc->dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->range_index = spa->range_index;
	if (!devm_request_mem_region(acpi_desc->dev, spa->address, spa->length,
				     name)) {
		dev_err(acpi_desc->dev, "SPA range %u (%s) [%#llx, +%#llx): busy\n",
			spa->range_index, name, spa->address, spa->length);
		c->rc = -EBUSY;
	}
	list_add_tail(&c->list, &acpi_desc->blk_claims);
	return c->rc;
}

/**
 * nfit_blk_init - describe a DIMM's block windows for a BLK region
 * @acpi_desc: the bus
 * @nfit_mem: the DIMM
 * @memdev: its map into a block-data-window range
 *
 * Checks the windows' geometry against the table (nfit_blk_geom(): the
 * refusals are logged there, naming the DIMM) and claims the two ranges.
 *
 * Return: the region's provider_data (devm on the bus device), or an
 * ERR_PTR: -ENODEV when the DIMM has no block windows, -EINVAL when the
 * table describes them wrongly, -EBUSY or -ENOMEM.
 */
struct nfit_blk *nfit_blk_init(struct acpi_nfit_desc *acpi_desc,
			       struct nfit_mem *nfit_mem,
			       const struct acpi_nfit_memory_map *memdev)
{
	struct nfit_blk *blk;
	struct nfit_blk_geom g;
	u64 span;
	int rc;

	rc = nfit_blk_geom(&acpi_desc->table, memdev, &g, nfit_log,
			   acpi_desc->dev);
	if (rc)
		return ERR_PTR(rc);
	rc = nfit_blk_claim(acpi_desc, g.spa_dcr, "nfit BLK control registers");
	if (!rc)
		rc = nfit_blk_claim(acpi_desc, g.spa_bdw, "nfit BLK apertures");
	if (rc) {
		dev_err(acpi_desc->dev, "DIMM %#x: no BLK region: ranges unavailable: %d\n",
			nfit_mem->handle, rc);
		return ERR_PTR(rc);
	}
	blk = devm_kzalloc(acpi_desc->dev, sizeof(*blk), GFP_KERNEL);
	if (!blk)
		return ERR_PTR(-ENOMEM);
	blk->reports = devm_kzalloc(acpi_desc->dev, sizeof(*blk->reports),
				    GFP_KERNEL);
	if (!blk->reports)
		return ERR_PTR(-ENOMEM);
	blk->reports->blk = blk;
	INIT_WORK(&blk->reports->work, nfit_blk_report_work);
	spin_lock_init(&blk->reports->lock);
	blk->acpi_desc = acpi_desc;
	blk->nfit_mem = nfit_mem;
	blk->geom = g;
	blk->num_lanes = min_t(unsigned int, g.windows, ND_BLK_MAX_LANES);
	span = rounddown(g.win_size, NFIT_BLK_LINE);
	blk->span = min_t(u64, span, NFIT_BLK_CMD_MAX_LINES * NFIT_BLK_LINE);
	return blk;
}

/*
 * What a DIMM that does not report its flags gets.  v4.2 assumed LATCH
 * alone, with the aperture mapped write-combining; ours is mapped
 * write-back, so after a window moves the CPU may still hold the
 * previous DPA's lines: invalidate before each read (READ_FLUSH), as
 * the kernels that map it cached do.
 */
#define NFIT_BLK_FLAGS_DEFAULT	(NFIT_BLK_DCR_LATCH | NFIT_BLK_READ_FLUSH)

/*
 * The DIMM's block-window flags, read once per enable through the
 * provider's own command path.  A DIMM that does not implement the
 * command gets NFIT_BLK_FLAGS_DEFAULT; one that answers is believed.
 */
static int nfit_blk_get_flags(struct nfit_blk *blk, struct device *dev)
{
	struct nvdimm_bus_descriptor *nd_desc = &blk->acpi_desc->nd_desc;
	struct nfit_mem *nfit_mem = blk->nfit_mem;
	struct nd_cmd_dimm_flags flags = {};
	int rc, cmd_rc = 0;

	blk->dimm_flags = NFIT_BLK_FLAGS_DEFAULT;
	if (nfit_mem->family == NFIT_FAMILY_NONE ||
	    !test_bit(ND_CMD_DIMM_FLAGS, &nfit_mem->dsm_mask)) {
		dev_dbg(dev, "DIMM %#x: no flags command, assuming LATCH|READ_FLUSH\n",
			nfit_mem->handle);
		return 0;
	}
	rc = nd_desc->ndctl(nd_desc, nfit_mem->nvdimm, ND_CMD_DIMM_FLAGS,
			    &flags, sizeof(flags), &cmd_rc);
	if (rc == -ENOTTY) {
		dev_dbg(dev, "DIMM %#x: flags command not supported, assuming LATCH|READ_FLUSH\n",
			nfit_mem->handle);
		return 0;
	}
	if (rc < 0) {
		dev_err(dev, "DIMM %#x (%s): cannot read the block-window flags: %d\n",
			nfit_mem->handle, nvdimm_name(nfit_mem->nvdimm), rc);
		return -ENXIO;
	}
	if (cmd_rc || flags.status) {
		dev_err(dev, "DIMM %#x (%s): cannot read the block-window flags: firmware status %#x\n",
			nfit_mem->handle, nvdimm_name(nfit_mem->nvdimm),
			flags.status);
		return -ENXIO;
	}
	if (rc) {
		dev_err(dev, "DIMM %#x (%s): cannot read the block-window flags: %d bytes of the answer missing\n",
			nfit_mem->handle, nvdimm_name(nfit_mem->nvdimm), rc);
		return -ENXIO;
	}
	blk->dimm_flags = flags.flags;
	dev_dbg(dev, "DIMM %#x: flags %#x\n", nfit_mem->handle, flags.flags);
	return 0;
}

static int nfit_blk_enable(struct nd_region *nd_region, struct device *dev)
{
	struct nfit_blk *blk = nd_region_provider_data(nd_region);
	const struct nfit_blk_geom *g = &blk->geom;
	struct nfit_mem *nfit_mem = blk->nfit_mem;
	struct nfit_blk_regs *regs;
	void __iomem *ctl;
	void *aperture;
	unsigned int k;
	int rc;

	/* what a previous enable mapped went with that region's disable */
	blk->regs = NULL;
	blk->aperture = NULL;
	ctl = devm_ioremap(dev, g->spa_dcr->address, g->spa_dcr->length);
	if (!ctl) {
		dev_err(dev, "DIMM %#x: cannot map control range %u [%#llx, +%#llx)\n",
			nfit_mem->handle, g->spa_dcr->range_index,
			g->spa_dcr->address, g->spa_dcr->length);
		return -ENXIO;
	}
	aperture = devm_memremap(dev, g->spa_bdw->address, g->spa_bdw->length,
				 MEMREMAP_WB);
	if (IS_ERR(aperture)) {
		dev_err(dev, "DIMM %#x: cannot map block-data-window range %u [%#llx, +%#llx): %ld\n",
			nfit_mem->handle, g->spa_bdw->range_index,
			g->spa_bdw->address, g->spa_bdw->length,
			PTR_ERR(aperture));
		return PTR_ERR(aperture);
	}
	regs = devm_kcalloc(dev, blk->num_lanes, sizeof(*regs), GFP_KERNEL);
	if (!regs)
		return -ENOMEM;
	/* nfit_blk_geom() checked every register of every window in range */
	for (k = 0; k < blk->num_lanes; k++) {
		u64 stride = k * g->ctl_stride;

		regs[k].cmd = ctl + nfit_ileave_xlate(&g->ctl,
						      g->cmd_offset + stride);
		regs[k].status = ctl + nfit_ileave_xlate(&g->ctl,
							 g->status_offset + stride);
	}
	rc = nfit_blk_get_flags(blk, dev);
	if (rc)
		return rc;
	rc = devm_add_action_or_reset(dev, nfit_blk_reports_flush,
				      blk->reports);
	if (rc)
		return rc;
	blk->regs = regs;
	blk->aperture = aperture;
	if (!nfit_mem->flush && !blk->adr_noted) {
		dev_info(dev, "DIMM %#x: no flush hint: persistence of BLK writes relies on the platform's ADR\n",
			 nfit_mem->handle);
		blk->adr_noted = true;
	}
	dev_dbg(dev, "DIMM %#x: %u windows of %#llx bytes, flags %#x\n",
		nfit_mem->handle, blk->num_lanes, g->win_size, blk->dimm_flags);
	return 0;
}

/* Move the bytes of one command between @buf and the aperture at @off. */
static void nfit_blk_copy(struct nfit_blk *blk, u64 off, void *buf, u32 n,
			  bool write)
{
	const struct nfit_ileave *il = &blk->geom.data;
	u32 done, run;

	for (done = 0; done < n; done += run) {
		void *p = blk->aperture + nfit_ileave_xlate(il, off + done);

		run = min_t(u64, n - done, nfit_ileave_run(il, off + done));
		if (write) {
			memcpy_flushcache(p, buf + done, run);
		} else {
			if (blk->dimm_flags & NFIT_BLK_READ_FLUSH)
				arch_invalidate_pmem(p, run);
			memcpy(buf + done, p, run);
		}
	}
}

/*
 * One command: @n bytes at @dpa, with dpa % 64 + n <= blk->span, so
 * the lines it touches fit the window and the 8-bit length field.
 */
static int nfit_blk_command(struct nd_region *nd_region, struct nfit_blk *blk,
			    unsigned int lane, u64 dpa, void *buf, u32 n,
			    bool write)
{
	const struct nfit_blk_geom *g = &blk->geom;
	const struct nfit_blk_regs *regs = &blk->regs[lane];
	u32 head = dpa % NFIT_BLK_LINE;
	u64 lines = DIV_ROUND_UP(head + n, NFIT_BLK_LINE);
	__le64 word;
	u32 status;

	word = cpu_to_le64(((dpa / NFIT_BLK_LINE) & NFIT_BLK_CMD_DPA) |
			   lines << NFIT_BLK_CMD_LEN_SHIFT |
			   (write ? NFIT_BLK_CMD_WRITE : 0));
	__iowrite64_copy(regs->cmd, &word, 1);
	/* the command reaches the DIMM before any data moves */
	wmb();
	if (blk->dimm_flags & NFIT_BLK_DCR_LATCH)
		ioread64_lo_hi(regs->cmd);

	nfit_blk_copy(blk, g->win_offset + lane * g->win_size + head, buf, n,
		      write);
	if (write)
		nvdimm_flush(nd_region);

	status = ioread32(regs->status) & NFIT_BLK_STATUS_MASK;
	if (!status)
		return 0;
	dev_err_ratelimited(nvdimm_dev(blk->nfit_mem->nvdimm),
			    "BLK %s of %u bytes at DPA %#llx (window %u): status %#x\n",
			    write ? "write" : "read", n, dpa, lane, status);
	/*
	 * The status names the command, not the line: every line it read
	 * is suspect.  Which bits mean a media error is not established, so
	 * any failed read counts (docs/blk-aperture.md "Media errors").
	 */
	if (!write)
		nfit_blk_report(blk, dpa - head, lines * NFIT_BLK_LINE);
	return -EIO;
}

static int nfit_blk_do_io(struct nd_region *nd_region, unsigned int lane,
			  u64 dpa, void *buf, size_t len, bool write)
{
	struct nfit_blk *blk = nd_region_provider_data(nd_region);
	int rc = 0;

	if (WARN_ON_ONCE(lane >= blk->num_lanes || !blk->regs))
		return -EIO;
	while (len && !rc) {
		u32 n = min_t(u64, len, blk->span - dpa % NFIT_BLK_LINE);

		rc = nfit_blk_command(nd_region, blk, lane, dpa, buf, n, write);
		dpa += n;
		buf += n;
		len -= n;
	}
	return rc;
}

const struct nd_blk_ops nfit_blk_ops = {
	.enable = nfit_blk_enable,
	.do_io = nfit_blk_do_io,
};
