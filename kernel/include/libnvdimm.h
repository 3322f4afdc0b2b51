/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libnvdimm provider API: what a platform driver (nfit.ko, nfit_test.ko)
 * uses to describe a bus, its DIMMs and its regions to the core.
 *
 * This is our own interface; it mirrors the shape of the v4.2 API
 * (nvdimm_bus_register(), nvdimm_create(), nvdimm_pmem_region_create())
 * so the provider code reads the way the documentation describes.
 */
#ifndef __LIBNVDIMM_OOT_H__
#define __LIBNVDIMM_OOT_H__

#include <linux/types.h>
#include <linux/bits.h>
#include <linux/ioport.h>
#include <linux/sysfs.h>
#include <linux/uuid.h>
#include <uapi/linux/ndctl.h>

/* Constants of the v4.2 ABI that the 6.1 uapi header no longer carries. */
#ifndef ND_DEVICE_NAMESPACE_BLK
#define ND_DEVICE_NAMESPACE_BLK 6
#endif
#define ND_DRIVER_NAMESPACE_BLK_MASK BIT(ND_DEVICE_NAMESPACE_BLK)

/* Largest envelope a command may carry through the ioctl path. */
#define ND_IOCTL_MAX_BUFLEN (4UL << 20)

struct nvdimm_bus;
struct nvdimm;
struct nd_region;
struct device;
struct module;

struct nvdimm_bus_descriptor;

/*
 * Runtime firmware activation (kernel/nvdimm/firmware.c, 6.1's ABI:
 * docs/firmware.md).  The provider reports states, results and the
 * bus's capability through these ops; the core turns them into the
 * ndbusN/firmware/ and nmemN/firmware/ attributes.
 */
enum nvdimm_fwa_state {
	NVDIMM_FWA_INVALID,	/* the provider could not tell */
	NVDIMM_FWA_IDLE,
	NVDIMM_FWA_ARMED,
	NVDIMM_FWA_BUSY,
	NVDIMM_FWA_ARM_OVERFLOW,	/* bus only: too many DIMMs armed */
};

enum nvdimm_fwa_result {
	NVDIMM_FWA_RESULT_INVALID,
	NVDIMM_FWA_RESULT_NONE,
	NVDIMM_FWA_RESULT_SUCCESS,
	NVDIMM_FWA_RESULT_NOTSTAGED,
	NVDIMM_FWA_RESULT_NEEDRESET,
	NVDIMM_FWA_RESULT_FAIL,
	NVDIMM_FWA_RESULT_BUSY,
};

/* ordered: the attributes exist from NVDIMM_FWA_CAP_QUIESCE on */
enum nvdimm_fwa_capability {
	NVDIMM_FWA_CAP_INVALID,
	NVDIMM_FWA_CAP_NONE,
	NVDIMM_FWA_CAP_QUIESCE,	/* the platform quiesces the memory */
	NVDIMM_FWA_CAP_LIVE,	/* activation needs no quiet period */
};

/**
 * struct nvdimm_bus_fw_ops - a provider's bus-wide firmware activation
 * @state: the bus's activation state
 * @capability: what activation the platform offers (static)
 * @activate: activate the staged firmware of every armed DIMM; 0 or a
 *	negative errno.  Called in process context, possibly from within
 *	hibernate_quiet_exec() (every task frozen, every device suspended)
 */
struct nvdimm_bus_fw_ops {
	enum nvdimm_fwa_state (*state)(struct nvdimm_bus_descriptor *nd_desc);
	enum nvdimm_fwa_capability (*capability)(struct nvdimm_bus_descriptor *nd_desc);
	int (*activate)(struct nvdimm_bus_descriptor *nd_desc);
};

/**
 * struct nvdimm_fw_ops - a provider's per-DIMM firmware activation
 * @state: NVDIMM_FWA_IDLE, _ARMED or _BUSY, or _INVALID
 * @result: the result of the last activation
 * @arm: arm (@arm true) or disarm the DIMM; 0 or a negative errno
 */
