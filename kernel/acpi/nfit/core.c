// SPDX-License-Identifier: GPL-2.0
/*
 * nfit.ko: binds the ACPI0012 NVDIMM root device, reads the NFIT, and
 * registers with libnvdimm one bus, a DIMM per NFIT device handle and a
 * PMEM region per persistent-memory SPA range.  DIMM commands are sent to
 * the DIMM's _DSM (Intel function set, as QEMU implements it).  The
 * nfit/ attributes: docs/ABI/testing/sysfs-bus-nfit.
 *
 * The table walk and every validation of the firmware's table live in
 * table.c (host-testable); this file only turns the validated table into
 * libnvdimm objects.
 */
#include <linux/module.h>
#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/ioport.h>
#include <linux/io.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/mm.h>
#include <linux/numa.h>
#include <linux/uuid.h>
#include <asm/unaligned.h>
#include "nfit.h"
#include "intel-security.h"

static guid_t nfit_root_guid;
static guid_t nfit_intel_guid;
static guid_t nfit_intel_bus_guid;

/* Sink of table.c's messages, which carry their own "NFIT: " prefix. */
void nfit_log(void *ctx, bool error, const char *fmt, ...)
{
	struct device *dev = ctx;
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	if (error)
		dev_warn(dev, "%pV", &vaf);
	else
		dev_dbg(dev, "%pV", &vaf);
	va_end(args);
}

/* bus attributes: ndbusN/nfit/ */

static ssize_t revision_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(to_nd_desc(nvdimm_bus));

	return sysfs_emit(buf, "%d\n", acpi_desc->table.revision);
}
static DEVICE_ATTR_RO(revision);

static ssize_t bus_dsm_mask_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(to_nd_desc(nvdimm_bus));

	return sysfs_emit(buf, "%#lx\n", acpi_desc->bus_dsm_mask);
}

/* "dsm_mask" exists for DIMMs too, hence the explicit initializer */
static struct device_attribute dev_attr_bus_dsm_mask = {
	.attr = { .name = "dsm_mask", .mode = 0444 },
	.show = bus_dsm_mask_show,
};

static struct attribute *acpi_nfit_bus_attributes[] = {
	&dev_attr_revision.attr,
	&dev_attr_bus_dsm_mask.attr,
	&dev_attr_scrub.attr,
	&dev_attr_hw_error_scrub.attr,
	&dev_attr_firmware_activate_noidle.attr,
	NULL,
};

static umode_t acpi_nfit_bus_visible(struct kobject *kobj, struct attribute *a,
				     int n)
{
	struct device *dev = kobj_to_dev(kobj);

	return nfit_ars_hidden(dev, a) || nfit_fw_hidden(dev, a) ? 0 : a->mode;
}

static const struct attribute_group acpi_nfit_bus_group = {
	.name = "nfit",
	.attrs = acpi_nfit_bus_attributes,
	.is_visible = acpi_nfit_bus_visible,
};

static const struct attribute_group *acpi_nfit_bus_groups[] = {
	&acpi_nfit_bus_group,
	NULL,
};

/* DIMM attributes: nmemN/nfit/ */

static struct nfit_mem *to_nfit_mem(struct device *dev)
{
	return nvdimm_provider_data(to_nvdimm(dev));
}

static ssize_t handle_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%#x\n", to_nfit_mem(dev)->handle);
}
static DEVICE_ATTR_RO(handle);

static ssize_t phys_id_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	return sysfs_emit(buf, "%#x\n", to_nfit_mem(dev)->phys_id);
}
static DEVICE_ATTR_RO(phys_id);

/*
 * The identification fields are printed as the 6.1 kernel prints them:
 * interpreted big-endian, i.e. byte-swapped against the little-endian
 * table, so that ndctl shows the same ids on both kernels.
 */
static u16 nfit_be16(u16 v)
{
	return swab16(le16_to_cpu((__force __le16)v));
}

static u32 nfit_be32(u32 v)
{
	return swab32(le32_to_cpu((__force __le32)v));
}

static ssize_t dcr_show16(struct device *dev, char *buf, size_t offset)
{
	const u8 *dcr = (const u8 *)to_nfit_mem(dev)->dcr;

	return sysfs_emit(buf, "0x%04x\n",
			  nfit_be16(get_unaligned((const u16 *)(dcr + offset))));
}

#define NFIT_DCR_ATTR16(name, field)					\
static ssize_t name##_show(struct device *dev,				\
			   struct device_attribute *attr, char *buf)	\
{									\
	return dcr_show16(dev, buf,					\
			  offsetof(struct acpi_nfit_control_region, field)); \
}									\
static DEVICE_ATTR_RO(name)

NFIT_DCR_ATTR16(vendor, vendor_id);
NFIT_DCR_ATTR16(device, device_id);
NFIT_DCR_ATTR16(rev_id, revision_id);
NFIT_DCR_ATTR16(subsystem_vendor, subsystem_vendor_id);
NFIT_DCR_ATTR16(subsystem_device, subsystem_device_id);
NFIT_DCR_ATTR16(subsystem_rev_id, subsystem_revision_id);

static ssize_t serial_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%08x\n",
			  nfit_be32(to_nfit_mem(dev)->dcr->serial_number));
}
static DEVICE_ATTR_RO(serial);

static ssize_t format_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "0x%04x\n",
			  le16_to_cpu((__force __le16)to_nfit_mem(dev)->dcr->code));
}
static DEVICE_ATTR_RO(format);

static ssize_t formats_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	/* one control region per DIMM is all this driver registers */
	return sysfs_emit(buf, "%d\n", 1);
}
static DEVICE_ATTR_RO(formats);

/* the DIMM's unique id: nfit/id, and the name of its key "nvdimm:<id>" */
static void nfit_mem_format_id(struct nfit_mem *nfit_mem)
{
	const struct acpi_nfit_control_region *dcr = nfit_mem->dcr;

	if (dcr->valid_fields & ACPI_NFIT_CONTROL_MFG_INFO_VALID)
		snprintf(nfit_mem->id, sizeof(nfit_mem->id),
			 "%04x-%02x-%04x-%08x", nfit_be16(dcr->vendor_id),
			 dcr->manufacturing_location,
			 nfit_be16(dcr->manufacturing_date),
			 nfit_be32(dcr->serial_number));
	else
		snprintf(nfit_mem->id, sizeof(nfit_mem->id), "%04x-%08x",
			 nfit_be16(dcr->vendor_id),
			 nfit_be32(dcr->serial_number));
}

