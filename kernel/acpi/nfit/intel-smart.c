// SPDX-License-Identifier: GPL-2.0
/*
 * nfit.ko: DIMM health of the Intel DSM family.
 *
 * The health functions (SMART, SMART threshold get and set, SMART inject,
 * enable latch system shutdown status; intel-smart.h) reach the firmware
 * through the ND_CMD_CALL passthrough: the core lets Intel functions
 * outside the security and activation sets through (nd_call_allowed()),
 * acpi_nfit_ctl() checks them against the DIMM's dsm_mask, and userspace
 * (ndctl list -H, ndctl inject-smart) builds and parses the payloads.
 *
 * What the driver itself adds is the notification.  Firmware signals a
 * change of a DIMM's health with Notify(DIMM, 0x81) on the DIMM's ACPI
 * device; as 6.1 does, that becomes a sysfs notification of the DIMM's
 * nfit/flags attribute, which ndctl monitor polls.  A mock bus, which has
 * no ACPI devices, raises the same notification by handle with
 * acpi_nfit_dimm_notify().
 *
 * And, as 6.1, the DIMM's dirty shutdown count: read once from the SMART
 * payload when the DIMM registers (nvdimm_desc.probe, before its nfit/
 * attributes exist) and shown as nfit/dirty_shutdown, which is absent
 * when the DIMM has no SMART function, SMART fails, or the count is not
 * marked valid.  A shutdown state marked valid and dirty in that payload
 * (the last shutdown was unsafe) adds flush_fail to nfit/flags.  Later
 * unsafe shutdowns show in the SMART payload (ndctl list -H), not in the
 * attributes.
 */
#include <linux/acpi.h>
#include <linux/device.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include "nfit.h"
#include "intel-smart.h"

static void nfit_mem_health_event(struct nfit_mem *nfit_mem, u32 event)
{
	struct device *dev;

	if (!nfit_mem->nvdimm)
		return;
	dev = nvdimm_dev(nfit_mem->nvdimm);
	if (event != NFIT_NOTIFY_DIMM_HEALTH) {
		dev_dbg(dev, "notification %#x: not a health event, ignored\n",
			event);
		return;
	}
	atomic_inc(&nfit_mem->health_events);
	dev_dbg(dev, "health event\n");
	sysfs_notify(&dev->kobj, "nfit", "flags");
}

/**
 * acpi_nfit_dimm_notify - a notification on a DIMM of a bus
 * @acpi_desc: the bus
 * @handle: the DIMM's NFIT device handle
 * @event: the ACPI notification value (0x81: health changed)
 *
 * For a bus without ACPI devices (nfit_test): what the ACPI notify
 * handler of a DIMM's device does.  Process context; the caller keeps
 * the bus alive.  Returns 0, or -ENODEV when no DIMM has @handle.
 */
int acpi_nfit_dimm_notify(struct acpi_nfit_desc *acpi_desc, u32 handle,
			  u32 event)
{
	struct nfit_mem *nfit_mem;

	list_for_each_entry(nfit_mem, &acpi_desc->dimms, list) {
		if (nfit_mem->handle != handle)
			continue;
		nfit_mem_health_event(nfit_mem, event);
		return 0;
	}
	dev_dbg(acpi_desc->dev, "notification %#x: no DIMM %#x\n", event,
		handle);
	return -ENODEV;
}
EXPORT_SYMBOL_GPL(acpi_nfit_dimm_notify);

static void nfit_dimm_acpi_notify(acpi_handle handle, u32 event, void *data)
{
	nfit_mem_health_event(data, event);
}

static void nfit_dimm_notify_remove(void *data)
{
	struct nfit_mem *nfit_mem = data;

	/* waits for a running handler */
	acpi_remove_notify_handler(nfit_mem->adev->handle, ACPI_DEVICE_NOTIFY,
				   nfit_dimm_acpi_notify);
}

static int nfit_mem_health_init(struct acpi_nfit_desc *acpi_desc,
				struct nfit_mem *nfit_mem)
{
	acpi_status status;

	status = acpi_install_notify_handler(nfit_mem->adev->handle,
					     ACPI_DEVICE_NOTIFY,
					     nfit_dimm_acpi_notify, nfit_mem);
	if (ACPI_FAILURE(status)) {
		dev_dbg(acpi_desc->dev, "DIMM %#x: no notify handler: %s\n",
			nfit_mem->handle, acpi_format_exception(status));
		return 0;
	}
	return devm_add_action_or_reset(acpi_desc->dev,
					nfit_dimm_notify_remove, nfit_mem);
}