struct nvdimm_fw_ops {
	enum nvdimm_fwa_state (*state)(struct nvdimm *nvdimm);
	enum nvdimm_fwa_result (*result)(struct nvdimm *nvdimm);
	int (*arm)(struct nvdimm *nvdimm, bool arm);
};

/**
 * typedef ndctl_fn - provider hook executing one bus or DIMM command
 * @desc: the bus descriptor registered with nvdimm_bus_register()
 * @nvdimm: target DIMM, or NULL for a bus command
 * @cmd: ND_CMD_* number
 * @buf: envelope: input fields followed by output fields
 * @buf_len: envelope length in bytes
 * @cmd_rc: firmware status translated to an errno (0 when clean)
 *
 * Returns a negative errno when the command could not be issued, 0 when
 * the output was filled completely, or the number of output bytes left
 * unfilled (a short transfer).
 */
typedef int (*ndctl_fn)(struct nvdimm_bus_descriptor *desc,
			struct nvdimm *nvdimm, unsigned int cmd, void *buf,
			unsigned int buf_len, int *cmd_rc);

/**
 * struct nvdimm_bus_descriptor - what a provider tells the core about a bus
 * @attr_groups: extra sysfs groups for ndbusN (e.g. "nfit/")
 * @cmd_mask: bus commands (bit per ND_CMD_*) the provider implements
 * @provider_name: value of ndbusN/provider
 * @module: provider module, pinned while a control device is open
 * @ndctl: command hook, may be NULL when no command is supported
 * @fw_ops: runtime firmware activation, NULL when the bus has none
 */
struct nvdimm_bus_descriptor {
	const struct attribute_group **attr_groups;
	unsigned long cmd_mask;
	const char *provider_name;
	struct module *module;
	ndctl_fn ndctl;
	const struct nvdimm_bus_fw_ops *fw_ops;
};

/* nvdimm_create() flags */
enum {
	/* DPA aliases between PMEM and BLK: labels decide ownership (v4.2) */
	NDD_ALIASING = 0,
	/* firmware reports the DIMM not armed: regions using it are read-only */
	NDD_UNARMED = 1,
	/*
	 * the platform lists flush hints the provider could not map: writes
	 * through regions using the DIMM cannot be made durable, so those
	 * regions refuse to enable (the DIMM itself stays usable)
	 */
	NDD_FLUSH_UNMAPPED = 2,
	/*
	 * the DIMM's label area describes its PMEM capacity even while it is
	 * blank: regions using it are label-backed from the start (6.1: the
	 * provider passes NDD_LABELING to nvdimm_create(); cxl_pmem does)
	 */
	NDD_LABEL_BACKED = 3,
};

/* Passphrase security (kernel/nvdimm/security.c), the shape of 6.1's API */
#define NVDIMM_PASSPHRASE_LEN 32
/* the DIMM's key in the kernel keyring: "nvdimm:<dimm id>" */
#define NVDIMM_KEY_DESC_LEN 22

/**
 * struct nvdimm_key_data - a passphrase as the DIMM takes it
 * @data: its bytes (an encrypted key's decrypted payload)
 */
struct nvdimm_key_data {
	u8 data[NVDIMM_PASSPHRASE_LEN];
};

/* security state bits, what get_flags() reports (6.1's numbering) */
enum nvdimm_security_bits {
	NVDIMM_SECURITY_DISABLED,
	NVDIMM_SECURITY_UNLOCKED,
	NVDIMM_SECURITY_LOCKED,
	NVDIMM_SECURITY_FROZEN,
	NVDIMM_SECURITY_OVERWRITE,
};

/* which passphrase an operation uses */
enum nvdimm_passphrase_type {
	NVDIMM_USER,
	NVDIMM_MASTER,
};

