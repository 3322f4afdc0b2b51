/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit.ko: the ACPI NFIT bus provider.  One acpi_nfit_desc per ACPI0012
 * device; the NFIT is copied once at bind and every object below points
 * into that copy.
 */
#ifndef __NFIT_H__
#define __NFIT_H__

#include <linux/acpi.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include "libnvdimm.h"
#include "table.h"

/* _DSM function sets (UUIDs from the ACPI/Intel DSM specifications) */
#define NFIT_DSM_ROOT_GUID "2f10e7a4-9e91-11e4-89d3-123b93f75cba"
#define NFIT_DSM_INTEL_GUID "4309ac30-0d11-11e4-9191-0800200c9a66"
/* root _DSM of the Intel bus family (firmware activation) */
#define NFIT_DSM_INTEL_BUS_GUID "c7d8acd4-2df8-4b82-9f65-a325335af149"
#define NFIT_DSM_REVISION 1

/* root _DSM functions beyond ARS (6.1's NFIT_CMD_*), ND_CMD_CALL bus family NFIT */
#define NFIT_CMD_TRANSLATE_SPA		5
#define NFIT_CMD_ARS_INJECT_SET		7
#define NFIT_CMD_ARS_INJECT_CLEAR	8
#define NFIT_CMD_ARS_INJECT_GET		9
/* ACPI notification on the NFIT device: new uncorrectable memory errors */
#define NFIT_NOTIFY_UC_MEMORY_ERROR	0x81
/* err_inj_options bit: notify after the injection (ND_ARS_ERR_INJ_OPT_NOTIFY) */
#define NFIT_ARS_INJ_OPT_NOTIFY		0

/*
 * Payloads of the injection functions (bus ND_CMD_CALL, family
 * NVDIMM_BUS_FAMILY_NFIT), as ndctl sends them: input fields, then
 * the output fields from status on.
 */
struct nfit_cmd_ars_err_inj {
	u64 err_inj_spa_range_base;
	u64 err_inj_spa_range_length;
	u8 err_inj_options;
	u32 status;
} __packed;

struct nfit_cmd_ars_err_inj_clr {
	u64 err_inj_clr_spa_range_base;
	u64 err_inj_clr_spa_range_length;
	u32 status;
} __packed;

struct nfit_cmd_ars_err_inj_stat {
	u32 status;
	u32 inj_err_rec_count;
	struct nfit_err_inj_stat_record {
		u64 err_inj_stat_spa_range_base;
		u64 err_inj_stat_spa_range_length;
	} __packed record[];
} __packed;

/**
 * struct nfit_ars - Address Range Scrub state of a bus (ars.c)
 * @work: the scrub
 * @lock: protects the fields below
 * @wait: where the scrub sleeps between polls; woken on @cancel
 * @ready: nfit_ars_init() ran: requests are taken
 * @requested: a scrub is queued or running
 * @running: the work item is scrubbing
 * @again: a notification came while it ran: scrub again after it
 * @cancel: the bus is going: no new scrub, the running one stops
 * @count: scrubs completed (ndbusN/nfit/scrub)
 * @hw_error_scrub: ndbusN/nfit/hw_error_scrub (0 or 1)
 * @clear_err_unit: what the last ARS Cap reported
 * @kn: ndbusN/nfit/scrub, notified when a scrub completes
 */
struct nfit_ars {
	struct work_struct work;
	struct mutex lock; /* the state below */
	wait_queue_head_t wait;
	bool ready;
	bool requested;
	bool running;
	bool again;
	bool cancel;
	unsigned int count;
	int hw_error_scrub;
	u32 clear_err_unit;
	struct kernfs_node *kn;
};

/* ndctl's family numbers (uapi NVDIMM_FAMILY_*) */
#define NFIT_FAMILY_INTEL 0
#define NFIT_FAMILY_NONE -1

