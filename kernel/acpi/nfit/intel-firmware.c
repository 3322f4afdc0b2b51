// SPDX-License-Identifier: GPL-2.0
/*
 * Runtime firmware activation through the Intel DSMs (docs/firmware.md):
 * the bus's ops (root functions 1 and 2 of the Intel bus family: the
 * activation state and capability, activate) and the DIMMs' (Intel DIMM
 * functions 29 and 30: state and last result, arm/disarm) behind the
 * core's firmware/ attributes (kernel/nvdimm/firmware.c).  Userspace may
 * not send these functions itself (ioctl.c refuses them, as 6.1 does).
 *
 * Firmware update proper (functions 12-16) needs nothing here: ndctl
 * sends it through ND_CMD_CALL, which core.c passes to the DIMM's _DSM
 * when its dsm_mask has the function.
 *
 * Nothing is cached but the capability (static by the specification):
 * every read asks the firmware, so the states never go stale.  The
 * core's firmware lock serialises all calls of these ops.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/string.h>
#include "nfit.h"
#include "intel-firmware.h"

/*
 * One ND_CMD_CALL of @func of @family: @in_len bytes from @io in, then
 * @out_len bytes of output into @io + @in_len.  Returns 0 when the
 * firmware produced the whole output, -EIO when it answered short, or
 * the provider's errno.
 */
static int nfit_fwa_call(struct acpi_nfit_desc *acpi_desc,
			 struct nvdimm *nvdimm, u64 family, u64 func,
			 void *io, u32 in_len, u32 out_len)
{
	struct nvdimm_bus_descriptor *nd_desc = &acpi_desc->nd_desc;
	struct nd_cmd_pkg *pkg;
	u32 len = sizeof(*pkg) + in_len + out_len;
	int rc, cmd_rc = 0;

	pkg = kzalloc(len, GFP_KERNEL);
	if (!pkg)
		return -ENOMEM;
	pkg->nd_family = family;
	pkg->nd_command = func;
	pkg->nd_size_in = in_len;
	pkg->nd_size_out = out_len;
	memcpy(pkg->nd_payload, io, in_len);
	rc = nd_desc->ndctl(nd_desc, nvdimm, ND_CMD_CALL, pkg, len, &cmd_rc);
	if (rc > 0 || (!rc && pkg->nd_fw_size < out_len)) {
		dev_dbg(acpi_desc->dev, "call %llu.%llu: %u of %u bytes\n",
			family, func, pkg->nd_fw_size, out_len);
		rc = -EIO;
	}
	if (!rc)
		memcpy(io + in_len, pkg->nd_payload + in_len, out_len);
	kfree(pkg);
	return rc;
}

static int nfit_bus_fwa_info(struct acpi_nfit_desc *acpi_desc,
			     struct nfit_intel_bus_fwa_info *info)
{
	int rc;

	memset(info, 0, sizeof(*info));
	rc = nfit_fwa_call(acpi_desc, NULL, NVDIMM_BUS_FAMILY_INTEL,
			   NFIT_INTEL_BUS_FWA_BUSINFO, info, 0, sizeof(*info));
	if (!rc && info->status) {
		dev_dbg(acpi_desc->dev, "firmware activation info: status %#x\n",
			info->status);
		rc = -EIO;
	}
	return rc;
}

static enum nvdimm_fwa_state nfit_bus_fwa_state(struct nvdimm_bus_descriptor *nd_desc)
{
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(nd_desc);
	struct nfit_intel_bus_fwa_info info;

	if (nfit_bus_fwa_info(acpi_desc, &info))
		return NVDIMM_FWA_INVALID;
	switch (info.state) {
	case NFIT_INTEL_FWA_IDLE:
		return NVDIMM_FWA_IDLE;
	case NFIT_INTEL_FWA_BUSY:
		return NVDIMM_FWA_BUSY;
	case NFIT_INTEL_FWA_ARMED:
		/* the armed DIMMs would need longer than the platform allows */
		return info.activate_tmo > info.max_quiesce_tmo ?
			NVDIMM_FWA_ARM_OVERFLOW : NVDIMM_FWA_ARMED;
	default:
		dev_dbg(acpi_desc->dev, "firmware activation state %u unknown\n",
			info.state);
		return NVDIMM_FWA_INVALID;
	}
}

static enum nvdimm_fwa_capability nfit_bus_fwa_cap(struct nvdimm_bus_descriptor *nd_desc)
{
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(nd_desc);
	struct nfit_intel_bus_fwa_info info;