struct nvdimm;

/**
 * struct nvdimm_security_ops - a provider's passphrase-security operations
 * @get_flags: the NVDIMM_SECURITY_* bits of the user (@ptype NVDIMM_USER)
 *	or master passphrase; 0 when the DIMM has no security
 * @freeze: refuse every further security change until the next reset
 * @change_key: set or replace the passphrase of @ptype (@old all zeros
 *	when none was set)
 * @unlock: unlock a locked DIMM
 * @disable: remove the user passphrase
 * @erase: cryptographic erase with the passphrase of @ptype
 * @overwrite: start overwriting the whole media
 * @query_overwrite: 0 once the overwrite finished, -EBUSY while it runs
 *
 * Each returns 0 or a negative errno (6.1's: -EINVAL for a wrong
 * passphrase, -EIO/-ENXIO for a wrong state, -EOPNOTSUPP when absent).
 */
struct nvdimm_security_ops {
	unsigned long (*get_flags)(struct nvdimm *nvdimm,
				   enum nvdimm_passphrase_type ptype);
	int (*freeze)(struct nvdimm *nvdimm);
	int (*change_key)(struct nvdimm *nvdimm,
			  const struct nvdimm_key_data *old,
			  const struct nvdimm_key_data *new,
			  enum nvdimm_passphrase_type ptype);
	int (*unlock)(struct nvdimm *nvdimm, const struct nvdimm_key_data *key);
	int (*disable)(struct nvdimm *nvdimm, const struct nvdimm_key_data *key);
	int (*erase)(struct nvdimm *nvdimm, const struct nvdimm_key_data *key,
		     enum nvdimm_passphrase_type ptype);
	int (*overwrite)(struct nvdimm *nvdimm,
			 const struct nvdimm_key_data *key);
	int (*query_overwrite)(struct nvdimm *nvdimm);
};

/**
 * struct nvdimm_desc - description of one DIMM for nvdimm_create()
 * @provider_data: opaque pointer returned by nvdimm_provider_data()
 * @groups: extra sysfs groups for nmemN (e.g. "nfit/")
 * @flags: NDD_* bits
 * @cmd_mask: DIMM commands (bit per ND_CMD_*) the provider implements
 * @num_flush: number of entries in @flush_wpq
 * @flush_wpq: write-pending-queue flush hint registers, already mapped
 * @fw_ops: runtime firmware activation, NULL when the DIMM has none
 * @sec_ops: passphrase security, NULL when the DIMM has none
 * @dimm_id: the DIMM's unique id (its key is "nvdimm:<dimm_id>"), or NULL
 * @probe: reads provider state the DIMM's @groups depend on (it may send
 *	commands through the bus's ndctl hook), called by nvdimm_create()
 *	before the DIMM is added; NULL for none
 */
struct nvdimm_desc {
	void *provider_data;
	const struct attribute_group **groups;
	unsigned long flags;
	unsigned long cmd_mask;
	int num_flush;
	void __iomem **flush_wpq;
	const struct nvdimm_fw_ops *fw_ops;
	const struct nvdimm_security_ops *sec_ops;
	const char *dimm_id;
	void (*probe)(struct nvdimm *nvdimm);
};

/**
 * struct nd_mapping_desc - one DIMM's contribution to a region
 * @nvdimm: the DIMM
 * @start: first DIMM physical address (DPA) of the contribution
 * @size: length of the contribution in bytes
 * @position: position of the DIMM in the interleave set (cookie order)
 */
struct nd_mapping_desc {
	struct nvdimm *nvdimm;
	u64 start;
	u64 size;
	int position;
};

/**
 * struct nd_interleave_set - identity of a PMEM interleave set
 * @cookie1: v1.1 label cookie (numeric offset order, 16-byte elements)
 * @cookie2: v1.2 label cookie (48-byte elements)
 * @altcookie: cookie v4.2-era kernels wrote (memcmp order), read only
 * @type_guid: address-range type GUID of the SPA range
 */