static ssize_t id_show(struct device *dev, struct device_attribute *attr,
		       char *buf)
{
	return sysfs_emit(buf, "%s\n", to_nfit_mem(dev)->id);
}
static DEVICE_ATTR_RO(id);

static ssize_t flags_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	static const struct {
		u16 bit;
		const char *name;
	} names[] = {
		{ ACPI_NFIT_MEM_SAVE_FAILED, "save_fail" },
		{ ACPI_NFIT_MEM_RESTORE_FAILED, "restore_fail" },
		{ ACPI_NFIT_MEM_FLUSH_FAILED, "flush_fail" },
		{ ACPI_NFIT_MEM_NOT_ARMED, "not_armed" },
		{ ACPI_NFIT_MEM_HEALTH_OBSERVED, "smart_event" },
		{ ACPI_NFIT_MEM_MAP_FAILED, "map_fail" },
		{ ACPI_NFIT_MEM_HEALTH_ENABLED, "smart_notify" },
	};
	struct nfit_mem *nfit_mem = to_nfit_mem(dev);
	u16 flags = nfit_mem->mem_flags;
	ssize_t len = 0;
	int i;

	/* as 6.1: a DIMM whose last shutdown was unsafe failed to flush */
	if (nfit_mem->shutdown_dirty)
		flags |= ACPI_NFIT_MEM_FLUSH_FAILED;
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].bit)
			len += sysfs_emit_at(buf, len, "%s ", names[i].name);
	len += sysfs_emit_at(buf, len, "\n");
	return len;
}
static DEVICE_ATTR_RO(flags);

static ssize_t family_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	return sysfs_emit(buf, "%d\n", to_nfit_mem(dev)->family);
}
static DEVICE_ATTR_RO(family);

static ssize_t dsm_mask_show(struct device *dev, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%#lx\n", to_nfit_mem(dev)->dsm_mask);
}
static DEVICE_ATTR_RO(dsm_mask);

static struct attribute *acpi_nfit_dimm_attributes[] = {
	&dev_attr_handle.attr,
	&dev_attr_phys_id.attr,
	&dev_attr_vendor.attr,
	&dev_attr_device.attr,
	&dev_attr_rev_id.attr,
	&dev_attr_subsystem_vendor.attr,
	&dev_attr_subsystem_device.attr,
	&dev_attr_subsystem_rev_id.attr,
	&dev_attr_serial.attr,
	&dev_attr_format.attr,
	&dev_attr_formats.attr,
	&dev_attr_id.attr,
	&dev_attr_flags.attr,
	&dev_attr_family.attr,
	&dev_attr_dsm_mask.attr,
	&dev_attr_dirty_shutdown.attr,
	NULL,
};

static umode_t acpi_nfit_dimm_visible(struct kobject *kobj,
				      struct attribute *a, int n)
{
	struct nfit_mem *nfit_mem = to_nfit_mem(kobj_to_dev(kobj));

	if ((a == &dev_attr_family.attr || a == &dev_attr_dsm_mask.attr) &&
	    nfit_mem->family == NFIT_FAMILY_NONE)
		return 0;
	return nfit_smart_hidden(nfit_mem, a) ? 0 : a->mode;
}

static const struct attribute_group acpi_nfit_dimm_group = {
	.name = "nfit",
	.attrs = acpi_nfit_dimm_attributes,
	.is_visible = acpi_nfit_dimm_visible,
};

static const struct attribute_group *acpi_nfit_dimm_groups[] = {
	&acpi_nfit_dimm_group,
	NULL,
};

/* region attributes: regionN/nfit/ */

static ssize_t range_index_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	const struct acpi_nfit_system_address *spa =
		nd_region_provider_data(to_nd_region(dev));

	return sysfs_emit(buf, "%d\n", spa->range_index);
}
static DEVICE_ATTR_RO(range_index);

static struct attribute *acpi_nfit_region_attributes[] = {
	&dev_attr_range_index.attr,
	NULL,
};

static const struct attribute_group acpi_nfit_region_group = {
	.name = "nfit",
	.attrs = acpi_nfit_region_attributes,
};

static const struct attribute_group *acpi_nfit_region_groups[] = {
	&acpi_nfit_region_group,
	NULL,
};

/* a BLK region's range is the block-data-window range of its DIMM */
static ssize_t blk_range_index_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct nfit_blk *blk = nd_region_provider_data(to_nd_region(dev));

	return sysfs_emit(buf, "%d\n", blk->geom.spa_bdw->range_index);
}

static struct device_attribute dev_attr_blk_range_index = {
	.attr = { .name = "range_index", .mode = 0444 },
	.show = blk_range_index_show,
};

static struct attribute *acpi_nfit_blk_region_attributes[] = {
	&dev_attr_blk_range_index.attr,
	NULL,
};

static const struct attribute_group acpi_nfit_blk_region_group = {
	.name = "nfit",
	.attrs = acpi_nfit_blk_region_attributes,
};

static const struct attribute_group *acpi_nfit_blk_region_groups[] = {
	&acpi_nfit_blk_region_group,
	NULL,
};

/* commands */

/* Input bytes of a DIMM command; the rest of the envelope is output. */
static int nfit_dimm_cmd_in_len(unsigned int cmd, const void *buf,
				unsigned int buf_len)
{
	switch (cmd) {
	case ND_CMD_SMART:
	case ND_CMD_SMART_THRESHOLD:
	case ND_CMD_DIMM_FLAGS:
	case ND_CMD_GET_CONFIG_SIZE:
		return 0;
	case ND_CMD_GET_CONFIG_DATA:
		/* in_offset, in_length; the uapi header's status is output */
		return 2 * sizeof(u32);
	case ND_CMD_SET_CONFIG_DATA:
		return sizeof(struct nd_cmd_set_config_hdr) +
			get_unaligned((const u32 *)(buf + 4));
	default:
		return -ENOTTY;
	}
}

/* Input bytes of a bus command (root _DSM functions 1-4). */
static int nfit_bus_cmd_in_len(unsigned int cmd)
{
	switch (cmd) {
	case ND_CMD_ARS_CAP:
		return offsetof(struct nd_cmd_ars_cap, status);
	case ND_CMD_ARS_START:
		return offsetof(struct nd_cmd_ars_start, status);
	case ND_CMD_ARS_STATUS:
		return 0;
	case ND_CMD_CLEAR_ERROR:
		return offsetof(struct nd_cmd_clear_error, status);
	default:
		return -ENOTTY;
	}
}

/*
 * Evaluate _DSM function @func of @guid on @handle with @in_len bytes
 * at @in; the answer goes to @outp (@out_len bytes of room), its full
 * size to *@fw_len.  Returns the bytes of @outp left unfilled, or a
 * negative errno.
 */
