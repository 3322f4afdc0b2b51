// SPDX-License-Identifier: GPL-2.0
/*
 * cxl_pmem, libnvdimm's side (kernel/cxl/cxl-nd.h): the nd bus of a CXL
 * hierarchy (provider "CXL"), a DIMM per memory device whose label
 * commands become Get/Set LSA mailbox commands (pmem.c), and a PMEM
 * region per committed CXL pmem region.
 */
#include <linux/module.h>
#include <linux/device.h>
#include <linux/errno.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <asm/unaligned.h>
#include "libnvdimm.h"
#include "cxl-nd.h"

/* GET_CONFIG_SIZE: the area's size and the largest piece per command */
static int cxl_nd_config_size(void *cxl_nvd, void *buf, unsigned int len)
{
	struct nd_cmd_get_config_size *cmd = buf;
	u32 size, max_xfer;

	if (len < sizeof(*cmd))
		return -EINVAL;
	cxl_nd_lsa_geometry(cxl_nvd, &size, &max_xfer);
	cmd->status = 0;
	cmd->config_size = size;
	cmd->max_xfer = max_xfer;
	return 0;
}

/* GET_CONFIG_DATA: in_length bytes from in_offset into out_buf */
static int cxl_nd_config_read(void *cxl_nvd, void *buf, unsigned int len)
{
	struct nd_cmd_get_config_data_hdr *cmd = buf;

	if (len < sizeof(*cmd) || len - sizeof(*cmd) < cmd->in_length)
		return -EINVAL;
	/* the device has no status of its own: the errno is the answer */
	cmd->status = 0;
	return cxl_nd_lsa_read(cxl_nvd, cmd->in_offset, cmd->out_buf,
			       cmd->in_length);
}

/* SET_CONFIG_DATA: in_buf to in_offset; a 4-byte status follows in_buf */
static int cxl_nd_config_write(void *cxl_nvd, void *buf, unsigned int len)
{
	struct nd_cmd_set_config_hdr *cmd = buf;
	size_t need;
	int rc;

	if (len < sizeof(*cmd))
		return -EINVAL;
	need = size_add(size_add(sizeof(*cmd), cmd->in_length), sizeof(u32));
	if (need > len)
		return -EINVAL;
	rc = cxl_nd_lsa_write(cxl_nvd, cmd->in_offset, cmd->in_buf,
			      cmd->in_length);
	put_unaligned(0, (u32 *)(cmd->in_buf + cmd->in_length));
	return rc;
}

static int cxl_nd_ctl(struct nvdimm_bus_descriptor *desc,
		      struct nvdimm *nvdimm, unsigned int cmd, void *buf,
		      unsigned int buf_len, int *cmd_rc)
{
	void *cxl_nvd;

	/* no firmware status to translate: the transport's errno stands */
	*cmd_rc = 0;
	if (!nvdimm)
		return -ENOTTY;	/* no bus commands */
	cxl_nvd = nvdimm_provider_data(nvdimm);
	switch (cmd) {
	case ND_CMD_GET_CONFIG_SIZE:
		return cxl_nd_config_size(cxl_nvd, buf, buf_len);
	case ND_CMD_GET_CONFIG_DATA:
		return cxl_nd_config_read(cxl_nvd, buf, buf_len);
	case ND_CMD_SET_CONFIG_DATA:
		return cxl_nd_config_write(cxl_nvd, buf, buf_len);
	}
	return -ENOTTY;
}

/* the same for every bridge; the core only reads it */
static struct nvdimm_bus_descriptor cxl_nd_desc = {
	.provider_name = "CXL",
	.module = THIS_MODULE,
	.ndctl = cxl_nd_ctl,
};

struct nvdimm_bus *cxl_nd_bus_add(struct device *parent)
{
	return nvdimm_bus_register(parent, &cxl_nd_desc);
}

void cxl_nd_bus_del(struct nvdimm_bus *bus)
{
	nvdimm_bus_unregister(bus);
}

struct nvdimm *cxl_nd_dimm_add(struct nvdimm_bus *bus, void *cxl_nvd)
{
	struct nvdimm_desc desc = {
		.provider_data = cxl_nvd,
		/* as 6.1: the label area decides, blank or not */
		.flags = BIT(NDD_LABEL_BACKED),
		.cmd_mask = BIT(ND_CMD_GET_CONFIG_SIZE) |
			    BIT(ND_CMD_GET_CONFIG_DATA) |
			    BIT(ND_CMD_SET_CONFIG_DATA),
	};

	return nvdimm_create(bus, &desc);
}

void cxl_nd_dimm_del(struct nvdimm *nvdimm)
{
	nvdimm_delete(nvdimm);
}

/* what 6.1 sums for the interleave-set cookie, per device */
struct cxl_nd_cookie_part {
	u64 dpa;
	u64 serial;
};

struct nd_region *cxl_nd_region_add(struct nvdimm_bus *bus,
				    const struct cxl_nd_region *r)
{
	struct cxl_nd_cookie_part *parts;
	struct nd_mapping_desc *maps;
	struct nd_interleave_set set = {};
	struct nd_region_desc desc = {};
	struct nd_region *nd_region = NULL;
	int i;

	maps = kcalloc(r->nr, sizeof(*maps), GFP_KERNEL);
	parts = kcalloc(r->nr, sizeof(*parts), GFP_KERNEL);
	if (!maps || !parts)
		goto out;
	for (i = 0; i < r->nr; i++) {
		maps[i].nvdimm = r->map[i].nvdimm;
		maps[i].start = r->map[i].dpa;
		maps[i].size = r->map[i].size;
		maps[i].position = i;
		parts[i].dpa = r->map[i].dpa;
		parts[i].serial = r->map[i].serial;
	}
	/*
	 * 6.1 has no CXL labels yet: EFI labels, whose cookie is the
	 * devices' DPAs and serial numbers, not the region's UUID, so that
	 * a region re-created after a power cycle finds its namespaces.
	 */
	set.cookie1 = nd_fletcher64(parts, r->nr * sizeof(*parts), false);
	set.cookie2 = set.cookie1;

	desc.res = r->res;
	desc.mapping = maps;
	desc.num_mappings = r->nr;
	desc.nd_set = &set;
	desc.provider_data = r->provider_data;
	desc.numa_node = r->numa_node;
	desc.target_node = r->target_node;
	desc.memregion = r->id;
	desc.flags = BIT(ND_REGION_CXL) | BIT(ND_REGION_PERSIST_MEMCTRL);
	nd_region = nvdimm_pmem_region_create(bus, &desc);
out:
	kfree(parts);
	kfree(maps);
	return nd_region;
}

void cxl_nd_region_del(struct nd_region *nd_region)
{
	nvdimm_region_delete(nd_region);
}