	if (acpi_desc->fwa_cap != NVDIMM_FWA_CAP_INVALID)
		return acpi_desc->fwa_cap;
	if (nfit_bus_fwa_info(acpi_desc, &info))
		return NVDIMM_FWA_CAP_INVALID;
	/*
	 * The platform quiesces the memory controller itself: the OS should
	 * quiesce too (6.1 offers "quiesce").  Only the OS needs to: "live".
	 */
	if (info.capability & NFIT_INTEL_BUS_FWA_CAP_FWQUIESCE)
		acpi_desc->fwa_cap = NVDIMM_FWA_CAP_QUIESCE;
	else if (info.capability & NFIT_INTEL_BUS_FWA_CAP_OSQUIESCE)
		acpi_desc->fwa_cap = NVDIMM_FWA_CAP_LIVE;
	else
		acpi_desc->fwa_cap = NVDIMM_FWA_CAP_NONE;
	return acpi_desc->fwa_cap;
}

/*
 * As 6.1: the call's own failure is the answer; a firmware status only
 * shows in the DIMMs' results (which the caller reads next).
 */
static int nfit_bus_fwa_activate(struct nvdimm_bus_descriptor *nd_desc)
{
	struct acpi_nfit_desc *acpi_desc = to_acpi_nfit_desc(nd_desc);
	struct nfit_intel_bus_fwa_activate act = {
		.iodev_state = READ_ONCE(acpi_desc->fwa_noidle) ?
			NFIT_INTEL_BUS_FWA_OS_IDLE : NFIT_INTEL_BUS_FWA_FORCE_IDLE,
	};
	int rc;

	rc = nfit_fwa_call(acpi_desc, NULL, NVDIMM_BUS_FAMILY_INTEL,
			   NFIT_INTEL_BUS_FWA_ACTIVATE, &act,
			   sizeof(act.iodev_state), sizeof(act.status));
	dev_dbg(acpi_desc->dev, "firmware activate: %d, status %#x\n", rc,
		act.status);
	return rc;
}

static const struct nvdimm_bus_fw_ops nfit_bus_fw_ops = {
	.state = nfit_bus_fwa_state,
	.capability = nfit_bus_fwa_cap,
	.activate = nfit_bus_fwa_activate,
};

static int nfit_fwa_dimminfo(struct nvdimm *nvdimm,
			     struct nfit_intel_fwa_dimminfo *info)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(nvdimm);
	int rc;

	memset(info, 0, sizeof(*info));
	rc = nfit_fwa_call(nfit_mem->acpi_desc, nvdimm, NVDIMM_FAMILY_INTEL,
			   NFIT_INTEL_FWA_DIMMINFO, info, 0, sizeof(*info));
	if (!rc && info->status) {
		dev_dbg(nvdimm_dev(nvdimm), "firmware activation info: status %#x\n",
			info->status);
		rc = -EIO;
	}
	return rc;
}

static enum nvdimm_fwa_state nfit_fwa_state(struct nvdimm *nvdimm)
{
	struct nfit_intel_fwa_dimminfo info;

	if (nfit_fwa_dimminfo(nvdimm, &info))
		return NVDIMM_FWA_INVALID;
	switch (info.state) {
	case NFIT_INTEL_FWA_IDLE:
		return NVDIMM_FWA_IDLE;
	case NFIT_INTEL_FWA_ARMED:
		return NVDIMM_FWA_ARMED;
	case NFIT_INTEL_FWA_BUSY:
		return NVDIMM_FWA_BUSY;
	default:
		return NVDIMM_FWA_INVALID;
	}
}

static enum nvdimm_fwa_result nfit_fwa_result(struct nvdimm *nvdimm)
{
	struct nfit_intel_fwa_dimminfo info;

	if (nfit_fwa_dimminfo(nvdimm, &info))
		return NVDIMM_FWA_RESULT_INVALID;
	switch (info.result) {
	case NFIT_INTEL_DIMM_FWA_NONE:
		return NVDIMM_FWA_RESULT_NONE;
	case NFIT_INTEL_DIMM_FWA_NOTSTAGED:
		return NVDIMM_FWA_RESULT_NOTSTAGED;
	case NFIT_INTEL_DIMM_FWA_SUCCESS:
		return NVDIMM_FWA_RESULT_SUCCESS;
	case NFIT_INTEL_DIMM_FWA_NEEDRESET:
		return NVDIMM_FWA_RESULT_NEEDRESET;
	case NFIT_INTEL_DIMM_FWA_NEEDRESET + 1 ... NFIT_INTEL_DIMM_FWA_ERROR:
		return NVDIMM_FWA_RESULT_FAIL;
	default:
		return NVDIMM_FWA_RESULT_INVALID;
	}
}