static int nfit_dsm_eval(struct device *dev, acpi_handle handle,
			 const guid_t *guid, unsigned int func, void *in,
			 unsigned int in_len, void *outp, unsigned int out_len,
			 u32 *fw_len)
{
	union acpi_object in_obj, in_buf, *out;
	unsigned int copy;

	in_buf.type = ACPI_TYPE_BUFFER;
	in_buf.buffer.length = in_len;
	in_buf.buffer.pointer = in;
	in_obj.type = ACPI_TYPE_PACKAGE;
	in_obj.package.count = 1;
	in_obj.package.elements = &in_buf;

	out = acpi_evaluate_dsm(handle, guid, NFIT_DSM_REVISION, func, &in_obj);
	if (!out) {
		dev_dbg(dev, "_DSM function %u failed\n", func);
		return -ENXIO;
	}
	if (out->type != ACPI_TYPE_BUFFER) {
		dev_dbg(dev, "_DSM function %u returned type %d\n", func,
			out->type);
		ACPI_FREE(out);
		return -EINVAL;
	}
	copy = min(out_len, out->buffer.length);
	memcpy(outp, out->buffer.pointer, copy);
	if (out->buffer.length > out_len)
		dev_dbg(dev, "_DSM function %u: %u bytes truncated to %u\n",
			func, out->buffer.length, out_len);
	*fw_len = out->buffer.length;
	ACPI_FREE(out);
	return out_len - copy;
}

/*
 * Run @cmd through _DSM @guid of @handle: ND_CMD_CALL runs the package's
 * function (already vetted) on its payload, another command the function
 * of its number with the first @in_len bytes of @buf as input.  Returns
 * the output bytes left unfilled, or a negative errno.
 */
static int nfit_dsm_run(struct device *dev, acpi_handle handle,
			const guid_t *guid, unsigned int cmd, void *buf,
			unsigned int buf_len, int in_len)
{
	struct nd_cmd_pkg *pkg = cmd == ND_CMD_CALL ? buf : NULL;
	unsigned int func = cmd, out_len;
	void *in = buf;
	u32 fw_len;
	int rc;

	if (pkg) {
		func = pkg->nd_command;
		in = pkg->nd_payload;
		in_len = pkg->nd_size_in;
		out_len = pkg->nd_size_out;
	} else {
		if (in_len < 0)
			return in_len;
		if (in_len > buf_len)
			return -EINVAL;
		out_len = buf_len - in_len;
	}
	rc = nfit_dsm_eval(dev, handle, guid, func, in, in_len, in + in_len,
			   out_len, &fw_len);
	if (rc >= 0 && pkg)
		pkg->nd_fw_size = fw_len;
	return rc;
}

/*
 * Bus commands: ARS Cap/Start/Status and Clear Error are root _DSM
 * functions 1-4; ND_CMD_CALL passes a root function of the NFIT bus
 * family (the injection functions) the firmware reports.
 */
static int acpi_nfit_bus_ctl(struct acpi_nfit_desc *acpi_desc,
			     unsigned int cmd, void *buf,
			     unsigned int buf_len, int *cmd_rc)
{
	struct device *dev = acpi_desc->dev;
	const guid_t *guid = &nfit_root_guid;
	struct nd_cmd_pkg *pkg = buf;
	int rc;

	/* the kernel's own Intel bus-family calls need no cmd_call offer */
	if (!acpi_desc->adev || cmd >= BITS_PER_LONG ||
	    (!test_bit(cmd, &acpi_desc->nd_desc.cmd_mask) &&
	     !(cmd == ND_CMD_CALL && acpi_desc->bus_intel_dsm_mask))) {
		dev_dbg(dev, "bus command %u: not offered by this bus\n", cmd);
		return -ENOTTY;
	}
	if (cmd == ND_CMD_CALL) {
		if (buf_len < sizeof(*pkg) ||
		    (u64)pkg->nd_size_in + pkg->nd_size_out > buf_len - sizeof(*pkg))
			return -EINVAL;
		/* the Intel bus family: firmware activation (intel-firmware.c) */
		if (pkg->nd_family == NVDIMM_BUS_FAMILY_INTEL &&
		    pkg->nd_command < BITS_PER_LONG &&
		    test_bit(pkg->nd_command, &acpi_desc->bus_intel_dsm_mask))
			guid = &nfit_intel_bus_guid;
		else if (pkg->nd_family != NVDIMM_BUS_FAMILY_NFIT ||
			 pkg->nd_command >= BITS_PER_LONG ||
			 !test_bit(pkg->nd_command, &acpi_desc->bus_dsm_mask)) {
			dev_dbg(dev, "bus call %llu.%llu not offered\n",
				pkg->nd_family, pkg->nd_command);
			return -ENOTTY;
		}
	}
	rc = nfit_dsm_run(dev, acpi_desc->adev->handle, guid, cmd,
			  buf, buf_len, nfit_bus_cmd_in_len(cmd));
	if (rc >= 0 && cmd != ND_CMD_CALL)
		*cmd_rc = nfit_bus_cmd_rc(cmd, buf, buf_len - rc);
	return rc;
}

static int acpi_nfit_ctl(struct nvdimm_bus_descriptor *nd_desc,
			 struct nvdimm *nvdimm, unsigned int cmd, void *buf,
			 unsigned int buf_len, int *cmd_rc)
{
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(nd_desc);
	struct nd_cmd_pkg *pkg = buf;
	struct nfit_mem *nfit_mem;
	int in_len = 0, rc;

	*cmd_rc = 0;
	if (!nvdimm)
		return acpi_nfit_bus_ctl(acpi_desc, cmd, buf, buf_len, cmd_rc);
	nfit_mem = nvdimm_provider_data(nvdimm);
	if (!nfit_mem->adev || nfit_mem->family != NFIT_FAMILY_INTEL)
		return -ENOTTY;

	if (cmd == ND_CMD_CALL) {
		if (pkg->nd_family != NFIT_FAMILY_INTEL) {
			dev_dbg(nvdimm_dev(nvdimm), "call: family %llu not served\n",
				pkg->nd_family);
			return -EINVAL;
		}
		if (pkg->nd_command >= BITS_PER_LONG ||
		    !test_bit(pkg->nd_command, &nfit_mem->dsm_mask)) {
			dev_dbg(nvdimm_dev(nvdimm), "call: function %llu not offered\n",
				pkg->nd_command);
			return -ENOTTY;
		}
	} else {
		in_len = nfit_dimm_cmd_in_len(cmd, buf, buf_len);
	}
	rc = nfit_dsm_run(nvdimm_dev(nvdimm), nfit_mem->adev->handle,
			  &nfit_intel_guid, cmd, buf, buf_len, in_len);
	/*
	 * firmware status, first word of the output; a label size with the
	 * extended status "locked" is the DIMM's capacity locked (-EACCES:
	 * the size stands, the labels stay readable)
	 */
	if (rc >= 0 && cmd != ND_CMD_CALL && buf_len - in_len - rc >= 4) {
		u32 status = get_unaligned((u32 *)(buf + in_len));

		if (cmd == ND_CMD_GET_CONFIG_SIZE &&
		    (status >> 16) & ND_CONFIG_LOCKED)
			*cmd_rc = -EACCES;
		else if (status)
			*cmd_rc = -EIO;
	}
	return rc;
}