struct nd_interleave_set {
	u64 cookie1;
	u64 cookie2;
	u64 altcookie;
	guid_t type_guid;
};

/* nd_region_desc flags (the values of 6.1's enum of the same names) */
enum {
	/*
	 * the provider's range is memory the kernel may make struct pages
	 * for: a raw io namespace of the region is mapped with them (its
	 * mode reads "memory", fsdax without a pfn device, unless
	 * force_raw), and pfn/dax devices on it map their data
	 */
	ND_REGION_PAGEMAP = 0,
	/* persistence_domain: the platform flushes CPU caches on power loss */
	ND_REGION_PERSIST_CACHE = 1,
	/*
	 * persistence_domain: stores are durable once they reach the memory
	 * controller (ADR; a CXL device)
	 */
	ND_REGION_PERSIST_MEMCTRL = 2,
	/*
	 * stores are durable only once the provider's @flush hook returned
	 * 0 (virtio-pmem: the host syncs its file): DAX on the region is
	 * not synchronous, so MAP_SYNC is refused
	 */
	ND_REGION_ASYNC = 3,
	/*
	 * the provider chose the region's id (nd_region_desc.memregion, from
	 * memregion_alloc(): a CXL region's id); the core allocates none
	 */
	ND_REGION_CXL = 4,
};

/* most block windows a BLK region uses (v4.2's ND_MAX_LANES) */
#define ND_BLK_MAX_LANES 256

/**
 * struct nd_blk_ops - a provider's block-window access to a BLK region's DIMM
 * @enable: map the DIMM's control registers and block-data windows and
 *	check them; called from the BLK region's probe with its device lock
 *	held, everything acquired devm-managed on @dev (the region device:
 *	released when the region is disabled).  Returns 0, or a negative
 *	errno with a dev_err line: the region then stays disabled.
 * @do_io: move @len bytes between @buf and the DIMM's media at DPA @dpa
 *	through block window @lane (0 <= @lane < the region's lane count).
 *	The core holds the lane (a spinlock) across the call, so the window
 *	and its registers are the caller's alone; the provider splits the
 *	transfer into window-sized pieces itself.  Runs only between a
 *	successful @enable and the region's disable, never sleeps (the BTT
 *	calls it under its own spinlocks), and [@dpa, +@len) lies inside the
 *	region's mapping.  A write is durable when it returns 0.  Returns 0,
 *	or -EIO when the DIMM reported an error status (logged; a failed
 *	write may have reached the media for pieces before the failing one).
 */
struct nd_blk_ops {
	int (*enable)(struct nd_region *nd_region, struct device *dev);
	int (*do_io)(struct nd_region *nd_region, unsigned int lane, u64 dpa,
		     void *buf, size_t len, bool write);
};

/**
 * struct nd_region_desc - description of a region for region creation
 * @res: system-physical address range (PMEM); unused for BLK regions
 * @mapping: @num_mappings DIMM contributions
 * @num_mappings: number of entries in @mapping
 * @attr_groups: extra sysfs groups for regionN (e.g. "nfit/")
 * @nd_set: interleave set identity, NULL when the range has no DIMMs
 * @provider_data: opaque pointer for the provider
 * @numa_node: NUMA node of the range
 * @target_node: memory target node, NUMA_NO_NODE when unknown
 * @align: initial namespace size granularity (the region's ``align``
 *	attribute): a multiple of PAGE_SIZE x @num_mappings, a power of 2
 *	per DIMM, at most the region's size.  0 takes the core's default,
 *	6.1's: 16 MiB (times the ways when they do not divide it).
 * @blk_ops: BLK regions: block-window access; NULL when the provider has
 *	none (the region's namespaces can be configured, not enabled)
 * @num_lanes: BLK regions: block windows @blk_ops may use at once (the
 *	DIMM's window count), 1 to ND_BLK_MAX_LANES
 * @flags: ND_REGION_* bits
 * @memregion: with ND_REGION_CXL: the region's id (regionN), a memregion
 *	id the provider holds for the region's lifetime
 * @flush: PMEM regions whose durability needs the provider (with
 *	ND_REGION_ASYNC): makes every store to the range made before the
 *	call durable; process context, may sleep.  Returns 0, or a negative
 *	errno when durability could not be had (then nvdimm_flush()
 *	returns it and a writer waiting on it gets an I/O error).  NULL: a
 *	memory barrier and the DIMMs' flush hints make stores durable.
 */