/**
 * struct nfit_mem - one DIMM as the NFIT describes it
 * @list: entry in acpi_nfit_desc.dimms
 * @handle: NFIT device handle
 * @phys_id: SMBIOS handle
 * @dcr: its control region
 * @bdw: its block-data window, NULL when none
 * @flush: its flush hint table, NULL when none
 * @mem_flags: OR of the state flags of all its memdevs
 * @has_pm: one of its memdevs maps a PMEM range
 * @adev: its ACPI device (child of ACPI0012 with _ADR = handle), or NULL
 * @family: NFIT_FAMILY_INTEL when its _DSM speaks the Intel set
 * @dsm_mask: _DSM functions the firmware reports
 * @nvdimm: the libnvdimm DIMM
 * @health_events: health notifications received (intel-smart.c)
 * @shutdown_count_valid: @shutdown_count was read at registration
 * @shutdown_count: SMART's dirty shutdown count at registration
 * @shutdown_dirty: SMART's shutdown state was dirty at registration (the
 *	last shutdown was unsafe): nfit/flags shows flush_fail, as in 6.1
 * @acpi_desc: its bus
 * @id: its unique id, as nmemN/nfit/id shows it (its key's name)
 */
struct nfit_mem {
	struct list_head list;
	u32 handle;
	u16 phys_id;
	const struct acpi_nfit_control_region *dcr;
	const struct acpi_nfit_data_region *bdw;
	const struct acpi_nfit_flush_address *flush;
	u16 mem_flags;
	bool has_pm;
	struct acpi_device *adev;
	int family;
	unsigned long dsm_mask;
	struct nvdimm *nvdimm;
	atomic_t health_events;
	bool shutdown_count_valid;
	u32 shutdown_count;
	bool shutdown_dirty;
	struct acpi_nfit_desc *acpi_desc;
	char id[NVDIMM_KEY_DESC_LEN];
};

/**
 * struct acpi_nfit_desc - one NFIT bus
 * @nd_desc: what libnvdimm sees
 * @dev: the ACPI0012 device
 * @adev: its ACPI node, NULL for a mock bus
 * @nvdimm_bus: the registered bus
 * @table: the parsed copy of the NFIT
 * @dimms: struct nfit_mem list
 * @bus_dsm_mask: root _DSM functions the firmware reports
 * @dimm_cmd_mask: when non-zero, the DIMM commands every DIMM of a bus
 *	without ACPI _DSM supports (a mock bus that answers them itself)
 * @dimm_dsm_mask: a mock bus: the Intel DIMM functions its DIMMs answer
 *	through ND_CMD_CALL (health, firmware update and activation), added
 *	to @dimm_cmd_mask for their nfit/dsm_mask
 * @pmem_align: when non-zero, the namespace size granularity per DIMM of
 *	every PMEM region: a region's initial align is this times its
 *	interleave ways (a mock bus of the v4.2 era: PAGE_SIZE).  0, as on
 *	ACPI firmware, keeps the core's default (6.1's)
 * @blk_claims: struct nfit_blk_claim list: the control-register and
 *	block-data-window ranges claimed for BLK regions, one per SPA range
 * @list: entry in core.c's list of registered buses (nfit_get_smbios_id())
 * @ars: Address Range Scrub (ars.c)
 * @bus_intel_dsm_mask: root functions of the Intel bus family (firmware
 *	activation) the firmware reports, or a mock bus answers
 * @fwa_cap: the activation capability once read (intel-firmware.c)
 * @fwa_noidle: nfit/firmware_activate_noidle
 */
struct acpi_nfit_desc {
	struct nvdimm_bus_descriptor nd_desc;
	struct device *dev;
	struct acpi_device *adev;
	struct nvdimm_bus *nvdimm_bus;
	struct nfit_table table;
	struct list_head dimms;
	unsigned long bus_dsm_mask;
	unsigned long dimm_cmd_mask;
	unsigned long dimm_dsm_mask;
	unsigned long pmem_align;
	struct list_head blk_claims;
	struct list_head list;
	struct nfit_ars ars;
	unsigned long bus_intel_dsm_mask;
	enum nvdimm_fwa_capability fwa_cap;
	bool fwa_noidle;
};

static inline struct acpi_nfit_desc *to_acpi_nfit_desc(struct nvdimm_bus_descriptor *nd_desc)
{
	return container_of(nd_desc, struct acpi_nfit_desc, nd_desc);
}

int acpi_nfit_init(struct acpi_nfit_desc *acpi_desc, const void *nfit,
		   u32 len);
int nfit_get_smbios_id(u32 device_handle, u16 *flags);
struct nvdimm_bus *nfit_pm_bus_get(u64 addr);
int nfit_pm_error_scrub(u64 addr);
/* mce.c */
void nfit_mce_register(void);
void nfit_mce_unregister(void);
void nfit_log(void *ctx, bool error, const char *fmt, ...) __printf(3, 4);