/* registration */

static struct nfit_mem *nfit_mem_find(struct acpi_nfit_desc *acpi_desc,
				      u32 handle)
{
	struct nfit_mem *nfit_mem;

	list_for_each_entry(nfit_mem, &acpi_desc->dimms, list)
		if (nfit_mem->handle == handle)
			return nfit_mem;
	return NULL;
}

/* The DIMM's _DSM functions; the Intel set when the firmware has one. */
static void nfit_mem_probe_dsm(struct acpi_nfit_desc *acpi_desc,
			       struct nfit_mem *nfit_mem)
{
	struct acpi_device *root = acpi_desc->adev;
	int func;

	nfit_mem->family = NFIT_FAMILY_NONE;
	if (acpi_desc->dimm_cmd_mask) {
		/* a mock bus speaks the Intel set through its own ndctl hook */
		nfit_mem->family = NFIT_FAMILY_INTEL;
		nfit_mem->dsm_mask = acpi_desc->dimm_cmd_mask |
			acpi_desc->dimm_dsm_mask;
		return;
	}
	if (!root)
		return;
	nfit_mem->adev = acpi_find_child_device(root, nfit_mem->handle, false);
	if (!nfit_mem->adev) {
		dev_dbg(acpi_desc->dev, "no ACPI device for DIMM %#x\n",
			nfit_mem->handle);
		return;
	}
	if (!acpi_check_dsm(nfit_mem->adev->handle, &nfit_intel_guid,
			    NFIT_DSM_REVISION, 1))
		return;
	nfit_mem->family = NFIT_FAMILY_INTEL;
	for (func = 1; func < BITS_PER_LONG; func++)
		if (acpi_check_dsm(nfit_mem->adev->handle, &nfit_intel_guid,
				   NFIT_DSM_REVISION, 1ULL << func))
			set_bit(func, &nfit_mem->dsm_mask);
}

static void nfit_probe_bus_dsm(struct acpi_nfit_desc *acpi_desc)
{
	struct acpi_device *root = acpi_desc->adev;
	int func;

	if (!root)
		return;
	for (func = 1; func < BITS_PER_LONG; func++)
		if (acpi_check_dsm(root->handle, &nfit_root_guid,
				   NFIT_DSM_REVISION, 1ULL << func))
			set_bit(func, &acpi_desc->bus_dsm_mask);
	/* the Intel bus family defines functions 1 and 2 only */
	for (func = 1; func <= 2; func++)
		if (acpi_check_dsm(root->handle, &nfit_intel_bus_guid,
				   NFIT_DSM_REVISION, 1ULL << func))
			set_bit(func, &acpi_desc->bus_intel_dsm_mask);
}

/*
 * Map the DIMM's write-pending-queue flush hints.  A hint that cannot be
 * mapped (firmware naming an address with nothing behind it) costs the
 * regions using this DIMM, not the bus: the DIMM is registered with
 * NDD_FLUSH_UNMAPPED and no hints, and nd_region refuses to enable them.
 */
static int nfit_mem_map_flush(struct acpi_nfit_desc *acpi_desc,
			      struct nfit_mem *nfit_mem,
			      struct nvdimm_desc *desc)
{
	const struct acpi_nfit_flush_address *flush = nfit_mem->flush;
	void __iomem **wpq;
	int i;

	if (!flush || !flush->hint_count)
		return 0;
	wpq = devm_kcalloc(acpi_desc->dev, flush->hint_count, sizeof(*wpq),
			   GFP_KERNEL);
	if (!wpq)
		return -ENOMEM;
	for (i = 0; i < flush->hint_count; i++) {
		u64 addr = get_unaligned(&flush->hint_address[i]);

		wpq[i] = devm_ioremap(acpi_desc->dev, addr, sizeof(u64));
		if (!wpq[i]) {
			dev_err(acpi_desc->dev, "DIMM %#x: cannot map flush hint %#llx, its regions stay disabled\n",
				nfit_mem->handle, addr);
			/* the hints mapped so far go with the bus's devres */
			set_bit(NDD_FLUSH_UNMAPPED, &desc->flags);
			return 0;
		}
	}
	desc->flush_wpq = wpq;
	desc->num_flush = flush->hint_count;
	return 0;
}