/**
 * nfit_health_init - listen to the DIMMs' health notifications
 * @acpi_desc: the bus, its DIMMs registered
 *
 * Only a DIMM with an ACPI device gets notifications from firmware.  The
 * caller adds the bus's unregistration to devres first, so that each
 * handler is removed (waiting for a running one) before the DIMM it
 * notifies is freed: a notification may come at any time.  A handler
 * that cannot be installed costs the notifications only.  Returns 0 or
 * -ENOMEM.
 */
int nfit_health_init(struct acpi_nfit_desc *acpi_desc)
{
	struct nfit_mem *nfit_mem;
	int rc;

	list_for_each_entry(nfit_mem, &acpi_desc->dimms, list) {
		if (!nfit_mem->adev || !nfit_mem->nvdimm)
			continue;
		rc = nfit_mem_health_init(acpi_desc, nfit_mem);
		if (rc)
			return rc;
	}
	return 0;
}

/* Intel function 1 through the bus's ndctl hook: package and payload */
struct nfit_smart_call {
	struct nd_cmd_pkg pkg;
	struct nd_intel_smart smart;
} __packed;

/**
 * nfit_intel_shutdown_probe - the DIMM's dirty shutdown count, at registration
 * @nvdimm: the DIMM, initialised but not yet added (nvdimm_desc.probe)
 *
 * Asks the firmware for the SMART payload once.  The count is kept when
 * the whole payload came back with status success and its shutdown count
 * marked valid; otherwise (no SMART function, an error, a short answer)
 * nfit/dirty_shutdown stays hidden, and a line says why.  A dirty
 * shutdown state (marked valid) in a successful payload marks the DIMM
 * (nfit/flags: flush_fail).
 */
void nfit_intel_shutdown_probe(struct nvdimm *nvdimm)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(nvdimm);
	struct nvdimm_bus_descriptor *nd_desc = &nfit_mem->acpi_desc->nd_desc;
	struct nfit_smart_call call = {
		.pkg = {
			.nd_family = NFIT_FAMILY_INTEL,
			.nd_command = ND_INTEL_SMART,
			.nd_size_out = sizeof(struct nd_intel_smart),
		},
	};
	int cmd_rc, rc;

	if (nfit_mem->family != NFIT_FAMILY_INTEL ||
	    !test_bit(ND_INTEL_SMART, &nfit_mem->dsm_mask) || !nd_desc->ndctl)
		return;
	rc = nd_desc->ndctl(nd_desc, nvdimm, ND_CMD_CALL, &call, sizeof(call),
			    &cmd_rc);
	/* a positive rc: bytes of the payload the firmware left unfilled */
	if (rc || call.smart.status) {
		dev_dbg(nfit_mem->acpi_desc->dev,
			"DIMM %#x: no initial SMART (rc %d, status %#x): dirty shutdown count unknown\n",
			nfit_mem->handle, rc, call.smart.status);
		return;
	}
	/* as 6.1: the state, when valid, whether or not the count is */
	if ((call.smart.flags & ND_INTEL_SMART_SHUTDOWN_VALID) &&
	    call.smart.shutdown_state) {
		nfit_mem->shutdown_dirty = true;
		dev_info(nfit_mem->acpi_desc->dev,
			 "DIMM %#x: its last shutdown was unsafe (SMART shutdown state %u): flush_fail\n",
			 nfit_mem->handle, call.smart.shutdown_state);
	}
	if (!(call.smart.flags & ND_INTEL_SMART_SHUTDOWN_COUNT_VALID)) {
		dev_dbg(nfit_mem->acpi_desc->dev,
			"DIMM %#x: SMART flags %#x: no shutdown count\n",
			nfit_mem->handle, call.smart.flags);
		return;
	}
	nfit_mem->shutdown_count = call.smart.shutdown_count;
	nfit_mem->shutdown_count_valid = true;
}

/* as 6.1: the u32 count printed with "%d" */
static ssize_t dirty_shutdown_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(to_nvdimm(dev));

	return sysfs_emit(buf, "%d\n", (int)nfit_mem->shutdown_count);
}
DEVICE_ATTR_RO(dirty_shutdown);

/**
 * nfit_smart_hidden - is @a one of this file's DIMM attributes, hidden?
 * @nfit_mem: the DIMM
 * @a: an attribute of its nfit/ group
 */
bool nfit_smart_hidden(struct nfit_mem *nfit_mem, struct attribute *a)
{
	return a == &dev_attr_dirty_shutdown.attr &&
		!nfit_mem->shutdown_count_valid;
}