/*
 * As 6.1: -ENXIO when the state cannot be read, -EBUSY during an
 * activation, 0 at once when the DIMM is already where it was asked to
 * be.  A status from the arm function itself is -EIO.
 */
static int nfit_fwa_arm(struct nvdimm *nvdimm, bool arm)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(nvdimm);
	struct nfit_intel_fwa_arm cmd = { .arm = arm ? 1 : 0 };
	int rc;

	switch (nfit_fwa_state(nvdimm)) {
	case NVDIMM_FWA_IDLE:
		if (!arm)
			return 0;
		break;
	case NVDIMM_FWA_ARMED:
		if (arm)
			return 0;
		break;
	case NVDIMM_FWA_BUSY:
		return -EBUSY;
	default:
		return -ENXIO;
	}
	rc = nfit_fwa_call(nfit_mem->acpi_desc, nvdimm, NVDIMM_FAMILY_INTEL,
			   NFIT_INTEL_FWA_ARM, &cmd, sizeof(cmd.arm),
			   sizeof(cmd.status));
	if (!rc && cmd.status) {
		dev_dbg(nvdimm_dev(nvdimm), "firmware %s: status %#x\n",
			arm ? "arm" : "disarm", cmd.status);
		rc = -EIO;
	}
	return rc;
}

static const struct nvdimm_fw_ops nfit_dimm_fw_ops = {
	.state = nfit_fwa_state,
	.result = nfit_fwa_result,
	.arm = nfit_fwa_arm,
};

/**
 * nfit_fw_bus_setup - give the bus firmware activation ops when its
 *	firmware has both Intel bus-family activation functions
 * @acpi_desc: the bus, before nvdimm_bus_register()
 */
void nfit_fw_bus_setup(struct acpi_nfit_desc *acpi_desc)
{
	if ((acpi_desc->bus_intel_dsm_mask & NFIT_INTEL_BUS_FWA_FUNCS) ==
	    NFIT_INTEL_BUS_FWA_FUNCS)
		acpi_desc->nd_desc.fw_ops = &nfit_bus_fw_ops;
}

/**
 * nfit_fw_dimm_ops - a DIMM's firmware activation ops
 * @acpi_desc: its bus
 * @nfit_mem: the DIMM
 *
 * Returns the ops when the bus activates and the DIMM has both Intel
 * activation functions, else NULL.
 */
const struct nvdimm_fw_ops *nfit_fw_dimm_ops(struct acpi_nfit_desc *acpi_desc,
					     struct nfit_mem *nfit_mem)
{
	if (!acpi_desc->nd_desc.fw_ops || nfit_mem->family != NFIT_FAMILY_INTEL ||
	    (nfit_mem->dsm_mask & NFIT_INTEL_FWA_FUNCS) != NFIT_INTEL_FWA_FUNCS)
		return NULL;
	return &nfit_dimm_fw_ops;
}

/*
 * ndbusN/nfit/firmware_activate_noidle: "Y" asks the platform to let the
 * OS idle the I/O devices, "N" (the default) to force them idle
 */
static ssize_t firmware_activate_noidle_show(struct device *dev,
					     struct device_attribute *attr,
					     char *buf)
{
	struct acpi_nfit_desc *acpi_desc =
		to_acpi_nfit_desc(to_nd_desc(to_nvdimm_bus(dev)));

	return sysfs_emit(buf, "%s\n", READ_ONCE(acpi_desc->fwa_noidle) ? "Y" : "N");
}

static ssize_t firmware_activate_noidle_store(struct device *dev,
					      struct device_attribute *attr,
					      const char *buf, size_t len)
{
	struct acpi_nfit_desc *acpi_desc =
		to_acpi_nfit_desc(to_nd_desc(to_nvdimm_bus(dev)));
	bool val;
	int rc;

	rc = kstrtobool(buf, &val);
	if (rc) {
		dev_dbg(dev, "firmware_activate_noidle: not a boolean\n");
		return rc;
	}
	WRITE_ONCE(acpi_desc->fwa_noidle, val);
	return len;
}
DEVICE_ATTR_RW(firmware_activate_noidle);

/* the nfit/ attribute exists where the bus activates firmware */
bool nfit_fw_hidden(struct device *dev, struct attribute *a)
{
	struct nvdimm_bus *nvdimm_bus = to_nvdimm_bus(dev);

	return a == &dev_attr_firmware_activate_noidle.attr &&
		!to_nd_desc(nvdimm_bus)->fw_ops;
}