static int nfit_register_dimms(struct acpi_nfit_desc *acpi_desc)
{
	const struct acpi_nfit_memory_map *memdev;
	struct nfit_table *t = &acpi_desc->table;
	struct nfit_mem *nfit_mem;
	int rc;

	nfit_for_each_usable(t, memdev, ACPI_NFIT_TYPE_MEMORY_MAP) {
		const struct acpi_nfit_system_address *spa;

		nfit_mem = nfit_mem_find(acpi_desc, memdev->device_handle);
		if (!nfit_mem) {
			nfit_mem = devm_kzalloc(acpi_desc->dev,
						sizeof(*nfit_mem), GFP_KERNEL);
			if (!nfit_mem)
				return -ENOMEM;
			nfit_mem->handle = memdev->device_handle;
			nfit_mem->phys_id = memdev->physical_id;
			nfit_mem->dcr = nfit_dcr_by_index(t, memdev->region_index);
			nfit_mem->bdw = nfit_bdw_by_dcr(t, memdev->region_index);
			nfit_mem->flush = nfit_flush_by_handle(t, memdev->device_handle);
			list_add_tail(&nfit_mem->list, &acpi_desc->dimms);
		}
		nfit_mem->mem_flags |= memdev->flags;
		spa = memdev->range_index ?
			nfit_spa_by_index(t, memdev->range_index) : NULL;
		if (spa && nfit_spa_kind(spa) == NFIT_SPA_PM)
			nfit_mem->has_pm = true;
	}

	list_for_each_entry(nfit_mem, &acpi_desc->dimms, list) {
		struct nvdimm_desc desc = {
			.provider_data = nfit_mem,
			.groups = acpi_nfit_dimm_groups,
		};

		nfit_mem->acpi_desc = acpi_desc;
		nfit_mem_probe_dsm(acpi_desc, nfit_mem);
		nfit_mem_format_id(nfit_mem);
		desc.dimm_id = nfit_mem->id;
		desc.sec_ops = nfit_intel_security_ops_of(nfit_mem);
		desc.probe = nfit_intel_shutdown_probe;
		if (nfit_mem->family == NFIT_FAMILY_INTEL)
			desc.cmd_mask = nfit_mem->dsm_mask &
				(BIT(ND_CMD_SMART) | BIT(ND_CMD_SMART_THRESHOLD) |
				 BIT(ND_CMD_DIMM_FLAGS) |
				 BIT(ND_CMD_GET_CONFIG_SIZE) |
				 BIT(ND_CMD_GET_CONFIG_DATA) |
				 BIT(ND_CMD_SET_CONFIG_DATA));
		/* only the commands this driver knows how to marshal */
		desc.cmd_mask &= BIT(ND_CMD_SMART) | BIT(ND_CMD_SMART_THRESHOLD) |
			BIT(ND_CMD_DIMM_FLAGS) |
			BIT(ND_CMD_GET_CONFIG_SIZE) |
			BIT(ND_CMD_GET_CONFIG_DATA) |
			BIT(ND_CMD_SET_CONFIG_DATA);
		/* a mock bus that answers the passthrough itself (a test knob) */
		desc.cmd_mask |= acpi_desc->dimm_cmd_mask & BIT(ND_CMD_CALL);
		/*
		 * as 6.1: a DIMM with an ACPI device offers the passthrough
		 * (the Intel set's health functions; acpi_nfit_ctl() refuses
		 * what its family and dsm_mask do not have)
		 */
		if (nfit_mem->adev)
			set_bit(ND_CMD_CALL, &desc.cmd_mask);
		if (nfit_mem->bdw && nfit_mem->has_pm)
			set_bit(NDD_ALIASING, &desc.flags);
		if (nfit_mem->mem_flags & ACPI_NFIT_MEM_NOT_ARMED)
			set_bit(NDD_UNARMED, &desc.flags);
		desc.fw_ops = nfit_fw_dimm_ops(acpi_desc, nfit_mem);
		rc = nfit_mem_map_flush(acpi_desc, nfit_mem, &desc);
		if (rc)
			return rc;
		nfit_mem->nvdimm = nvdimm_create(acpi_desc->nvdimm_bus, &desc);
		if (!nfit_mem->nvdimm)
			return -ENOMEM;
		if (nfit_mem->mem_flags & ACPI_NFIT_MEM_NOT_ARMED)
			dev_info(nvdimm_dev(nfit_mem->nvdimm), "not armed: regions using it are read-only\n");
	}
	return 0;
}

/**
 * struct nfit_set_elem - one DIMM of an interleave set, for the cookies
 * @offset: the memdev's region_offset
 * @v12: v1.2 element; its first 16 bytes are the v1.1 element
 * @idx: index of the mapping this element describes
 */
struct nfit_set_elem {
	u64 offset;
	struct {
		__le64 region_offset;
		__le32 serial;
		__le16 vendor;
		__le16 date;
		u8 location;
		u8 reserved[31];
	} __packed v12;
	int idx;
};

static int cmp_offset(const void *a, const void *b)
{
	const struct nfit_set_elem *x = a, *y = b;

	if (x->offset == y->offset)
		return 0;
	return x->offset < y->offset ? -1 : 1;
}

/* v4.2-era kernels sorted by the little-endian bytes of the offset */
static int cmp_offset_bytes(const void *a, const void *b)
{
	const struct nfit_set_elem *x = a, *y = b;

	return memcmp(&x->v12.region_offset, &y->v12.region_offset,
		      sizeof(x->v12.region_offset));
}

/* Fletcher-64 of the first @elem_size bytes of each element, in @buf. */
static u64 nfit_set_cookie(const struct nfit_set_elem *e, int n,
			   size_t elem_size, u8 *buf)
{
	int i;

	for (i = 0; i < n; i++)
		memcpy(buf + i * elem_size, &e[i].v12, elem_size);
	return nd_fletcher64(buf, n * elem_size, false);
}

/*
 * Interleave-set identity: the cookies that labels on these DIMMs must
 * carry, and each DIMM's position (its rank in region_offset order).
 */
static int nfit_init_interleave_set(struct nd_region_desc *ndr_desc,
				    const struct acpi_nfit_memory_map **memdevs,
				    struct nfit_mem **mems)
{
	int i, n = ndr_desc->num_mappings;
	struct nd_interleave_set *nd_set;
	struct nfit_set_elem *e;
	size_t v11 = 16, v12 = sizeof(e->v12);
	u8 *buf;

	/* every allocation up front: no cookie can come out of a failed one */
	e = kcalloc(n, sizeof(*e), GFP_KERNEL);
	buf = kcalloc(n, v12, GFP_KERNEL);
	nd_set = kzalloc(sizeof(*nd_set), GFP_KERNEL);
	if (!e || !buf || !nd_set) {
		kfree(e);
		kfree(buf);
		kfree(nd_set);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct acpi_nfit_control_region *dcr = mems[i]->dcr;

		e[i].idx = i;
		e[i].offset = memdevs[i]->region_offset;
		e[i].v12.region_offset = cpu_to_le64(memdevs[i]->region_offset);
		e[i].v12.serial = (__force __le32)dcr->serial_number;
		e[i].v12.vendor = (__force __le16)dcr->vendor_id;
		e[i].v12.date = (__force __le16)dcr->manufacturing_date;
		e[i].v12.location = dcr->manufacturing_location;
	}

	sort(e, n, sizeof(*e), cmp_offset_bytes, NULL);
	/* the v1.1 element is the first 16 bytes with the tail zeroed */
	for (i = 0; i < n; i++)
		memset((u8 *)&e[i].v12 + 12, 0, v12 - 12);
	nd_set->altcookie = nfit_set_cookie(e, n, v11, buf);

	sort(e, n, sizeof(*e), cmp_offset, NULL);
	nd_set->cookie1 = nfit_set_cookie(e, n, v11, buf);
	for (i = 0; i < n; i++) {
		const struct acpi_nfit_control_region *dcr = mems[e[i].idx]->dcr;

		e[i].v12.vendor = (__force __le16)dcr->vendor_id;
		e[i].v12.date = (__force __le16)dcr->manufacturing_date;
		e[i].v12.location = dcr->manufacturing_location;
		ndr_desc->mapping[e[i].idx].position = i;
	}
	nd_set->cookie2 = nfit_set_cookie(e, n, v12, buf);