/* ars.c */
extern struct device_attribute dev_attr_scrub;
extern struct device_attribute dev_attr_hw_error_scrub;
bool nfit_ars_hidden(struct device *dev, struct attribute *a);
void nfit_ars_setup_cmds(struct acpi_nfit_desc *acpi_desc);
int nfit_ars_init(struct acpi_nfit_desc *acpi_desc);
int acpi_nfit_ars_rescan(struct acpi_nfit_desc *acpi_desc);
void acpi_nfit_notify_event(struct acpi_nfit_desc *acpi_desc, u32 event);
int nfit_bus_cmd_rc(unsigned int cmd, const void *buf, unsigned int len);

/* intel-smart.c */
int acpi_nfit_dimm_notify(struct acpi_nfit_desc *acpi_desc, u32 handle,
			  u32 event);
int nfit_health_init(struct acpi_nfit_desc *acpi_desc);
extern struct device_attribute dev_attr_dirty_shutdown;
bool nfit_smart_hidden(struct nfit_mem *nfit_mem, struct attribute *a);
void nfit_intel_shutdown_probe(struct nvdimm *nvdimm);
/* intel-firmware.c */
extern struct device_attribute dev_attr_firmware_activate_noidle;
bool nfit_fw_hidden(struct device *dev, struct attribute *a);
void nfit_fw_bus_setup(struct acpi_nfit_desc *acpi_desc);
const struct nvdimm_fw_ops *nfit_fw_dimm_ops(struct acpi_nfit_desc *acpi_desc,
					     struct nfit_mem *nfit_mem);

/* ND_CMD_DIMM_FLAGS: what a BLK DIMM needs around block-window accesses */
#define NFIT_BLK_READ_FLUSH	BIT(0)	/* invalidate the aperture before reads */
#define NFIT_BLK_DCR_LATCH	BIT(1)	/* read the command back before the copy */

/* the status bits a DIMM may report (the others are reserved, v4.8+) */
#define NFIT_BLK_STATUS_MASK	0x80000037U

/* command word: DPA line number, length in lines, direction */
#define NFIT_BLK_CMD_DPA	GENMASK_ULL(47, 0)
#define NFIT_BLK_CMD_LEN_SHIFT	48
#define NFIT_BLK_CMD_MAX_LINES	255U
#define NFIT_BLK_CMD_WRITE	BIT_ULL(56)

/**
 * struct nfit_blk_regs - the mapped registers of one block window
 * @cmd: command register (64-bit)
 * @status: status register (32-bit)
 */
struct nfit_blk_regs {
	void __iomem *cmd;
	void __iomem *status;
};

struct nfit_blk_reports;

/**
 * struct nfit_blk - one BLK region's block windows: its provider_data
 * @acpi_desc: its bus
 * @nfit_mem: its DIMM
 * @geom: the windows as the NFIT describes them, checked at nfit probe
 * @num_lanes: windows in use: geom.windows, at most ND_BLK_MAX_LANES
 * @span: most bytes one command moves counted from a line start: the
 *	window rounded down to whole lines, at most 255 lines
 * @regs: per window in use, its registers (set by enable)
 * @aperture: the block-data-window range, mapped (set by enable)
 * @dimm_flags: NFIT_BLK_* flags of the DIMM (set by enable)
 * @adr_noted: the "no flush hint" note was printed
 * @reports: failed reads waiting to be reported as bad ranges (blk.c)
 *
 * Allocated at nfit probe for the bus device's lifetime; the mappings
 * belong to the region device between enable and the region's disable,
 * the only time the core calls do_io.
 */
struct nfit_blk {
	struct acpi_nfit_desc *acpi_desc;
	struct nfit_mem *nfit_mem;
	struct nfit_blk_geom geom;
	unsigned int num_lanes;
	u32 span;
	struct nfit_blk_regs *regs;
	void *aperture;
	u32 dimm_flags;
	bool adr_noted;
	struct nfit_blk_reports *reports;
};

extern const struct nd_blk_ops nfit_blk_ops;
struct nfit_blk *nfit_blk_init(struct acpi_nfit_desc *acpi_desc,
			       struct nfit_mem *nfit_mem,
			       const struct acpi_nfit_memory_map *memdev);

#endif /* __NFIT_H__ */