struct nd_region_desc {
	struct resource *res;
	struct nd_mapping_desc *mapping;
	u16 num_mappings;
	const struct attribute_group **attr_groups;
	struct nd_interleave_set *nd_set;
	void *provider_data;
	int numa_node;
	int target_node;
	unsigned long align;
	const struct nd_blk_ops *blk_ops;
	unsigned int num_lanes;
	unsigned long flags;
	int memregion;
	int (*flush)(struct nd_region *nd_region);
};

struct nvdimm_bus *nvdimm_bus_register(struct device *parent,
				       struct nvdimm_bus_descriptor *desc);
void nvdimm_bus_unregister(struct nvdimm_bus *nvdimm_bus);
struct nvdimm_bus *to_nvdimm_bus(struct device *dev);
struct nvdimm_bus_descriptor *to_nd_desc(struct nvdimm_bus *nvdimm_bus);
struct device *to_nvdimm_bus_dev(struct nvdimm_bus *nvdimm_bus);

struct nvdimm *nvdimm_create(struct nvdimm_bus *nvdimm_bus,
			     const struct nvdimm_desc *desc);
void nvdimm_delete(struct nvdimm *nvdimm);
struct nvdimm *to_nvdimm(struct device *dev);
void *nvdimm_provider_data(struct nvdimm *nvdimm);
const char *nvdimm_name(struct nvdimm *nvdimm);
struct device *nvdimm_dev(struct nvdimm *nvdimm);

struct nd_region *nvdimm_pmem_region_create(struct nvdimm_bus *nvdimm_bus,
					    struct nd_region_desc *desc);
struct nd_region *nvdimm_blk_region_create(struct nvdimm_bus *nvdimm_bus,
					   struct nd_region_desc *desc);
void nvdimm_region_delete(struct nd_region *nd_region);
struct nd_region *to_nd_region(struct device *dev);
void *nd_region_provider_data(struct nd_region *nd_region);
/*
 * Bad ranges (kernel/nvdimm/badrange.c): system-physical ranges a
 * provider learnt are poisoned (ARS records, a machine check, an
 * injection), kept per bus; regions and namespaces turn them into their
 * badblocks lists when told with nvdimm_bus_badrange_changed().
 */
int nvdimm_bus_add_badrange(struct nvdimm_bus *nvdimm_bus, u64 addr,
			    u64 length);
void nvdimm_bus_clear_badrange(struct nvdimm_bus *nvdimm_bus, u64 addr,
			       u64 length);
void nvdimm_bus_badrange_changed(struct nvdimm_bus *nvdimm_bus);

int nvdimm_bus_cmd(struct nvdimm_bus *nvdimm_bus, unsigned int cmd,
		   void *buf, unsigned int len, int *cmd_rc);
int nvdimm_flush(struct nd_region *nd_region);
bool is_nvdimm_sync(struct nd_region *nd_region);
int nvdimm_has_cache(struct nd_region *nd_region);
u64 nd_fletcher64(const void *addr, size_t len, bool le);

/* the kernel's (arch/x86/lib/usercopy_64.c), declared in its libnvdimm.h */
void arch_invalidate_pmem(void *addr, size_t size);

#endif /* __LIBNVDIMM_OOT_H__ */