	ndr_desc->nd_set = nd_set;
	kfree(buf);
	kfree(e);
	return 0;
}

static void nfit_remove_resource(void *res)
{
	remove_resource(res);
}

/*
 * Publish the range in iomem as "Persistent Memory" unless the firmware
 * memory map already did (e820 type 7), so that namespaces can claim
 * their part below it.
 */
static int nfit_insert_resource(struct acpi_nfit_desc *acpi_desc,
				const struct acpi_nfit_system_address *spa,
				struct resource *res)
{
	struct resource *iomem;
	int rc;

	res->start = spa->address;
	res->end = spa->address + spa->length - 1;
	res->name = "Persistent Memory";
	res->flags = IORESOURCE_MEM;
	res->desc = IORES_DESC_PERSISTENT_MEMORY;

	if (region_intersects(res->start, resource_size(res), IORESOURCE_MEM,
			      IORES_DESC_PERSISTENT_MEMORY) == REGION_INTERSECTS)
		return 0;

	iomem = devm_kmemdup(acpi_desc->dev, res, sizeof(*res), GFP_KERNEL);
	if (!iomem)
		return -ENOMEM;
	rc = insert_resource(&iomem_resource, iomem);
	if (rc) {
		dev_err(acpi_desc->dev, "SPA range %d %pr conflicts in iomem: %d\n",
			spa->range_index, res, rc);
		return rc;
	}
	return devm_add_action_or_reset(acpi_desc->dev, nfit_remove_resource,
					iomem);
}

/*
 * The region flags for where stores become durable, from the platform
 * capabilities structure (the last one, as 6.1 reads them): only the bits
 * up to its highest valid capability count, and CPU-cache flushing on
 * power loss implies the memory controller's.  No structure: neither.
 */
static unsigned long nfit_persist_flags(struct acpi_nfit_desc *acpi_desc)
{
	const struct acpi_nfit_capabilities *cap, *last = NULL;
	u32 valid;

	nfit_for_each_usable(&acpi_desc->table, cap, ACPI_NFIT_TYPE_CAPABILITIES)
		last = cap;
	if (!last)
		return 0;
	valid = GENMASK(min_t(u32, last->highest_capability, 31), 0);
	if (last->capabilities & valid & ACPI_NFIT_CAPABILITY_CACHE_FLUSH)
		return BIT(ND_REGION_PERSIST_CACHE);
	if (last->capabilities & valid & ACPI_NFIT_CAPABILITY_MEM_FLUSH)
		return BIT(ND_REGION_PERSIST_MEMCTRL);
	return 0;
}

static int nfit_register_pmem_region(struct acpi_nfit_desc *acpi_desc,
				     const struct acpi_nfit_system_address *spa)
{
	struct nfit_table *t = &acpi_desc->table;
	const struct acpi_nfit_memory_map *memdev, **memdevs = NULL;
	struct nd_mapping_desc *mappings = NULL;
	struct nd_region_desc ndr_desc = {};
	struct nfit_mem **mems = NULL;
	struct resource res = {};
	unsigned int n, i = 0;
	int rc;

	rc = nfit_insert_resource(acpi_desc, spa, &res);
	if (rc)
		return rc;

	n = nfit_spa_nr_memdevs(t, spa->range_index);
	if (n) {
		mappings = kcalloc(n, sizeof(*mappings), GFP_KERNEL);
		memdevs = kcalloc(n, sizeof(*memdevs), GFP_KERNEL);
		mems = kcalloc(n, sizeof(*mems), GFP_KERNEL);
		if (!mappings || !memdevs || !mems) {
			rc = -ENOMEM;
			goto out;
		}
	}
	nfit_for_each_usable(t, memdev, ACPI_NFIT_TYPE_MEMORY_MAP) {
		struct nfit_mem *nfit_mem;

		if (memdev->range_index != spa->range_index || i >= n)
			continue;
		nfit_mem = nfit_mem_find(acpi_desc, memdev->device_handle);
		if (!nfit_mem || !nfit_mem->nvdimm)
			continue;
		mappings[i].nvdimm = nfit_mem->nvdimm;
		mappings[i].start = memdev->address;
		mappings[i].size = memdev->region_size;
		memdevs[i] = memdev;
		mems[i] = nfit_mem;
		i++;
	}

	ndr_desc.res = &res;
	ndr_desc.mapping = mappings;
	ndr_desc.num_mappings = i;
	ndr_desc.attr_groups = acpi_nfit_region_groups;
	ndr_desc.provider_data = (void *)spa;
	ndr_desc.flags = nfit_persist_flags(acpi_desc);
	if (i)
		ndr_desc.align = acpi_desc->pmem_align * i;
	if (spa->flags & ACPI_NFIT_PROXIMITY_VALID) {
		ndr_desc.numa_node = pxm_to_online_node(spa->proximity_domain);
		ndr_desc.target_node = pxm_to_node(spa->proximity_domain);
	} else {
		ndr_desc.numa_node = NUMA_NO_NODE;
		ndr_desc.target_node = NUMA_NO_NODE;
	}
	if (i) {
		rc = nfit_init_interleave_set(&ndr_desc, memdevs, mems);
		if (rc)
			goto out;
		/* v1.2 labels carry the range's type GUID, as stored in the NFIT */
		import_guid(&ndr_desc.nd_set->type_guid, spa->range_guid);
	}
	if (!nvdimm_pmem_region_create(acpi_desc->nvdimm_bus, &ndr_desc))
		rc = -ENXIO;
	kfree(ndr_desc.nd_set);
out:
	kfree(mems);
	kfree(memdevs);
	kfree(mappings);
	return rc;
}

/*
 * A block-data-window range gives BLK access to the DIMMs mapped by it
 * that have a block-data-window description: one BLK region per DIMM,
 * covering the DPA range the windows reach, with nfit's block-window
 * access (blk.c).  A DIMM whose windows the table describes wrongly gets
 * no region (nfit_blk_init() said why); the rest of the bus comes up.
 */
static void nfit_register_blk_regions(struct acpi_nfit_desc *acpi_desc,
				      const struct acpi_nfit_system_address *spa)
{
	const struct acpi_nfit_memory_map *memdev;
	struct nfit_table *t = &acpi_desc->table;

	nfit_for_each_usable(t, memdev, ACPI_NFIT_TYPE_MEMORY_MAP) {
		struct nd_mapping_desc mapping = {};
		struct nd_region_desc ndr_desc = {};
		struct nfit_mem *nfit_mem;
		struct nfit_blk *blk;

		if (memdev->range_index != spa->range_index)
			continue;
		nfit_mem = nfit_mem_find(acpi_desc, memdev->device_handle);
		if (!nfit_mem || !nfit_mem->nvdimm) {
			dev_dbg(acpi_desc->dev, "SPA range %d: DIMM %#x not registered\n",
				spa->range_index, memdev->device_handle);
			continue;
		}
		blk = nfit_blk_init(acpi_desc, nfit_mem, memdev);
		if (IS_ERR(blk))
			continue;
		mapping.nvdimm = nfit_mem->nvdimm;
		mapping.start = blk->geom.dpa_start;
		mapping.size = blk->geom.dpa_size;
		ndr_desc.mapping = &mapping;
		ndr_desc.num_mappings = 1;
		ndr_desc.attr_groups = acpi_nfit_blk_region_groups;
		ndr_desc.provider_data = blk;
		ndr_desc.numa_node = NUMA_NO_NODE;
		ndr_desc.target_node = NUMA_NO_NODE;
		ndr_desc.blk_ops = &nfit_blk_ops;
		ndr_desc.num_lanes = blk->num_lanes;
		if (!nvdimm_blk_region_create(acpi_desc->nvdimm_bus, &ndr_desc))
			dev_err(acpi_desc->dev, "DIMM %#x: no BLK region\n",
				memdev->device_handle);
	}
}

static int nfit_register_regions(struct acpi_nfit_desc *acpi_desc)
{
	const struct acpi_nfit_system_address *spa;
	int rc;

	nfit_for_each_usable(&acpi_desc->table, spa, ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
		switch (nfit_spa_kind(spa)) {
		case NFIT_SPA_PM:
			rc = nfit_register_pmem_region(acpi_desc, spa);
			if (rc)
				dev_err(acpi_desc->dev, "SPA range %d: no region: %d\n",
					spa->range_index, rc);
			break;
		case NFIT_SPA_BDW:
			nfit_register_blk_regions(acpi_desc, spa);
			break;
		default:
			/* control, block-window and volatile ranges: no region */
			break;
		}
	}
	return 0;
}

/* every registered NFIT bus, for nfit_get_smbios_id() */
static LIST_HEAD(acpi_descs);
static DEFINE_MUTEX(acpi_descs_lock);

/**
 * nfit_get_smbios_id - the SMBIOS handle of an NVDIMM, for the memory
 *	error (EDAC) drivers that name the DIMM of an error
 * @device_handle: the NFIT device handle of the DIMM
 * @flags: set to its memory-map flags (ACPI_NFIT_MEM_*)
 *
 * Returns the SMBIOS Memory Device handle (the memory map's physical
 * id) of the first registered NFIT DIMM with @device_handle, or -ENODEV.
 */
int nfit_get_smbios_id(u32 device_handle, u16 *flags)
{
	struct acpi_nfit_desc *acpi_desc;
	struct nfit_mem *nfit_mem;
	int rc = -ENODEV;

	mutex_lock(&acpi_descs_lock);
	list_for_each_entry(acpi_desc, &acpi_descs, list) {
		nfit_mem = nfit_mem_find(acpi_desc, device_handle);
		if (nfit_mem) {
			*flags = nfit_mem->mem_flags;
			rc = nfit_mem->phys_id;
			break;
		}
	}
	mutex_unlock(&acpi_descs_lock);
	return rc;
}
EXPORT_SYMBOL_GPL(nfit_get_smbios_id);

/* the registered bus with a PM range holding @addr; acpi_descs_lock held */
static struct acpi_nfit_desc *nfit_pm_desc(u64 addr)
{
	const struct acpi_nfit_system_address *spa;
	struct acpi_nfit_desc *acpi_desc;

	lockdep_assert_held(&acpi_descs_lock);
	list_for_each_entry(acpi_desc, &acpi_descs, list) {
		nfit_for_each_usable(&acpi_desc->table, spa,
				     ACPI_NFIT_TYPE_SYSTEM_ADDRESS) {
			if (nfit_spa_kind(spa) == NFIT_SPA_PM &&
			    addr >= spa->address &&
			    addr - spa->address < spa->length)
				return acpi_desc;
		}
	}
	return NULL;
}

/**
 * nfit_pm_bus_get - the registered bus with a persistent-memory SPA range
 *	holding @addr
 * @addr: system-physical address
 *
 * Returns the bus with a reference on its device (put_device() of
 * to_nvdimm_bus_dev()), or NULL.
 */
struct nvdimm_bus *nfit_pm_bus_get(u64 addr)
{
	struct acpi_nfit_desc *acpi_desc;
	struct nvdimm_bus *found = NULL;

	mutex_lock(&acpi_descs_lock);
	acpi_desc = nfit_pm_desc(addr);
	if (acpi_desc) {
		found = acpi_desc->nvdimm_bus;
		get_device(to_nvdimm_bus_dev(found));
	}
	mutex_unlock(&acpi_descs_lock);
	return found;
}

/**
 * nfit_pm_error_scrub - a machine check's scrub (ndbusN/nfit/hw_error_scrub)
 * @addr: system-physical address of the error
 *
 * When the bus holding @addr has hw_error_scrub set, a scrub is queued
 * (one already queued or running is taken as the authoritative one, as
 * 6.1 does).  The bus's descriptor is only used under acpi_descs_lock:
 * it stays in the list until after its scrub work was cancelled.
 * Returns 0 when a scrub was queued, -EBUSY when one was already, -EPERM
 * when hw_error_scrub is off, -ENODEV when no bus holds @addr.
 */
int nfit_pm_error_scrub(u64 addr)
{
	struct acpi_nfit_desc *acpi_desc;
	int rc = -ENODEV;

	mutex_lock(&acpi_descs_lock);
	acpi_desc = nfit_pm_desc(addr);
	if (acpi_desc) {
		rc = -EPERM;
		if (READ_ONCE(acpi_desc->ars.hw_error_scrub))
			rc = acpi_nfit_ars_rescan(acpi_desc);
	}
	mutex_unlock(&acpi_descs_lock);
	return rc;
}

static void acpi_nfit_unregister(void *data)
{
	struct acpi_nfit_desc *acpi_desc = data;

	mutex_lock(&acpi_descs_lock);
	list_del_init(&acpi_desc->list);
	mutex_unlock(&acpi_descs_lock);
	nvdimm_bus_unregister(acpi_desc->nvdimm_bus);
	acpi_desc->nvdimm_bus = NULL;
}

/**
 * acpi_nfit_init - parse an NFIT and register its bus, DIMMs and regions
 * @acpi_desc: descriptor with ->dev set; ->nd_desc.ndctl may be preset by
 *	a provider that answers commands itself (nfit_test)
 * @nfit: the table
 * @len: bytes available at @nfit
 *
 * Everything is torn down through devres when ->dev unbinds: the bus
 * first, then the mappings and iomem ranges, then the table copy.
 *
 * Returns 0 or a negative errno; on error nothing stays registered.
 */
int acpi_nfit_init(struct acpi_nfit_desc *acpi_desc, const void *nfit,
		   u32 len)
{
	struct device *dev = acpi_desc->dev;
	struct nvdimm_bus_descriptor *nd_desc = &acpi_desc->nd_desc;
	struct nfit_sub *subs;
	void *copy;
	int rc;

	INIT_LIST_HEAD(&acpi_desc->dimms);
	INIT_LIST_HEAD(&acpi_desc->blk_claims);
	INIT_LIST_HEAD(&acpi_desc->list);
	copy = devm_kmemdup(dev, nfit, len, GFP_KERNEL);
	subs = devm_kcalloc(dev, nfit_table_max_subs(len), sizeof(*subs),
			    GFP_KERNEL);
	if (!copy || !subs)
		return -ENOMEM;
	rc = nfit_table_parse(&acpi_desc->table, copy, len, subs,
			      nfit_table_max_subs(len), nfit_log, dev);
	if (rc) {
		dev_err(dev, "NFIT refused (%d): no NVDIMM bus\n", rc);
		return rc;
	}

	nfit_probe_bus_dsm(acpi_desc);
	nfit_ars_setup_cmds(acpi_desc);
	nfit_fw_bus_setup(acpi_desc);
	if (!nd_desc->provider_name)
		nd_desc->provider_name = "ACPI.NFIT";
	nd_desc->module = THIS_MODULE;
	nd_desc->attr_groups = acpi_nfit_bus_groups;
	if (!nd_desc->ndctl)
		nd_desc->ndctl = acpi_nfit_ctl;
	acpi_desc->nvdimm_bus = nvdimm_bus_register(dev, nd_desc);
	if (!acpi_desc->nvdimm_bus)
		return -ENOMEM;

	rc = nfit_register_dimms(acpi_desc);
	if (!rc)
		rc = nfit_register_regions(acpi_desc);
	if (rc) {
		acpi_nfit_unregister(acpi_desc);
		return rc;
	}
	mutex_lock(&acpi_descs_lock);
	list_add_tail(&acpi_desc->list, &acpi_descs);
	mutex_unlock(&acpi_descs_lock);
	/*
	 * Added last, so that it runs first when @dev unbinds: the bus with
	 * every DIMM, region and namespace on it is gone before the devm
	 * entries above unmap the flush hints and remove the iomem ranges.
	 */
	rc = devm_add_action_or_reset(dev, acpi_nfit_unregister, acpi_desc);
	if (rc)
		return rc;
	/*
	 * The DIMMs' ACPI notify handlers after it, so that each is removed
	 * before the bus frees the DIMM it notifies
	 */
	rc = nfit_health_init(acpi_desc);
	if (rc)
		return rc;
	/* its teardown (the scrub cancelled) runs before the bus goes */
	return nfit_ars_init(acpi_desc);
}
EXPORT_SYMBOL_GPL(acpi_nfit_init);

static int acpi_nfit_add(struct acpi_device *adev)
{
	struct acpi_nfit_desc *acpi_desc;
	struct acpi_table_header *tbl;
	acpi_status status;
	int rc;

	status = acpi_get_table(ACPI_SIG_NFIT, 0, &tbl);
	if (ACPI_FAILURE(status)) {
		dev_dbg(&adev->dev, "no NFIT\n");
		return -ENODEV;
	}
	acpi_desc = devm_kzalloc(&adev->dev, sizeof(*acpi_desc), GFP_KERNEL);
	if (!acpi_desc) {
		acpi_put_table(tbl);
		return -ENOMEM;
	}
	acpi_desc->dev = &adev->dev;
	acpi_desc->adev = adev;
	rc = acpi_nfit_init(acpi_desc, tbl, tbl->length);
	acpi_put_table(tbl);
	if (!rc)
		dev_set_drvdata(&adev->dev, acpi_desc);
	return rc;
}

/*
 * Notifications on the ACPI0012 device.  The ACPI core installs this
 * handler after .add succeeded and removes it (waiting for a running
 * one) before the driver's devres is released, so the bus is there
 * throughout; no device lock, which the remover holds while it waits.
 */
static void acpi_nfit_notify(struct acpi_device *adev, u32 event)
{
	struct acpi_nfit_desc *acpi_desc = dev_get_drvdata(&adev->dev);

	if (acpi_desc)
		acpi_nfit_notify_event(acpi_desc, event);
	else
		dev_dbg(&adev->dev, "notification %#x: no bus\n", event);
}

static const struct acpi_device_id acpi_nfit_ids[] = {
	{ "ACPI0012", 0 },
	{ "", 0 },
};
MODULE_DEVICE_TABLE(acpi, acpi_nfit_ids);

static struct acpi_driver acpi_nfit_driver = {
	.name = KBUILD_MODNAME,
	.ids = acpi_nfit_ids,
	.ops = {
		.add = acpi_nfit_add,
		.notify = acpi_nfit_notify,
		/* no .remove: acpi_nfit_init() left the teardown to devres */
	},
};

static int __init nfit_init(void)
{
	int rc;

	guid_parse(NFIT_DSM_ROOT_GUID, &nfit_root_guid);
	guid_parse(NFIT_DSM_INTEL_GUID, &nfit_intel_guid);
	guid_parse(NFIT_DSM_INTEL_BUS_GUID, &nfit_intel_bus_guid);
	nfit_mce_register();
	rc = acpi_bus_register_driver(&acpi_nfit_driver);
	if (rc)
		nfit_mce_unregister();
	return rc;
}

static void __exit nfit_exit(void)
{
	acpi_bus_unregister_driver(&acpi_nfit_driver);
	nfit_mce_unregister();
}

module_init(nfit_init);
module_exit(nfit_exit);
MODULE_LICENSE("GPL v2");
MODULE_VERSION(LIBNVDIMM_VERSION);
MODULE_DESCRIPTION("nfit: ACPI NFIT NVDIMM bus provider");
MODULE_AUTHOR("libnvdimm developers");
