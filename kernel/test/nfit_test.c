// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test.ko: a mock NVDIMM platform for the test build.
 *
 * Two platform devices, nfit_test.0 and nfit_test.1, each describe their
 * DIMMs in an NFIT built here and hand it to nfit.ko's acpi_nfit_init(),
 * so the same table walker, DIMM and region registration run as on ACPI
 * hardware.  The DIMM commands an ACPI platform answers with _DSM are
 * answered by nfit_test_ctl() (preset in the bus descriptor), from mock
 * label storage, with firmware status codes, and with faults injected on
 * request.  The DIMMs' block windows answer the register protocol of
 * nfit.ko's BLK I/O (commands, read-back, status) as a device would.
 *
 * Media: every DIMM owns NT_DIMM_SIZE bytes of pages (its DPA space).
 * A persistent-memory range is a vmap() of its member DIMMs' pages in
 * interleave order (NT_ILEAVE = one page per line), so a byte written
 * through the range is the byte at the matching DPA of the matching DIMM,
 * as on real hardware where PMEM and BLK access alias.  Control regions,
 * block-window apertures and flush hints are small vmalloc buffers.  All
 * of it sits at fake physical addresses (nfit_test.h) that
 * nfit_test_iomap.ko resolves for the test build's wrapped calls.
 *
 * Sizes, in one place (docs/nfit_test.md has the same table):
 *
 *   nfit_test.0  4 DIMMs, handles (node,socket,imc,chan,dimm) 0.0.0.0.0,
 *                0.0.0.0.1, 0.0.1.0.0, 0.0.1.0.1; NT_DIMM_SIZE each
 *     SPA 1      PM, 2-way: DPA [0, 16M) of DIMM 0 and 1       = 32 MiB
 *     SPA 2      PM, 4-way: DPA [16M, 32M) of DIMM 0..3        = 64 MiB
 *     SPA 3..6   control region registers, NT_DCR_SIZE per DIMM
 *     SPA 7..10  block-window aperture, NT_BDW_SIZE per DIMM (1 window,
 *                reaching DPA [0, 32M): one BLK region per DIMM); the
 *                windows are emulated devices (blk_variant: other tables)
 *     labels     NT_LABEL_SIZE per DIMM, max_xfer NT_MAX_XFER
 *     flush      one hint per DIMM
 *   nfit_test.1  1 DIMM (handle 0), no block window, no label commands;
 *                its memory device map reports the DIMM lost its data
 *                (save, restore and flush failed, not armed)
 *     SPA 1      PM, 1-way: DPA [0, 32M) of DIMM 0             = 32 MiB
 *
 *   Both are the v4.2 era's platform: a PMEM namespace's size need only
 *   be a multiple of PAGE_SIZE x ways (each region's initial align).
 *
 *   guest memory: 5 x 32 MiB of media + 4 x 128 KiB of labels.
 *
 *   topology=6.1 (nt_topo61 below): Linux 6.1's mock instead, for ndctl
 *   v76.1's test suite: the same four DIMMs and PM ranges with 6.1's
 *   region offsets and control regions; nfit_test.1 with two DIMMs on
 *   node 1 and label areas.
 *
 * Poison: every DIMM has a bitmap of poisoned media lines (64 bytes of
 * DPA each), set and cleared through debugfs, the error-injection
 * functions and Clear Error; ARS reports it (nfit_test_ars.c).  A read through a PM
 * range with copy_mc_to_kernel() (nd_pmem, nvdimm_read_bytes()) stops at
 * the first poisoned byte, as a machine check would stop it; a
 * block-window read command over a poisoned line completes with the
 * media-error status, as the DIMM reports an uncorrectable line; stores
 * do not clear poison (the knob does), and the "media" blob and the label
 * area ignore it.
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/platform_device.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/sizes.h>
#include <linux/uuid.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/bitmap.h>
#include <linux/atomic.h>
#include <linux/ctype.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/kmod.h>
#include <asm/unaligned.h>
#include "nfit.h"
#include "nfit_test.h"
#include "nfit_test_ars.h"
#include "nfit_test_smart.h"
#include "nfit_test_fw.h"
#include "intel-firmware.h"
#include "nfit_test_security.h"
#include "intel-security.h"

#define NT_DIMM_SIZE	SZ_32M		/* DPA space (media) of every DIMM */
#define NT_LABEL_SIZE	SZ_128K		/* label storage: GET_CONFIG_SIZE */
#define NT_MAX_XFER	SZ_4K		/* largest label transfer: max_xfer */
#define NT_ILEAVE	PAGE_SIZE	/* interleave line of the PM ranges */
#define NT_DCR_SIZE	SZ_4K		/* control registers of one DIMM */
#define NT_DCR_SIZE_V61	12		/* 6.1's: command and status only */
#define NT_BDW_SIZE	SZ_16K		/* block-window aperture of one DIMM */
#define NT_FLUSH_STRIDE	64		/* one flush hint per cache line */
#define NT_BUS_SPAN	BIT_ULL(36)	/* fake address space per bus */
#define NT_CALL_LEN	128		/* ND_CMD_CALL answer (cmd_call=1) */
#define NT_POISON_LINE	64		/* poison granularity: a cache line */
#define NT_POISON_BITS	(NT_DIMM_SIZE / NT_POISON_LINE)

#define NT_MAX_DIMMS	4
#define NT_MAX_WAYS	4	/* members of one PM range */
#define NT_MAX_SETS	2
#define NT_MAX_HINTS	8	/* flush hints per DIMM: 6.1's */

/* NFIT device handle: node[27:16] socket[15:12] imc[11:8] chan[7:4] dimm[3:0] */
#define NFIT_DIMM_HANDLE(node, socket, imc, chan, dimm)			\
	((((node) & 0xfff) << 16) | (((socket) & 0xf) << 12) |		\
	 (((imc) & 0xf) << 8) | (((chan) & 0xf) << 4) | ((dimm) & 0xf))

/* control region identity; format interface codes (JEDEC) */
#define NT_VENDOR	0xabcd
#define NT_REVISION	1
#define NT_FORMAT	0x201		/* block windows (v4.2's only format) */
#define NT_FORMAT_BYTE	0x101		/* byte addressable, no energy source */
#define NT_FORMAT_BYTEN	0x301		/* byte addressable, energy backed */
#define NT_MFG_LOCATION	0xa		/* 6.1's mock: manufacturing location */
#define NT_MFG_YEAR	2016		/* and date (big endian in the table) */

/* Intel DSM firmware status codes */
enum {
	NT_ST_SUCCESS = 0,
	NT_ST_UNSUPPORTED = 1,
	NT_ST_NO_DEVICE = 2,
	NT_ST_BAD_INPUT = 3,
	NT_ST_HW_ERROR = 4,
	NT_ST_RETRY = 5,
	NT_ST_UNKNOWN = 6,
};

/**
 * struct nt_pm_set - one persistent-memory SPA range
 * @range: its SPA range index
 * @ways: number of member DIMMs
 * @dimm: member DIMMs (index into the topology), in interleave order
 * @dpa: first DPA of each member's part
 * @size: bytes each member contributes
 * @offset: region_offset of each member's memory device map (what the
 *	interleave-set cookies are computed from; the mock's media is
 *	interleaved NT_ILEAVE by NT_ILEAVE whatever it says)
 * @flags: state flags (ACPI_NFIT_MEM_*) of each member's map
 */
struct nt_pm_set {
	u16 range;
	u8 ways;
	u8 dimm[NT_MAX_WAYS];
	u64 dpa;
	u64 size;
	u64 offset[NT_MAX_WAYS];
	u16 flags[NT_MAX_WAYS];
};

/**
 * struct nt_dimm_desc - one DIMM of a topology
 * @handle: NFIT device handle
 * @phys_id: physical_id (SMBIOS handle) of its maps
 * @dcr: index of its control region (the block windows' on blk buses)
 * @pm_dcr: index of the control region its PM maps name, when it has a
 *	second, byte-addressable one (6.1's nfit_test.0); 0: @dcr
 * @dcr_range: SPA range of its control registers (blk buses)
 * @bdw_range: SPA range of its block-window aperture (blk buses)
 * @bdw_flags: state flags of its map of that range
 */
struct nt_dimm_desc {
	u32 handle;
	u16 phys_id;
	u16 dcr;
	u16 pm_dcr;
	u16 dcr_range;
	u16 bdw_range;
	u16 bdw_flags;
};

/* the label commands (nfit_test.0); NT_FW_CMDS: all the mock answers */
#define NT_CONFIG_CMDS	(BIT(ND_CMD_GET_CONFIG_SIZE) | \
			 BIT(ND_CMD_GET_CONFIG_DATA) | BIT(ND_CMD_SET_CONFIG_DATA))
#define NT_LABEL_CMDS	(BIT(ND_CMD_DIMM_FLAGS) | NT_CONFIG_CMDS)
#define NT_FW_CMDS	(NT_LABEL_CMDS | BIT(ND_CMD_CALL))

/**
 * struct nt_topology - what one nfit_test.N describes
 * @nr_dimms: DIMMs
 * @dimm: them
 * @nr_sets: persistent-memory ranges
 * @set: the ranges
 * @blk: every DIMM has a block window (DCR with a window, DCR and BDW SPA
 *	ranges, a BDW structure)
 * @nr_hints: flush hints per DIMM (0: none)
 * @cmds: DIMM commands the mock firmware answers (ND_CMD_* bits)
 * @fw: the DIMMs have the rest of nfit_test.0's firmware: security, and
 *	the smart, cmd_call and fw_update knobs
 * @mem_flags: state flags (ACPI_NFIT_MEM_*) of every memory device map
 * @format: format interface code of each DIMM's (first) control region
 * @pm_format: that of the second control region (@dimm's @pm_dcr)
 * @v61: 6.1's table layout: SPA ranges without the location cookie
 *	(56 bytes), control regions without block windows cut before their
 *	window fields, manufacturing fields valid, platform capabilities
 * @unmapped: a DIMM with a map of this many bytes to no SPA range (range
 *	index 0: 6.1's nfit_test.1 second DIMM, "map failed"); 0: none
 * @unmapped_flags: that map's state flags
 * @vcd_size: bytes of a virtual CD range (index 0, no DIMM); 0: none
 * @smart: the DIMMs have the SMART firmware whatever the smart knob says
 * @fw_update: the DIMMs and the bus have the firmware update and
 *	activation functions whatever the fw_update knob says
 * @knob_base: N of the first DIMM's test_dimmN device
 */
struct nt_topology {
	u8 nr_dimms;
	struct nt_dimm_desc dimm[NT_MAX_DIMMS];
	u8 nr_sets;
	struct nt_pm_set set[NT_MAX_SETS];
	bool blk;
	u8 nr_hints;
	unsigned long cmds;
	bool fw;
	u16 mem_flags;
	u16 format;
	u16 pm_format;
	bool v61;
	u64 unmapped;
	u16 unmapped_flags;
	u64 vcd_size;
	bool smart;
	bool fw_update;
	u8 knob_base;
};

/*
 * DIMM @i, handle @h, of a bus with block windows: control regions @blk
 * and @pm (0: none), control and aperture ranges @ctl and @ap
 */
#define NT_DIMM(i, h, blk, pm, ctl, ap)	{ .handle = (h), .phys_id = (i), \
					  .dcr = (blk), .pm_dcr = (pm), \
					  .dcr_range = (ctl), .bdw_range = (ap) }

/* v4.2's platform (the default, topology=v4.2) */
static const struct nt_topology nt_topo[] = {
	{
		.nr_dimms = 4,
		.dimm = {
			NT_DIMM(0, NFIT_DIMM_HANDLE(0, 0, 0, 0, 0), 1, 0, 3, 7),
			NT_DIMM(1, NFIT_DIMM_HANDLE(0, 0, 0, 0, 1), 2, 0, 4, 8),
			NT_DIMM(2, NFIT_DIMM_HANDLE(0, 0, 1, 0, 0), 3, 0, 5, 9),
			NT_DIMM(3, NFIT_DIMM_HANDLE(0, 0, 1, 0, 1), 4, 0, 6, 10),
		},
		.nr_sets = 2,
		.set = {
			{ .range = 1, .ways = 2, .dimm = { 0, 1 }, .dpa = 0,
			  .size = NT_DIMM_SIZE / 2,
			  .offset = { 0, NT_ILEAVE } },
			{ .range = 2, .ways = 4, .dimm = { 0, 1, 2, 3 },
			  .dpa = NT_DIMM_SIZE / 2, .size = NT_DIMM_SIZE / 2,
			  .offset = { 0, NT_ILEAVE, 2 * NT_ILEAVE,
				      3 * NT_ILEAVE } },
		},
		.blk = true,
		.nr_hints = 1,
		.cmds = NT_LABEL_CMDS,
		.fw = true,
		.format = NT_FORMAT,
	}, {
		.nr_dimms = 1,
		.dimm = { { .handle = NFIT_DIMM_HANDLE(0, 0, 0, 0, 0),
			    .dcr = 1 } },
		.nr_sets = 1,
		.set = {
			{ .range = 1, .ways = 1, .dimm = { 0 }, .dpa = 0,
			  .size = NT_DIMM_SIZE },
		},
		.knob_base = 4,
		/* as v4.2's nfit_test.1: a DIMM whose data was lost */
		.mem_flags = ACPI_NFIT_MEM_SAVE_FAILED |
			ACPI_NFIT_MEM_RESTORE_FAILED |
			ACPI_NFIT_MEM_FLUSH_FAILED | ACPI_NFIT_MEM_NOT_ARMED,
		.format = NT_FORMAT,
	},
};

#define NT_HE	ACPI_NFIT_MEM_HEALTH_ENABLED

/*
 * 6.1's platform (topology=6.1): the tables of Linux 6.1's
 * tools/testing/nvdimm/test/nfit.c, which ndctl v76.1's test suite was
 * written against.  nfit_test.0: v4.2's four DIMMs and two PM ranges,
 * now with 6.1's region offsets (their byte order differs from their
 * numeric order, so the legacy cookie differs from the v1.1 one), a
 * byte-addressable control region per DIMM beside the block-window one,
 * 8 flush hints each, platform capabilities, and the SMART firmware.
 * 6.1 also hot-adds a fifth DIMM (0x1000) with a _FIT notification right
 * after probe; under upstream's mock built here that evaluation fails
 * ("failed to evaluate _FIT") and the suite runs with four, so they are
 * four here.  nfit_test.1: two DIMMs with label areas on node 1: the
 * first maps the PM range and reports its data lost, the second maps no
 * range (map failed); and a virtual CD range.
 */
static const struct nt_topology nt_topo61[] = {
	{
		.nr_dimms = 4,
		.dimm = {
			NT_DIMM(0, NFIT_DIMM_HANDLE(0, 0, 0, 0, 0), 1, 5, 3, 7),
			NT_DIMM(1, NFIT_DIMM_HANDLE(0, 0, 0, 0, 1), 2, 6, 4, 8),
			NT_DIMM(2, NFIT_DIMM_HANDLE(0, 0, 1, 0, 0), 3, 7, 5, 9),
			{ .handle = NFIT_DIMM_HANDLE(0, 0, 1, 0, 1), .phys_id = 3,
			  .dcr = 4, .pm_dcr = 8, .dcr_range = 6, .bdw_range = 10,
			  .bdw_flags = NT_HE },
		},
		.nr_sets = 2,
		.set = {
			{ .range = 1, .ways = 2, .dimm = { 0, 1 }, .dpa = 0,
			  .size = NT_DIMM_SIZE / 2,
			  .offset = { 1, BIT_ULL(8) },
			  .flags = { 0, NT_HE } },
			{ .range = 2, .ways = 4, .dimm = { 0, 1, 2, 3 },
			  .dpa = NT_DIMM_SIZE / 2, .size = NT_DIMM_SIZE / 2,
			  .offset = { BIT_ULL(16), BIT_ULL(24), BIT_ULL(32),
				      BIT_ULL(40) },
			  .flags = { NT_HE, 0, NT_HE, 0 } },
		},
		.blk = true,
		.nr_hints = NT_MAX_HINTS,
		.cmds = NT_CONFIG_CMDS,
		.fw = true,
		.smart = true,
		.fw_update = true,
		.format = NT_FORMAT,
		.pm_format = NT_FORMAT_BYTEN,
		.v61 = true,
	}, {
		.nr_dimms = 2,
		.dimm = {
			{ .handle = NFIT_DIMM_HANDLE(1, 0, 0, 0, 0), .dcr = 1 },
			{ .handle = NFIT_DIMM_HANDLE(1, 0, 0, 0, 1), .dcr = 2 },
		},
		.nr_sets = 1,
		.set = {
			{ .range = 1, .ways = 1, .dimm = { 0 }, .dpa = 0,
			  .size = NT_DIMM_SIZE,
			  .flags = { ACPI_NFIT_MEM_SAVE_FAILED |
				     ACPI_NFIT_MEM_RESTORE_FAILED |
				     ACPI_NFIT_MEM_FLUSH_FAILED |
				     ACPI_NFIT_MEM_HEALTH_OBSERVED |
				     ACPI_NFIT_MEM_NOT_ARMED } },
		},
		.cmds = NT_CONFIG_CMDS,
		.format = NT_FORMAT_BYTE,
		.v61 = true,
		/* 6.1 numbers them after its nfit_test.0's five */
		.knob_base = 5,
		.unmapped = NT_DIMM_SIZE,
		.unmapped_flags = ACPI_NFIT_MEM_MAP_FAILED,
		.vcd_size = SZ_4M,
	},
};

#define NT_NR_BUSES ARRAY_SIZE(nt_topo)
static_assert(ARRAY_SIZE(nt_topo61) == NT_NR_BUSES);

/*
 * Which platform the buses describe, chosen at load: "v4.2" (the
 * default) or "6.1" (what ndctl v76.1's test suite expects).
 */
static bool nt_v61;

static int nt_topology_set(const char *val, const struct kernel_param *kp)
{
	size_t n = strcspn(val, "\n");

	if (n == 4 && !strncmp(val, "v4.2", n)) {
		nt_v61 = false;
		return 0;
	}
	if (n == 3 && !strncmp(val, "6.1", n)) {
		nt_v61 = true;
		return 0;
	}
	pr_warn("nfit_test: topology '%.*s' refused: v4.2 or 6.1\n", (int)n,
		val);
	return -EINVAL;
}

static int nt_topology_get(char *buf, const struct kernel_param *kp)
{
	return scnprintf(buf, PAGE_SIZE, "%s\n", nt_v61 ? "6.1" : "v4.2");
}

static const struct kernel_param_ops nt_topology_ops = {
	.set = nt_topology_set,
	.get = nt_topology_get,
};

module_param_cb(topology, &nt_topology_ops, NULL, 0444);
MODULE_PARM_DESC(topology, "the platform both buses describe: v4.2 (default) or 6.1 (Linux 6.1's nfit_test, for ndctl v76.1's test suite; docs/nfit_test.md)");

/* The topology of bus @id. */
static const struct nt_topology *nt_topo_of(int id)
{
	return nt_v61 ? &nt_topo61[id] : &nt_topo[id];
}

/*
 * nfit_test.0 with pm_1way: the second PM range is DIMM 0x101's DPA
 * [16M, 32M) alone (1-way) instead of all four DIMMs' (4-way), so that
 * the DIMM's BLK region aliases a 1-way PMEM region: a failed
 * block-window read there is also a bad range of the PMEM region
 * (docs/blk-aperture.md "Media errors").  DIMM 0x100 then has no PM.
 */
static const struct nt_pm_set nt_set_1way = {
	.range = 2, .ways = 1, .dimm = { 3 }, .dpa = NT_DIMM_SIZE / 2,
	.size = NT_DIMM_SIZE / 2,
};

static bool pm_1way;
module_param(pm_1way, bool, 0644);
MODULE_PARM_DESC(pm_1way, "nfit_test.0, from its next bind: PM range 2 is DIMM 0x101's DPA [16M, 32M) alone, 1-way (default: all four DIMMs', 4-way)");

/* 6.1's DIMM health functions (nfit_test_smart.c), on as in 6.1's mock */
static bool smart = true;
module_param(smart, bool, 0444);
MODULE_PARM_DESC(smart, "nfit_test.0's DIMMs answer the Intel SMART functions through ND_CMD_CALL (default on; 0: DIMMs without health firmware)");

/* Where stores become durable (the regions' flags), on every bus */
static int platform_caps = -1;
module_param(platform_caps, int, 0444);
MODULE_PARM_DESC(platform_caps, "each bus's NFIT platform capabilities: 1 CPU caches flushed on power loss, 2 memory controller, 0 none (a structure saying so); default -1: the topology's own (6.1's: 2 on nfit_test.0)");

/* Test-only: the passthrough ND_CMD_CALL, off unless asked for. */
static bool cmd_call;
module_param(cmd_call, bool, 0444);
MODULE_PARM_DESC(cmd_call, "nfit_test.0 and its DIMMs also offer ND_CMD_CALL (default off)");

/*
 * Firmware update and activation (nfit_test_fw.c): off on the v4.2
 * topology unless asked for, always on topology=6.1, as 6.1's mock
 */
static bool fw_update;
module_param(fw_update, bool, 0444);
MODULE_PARM_DESC(fw_update, "nfit_test.0's DIMMs offer ND_CMD_CALL with the Intel firmware update and activation functions, its bus firmware activation (default off; always on with topology=6.1)");
static bool fw_live;
module_param(fw_live, bool, 0444);
MODULE_PARM_DESC(fw_live, "with fw_update: the platform's activation capability is live (default: quiesce)");

/* Initial faults of nfit_test.0's DIMMs, for what happens at load. */
static unsigned long fail_cmds[NT_MAX_DIMMS];
module_param_array(fail_cmds, ulong, NULL, 0444);
MODULE_PARM_DESC(fail_cmds, "nfit_test.0 DIMM i: ND_CMD_* bits that fail from load on (firmware status 4)");
static unsigned long short_cmds[NT_MAX_DIMMS];
module_param_array(short_cmds, ulong, NULL, 0444);
MODULE_PARM_DESC(short_cmds, "nfit_test.0 DIMM i: ND_CMD_* bits that return 16 bytes short from load on");
static unsigned long corrupt_cmds[NT_MAX_DIMMS];
module_param_array(corrupt_cmds, ulong, NULL, 0444);
MODULE_PARM_DESC(corrupt_cmds, "nfit_test.0 DIMM i: ND_CMD_* bits whose data is corrupted from load on");

/* What nfit_test.1's table gets wrong at its next bind (firmware bugs). */
enum {
	NT_MISALIGN_NONE,
	NT_MISALIGN_DPA,	/* memory device map: DPA + 512 */
	NT_MISALIGN_MAP_SIZE,	/* memory device map: size - 512 */
	NT_MISALIGN_SPA_START,	/* SPA range: address + 512 (a page shorter) */
	NT_MISALIGN_SPA_SIZE,	/* SPA range: length - 512 */
};

static unsigned int misalign;
module_param(misalign, uint, 0644);
MODULE_PARM_DESC(misalign, "nfit_test.1's NFIT, from its next bind: 1 DPA, 2 mapping size, 3 range address, 4 range length off a page boundary (0: none)");

/*
 * What nfit_test.1's table gets wrong at its next bind, for the NFIT
 * parser's error paths: defects that refuse the whole table (header,
 * subtable lengths), and entries that are malformed, duplicated or point
 * nowhere, which the parser drops while the rest of the table stays in
 * use.  The nt-nfit-faults guest test states what each one leaves.
 */
enum {
	NT_DEFECT_NONE,
	NT_DEFECT_SIGNATURE,		/* header signature "NFIX" */
	NT_DEFECT_HDR_SHORT,		/* header length 16 */
	NT_DEFECT_HDR_LONG,		/* header length 8 past the buffer */
	NT_DEFECT_STRAY,		/* 3 bytes after the last subtable */
	NT_DEFECT_SUB_TINY,		/* control region length 2 */
	NT_DEFECT_SUB_PAST_END,		/* control region runs 8 past the end */
	NT_DEFECT_CHECKSUM,		/* checksum off by one */
	NT_DEFECT_UNKNOWN_TYPE,		/* an 8-byte subtable of type 0xff */
	NT_DEFECT_SPA_SHORT,		/* SPA range cut to 40 bytes */
	NT_DEFECT_SPA_INDEX0,		/* SPA range index 0 */
	NT_DEFECT_SPA_DUP,		/* a second SPA range 1 */
	NT_DEFECT_SPA_ZERO,		/* + PM range 2 of length 0 */
	NT_DEFECT_SPA_WRAP,		/* + PM range 2 wrapping past 2^64 */
	NT_DEFECT_SPA_OVERLAP,		/* + PM range 2 inside range 1 */
	NT_DEFECT_DCR_INDEX0,		/* + control region 0 */
	NT_DEFECT_DCR_DUP,		/* a second control region 1 */
	NT_DEFECT_DCR_WINDOWS,		/* + control region 2: 2 windows, no fields */
	NT_DEFECT_IDT_INDEX0,		/* + interleave table 0 */
	NT_DEFECT_IDT_DUP,		/* interleave table 7 twice */
	NT_DEFECT_IDT_EMPTY,		/* + interleave table 8: 0 lines */
	NT_DEFECT_IDT_LINES,		/* + interleave table 9: 1000 lines in 20 bytes */
	NT_DEFECT_FLUSH_HINTS,		/* + flush hint: 100 hints in 24 bytes */
	NT_DEFECT_FLUSH_DUP,		/* two flush hints (no addresses) of DIMM 0 */
	NT_DEFECT_BDW_NO_DCR,		/* + block data window of control region 9 */
	NT_DEFECT_MAP_SHORT,		/* memory device map cut to 40 bytes */
	NT_DEFECT_MAP_WAYS0,		/* memory device map: 0 ways */
	NT_DEFECT_MAP_DUP,		/* a second map of DIMM 0 to range 1 */
	NT_DEFECT_MAP_NO_SPA,		/* + map of DIMM 0x1 to SPA range 9 */
	NT_DEFECT_MAP_NO_DCR,		/* memory device map: control region 9 */
	NT_DEFECT_MAP_NO_IDT,		/* memory device map: interleave table 9 */
	NT_DEFECT_ISET_SHORT,		/* memory device map: 2 ways, 1 map */
	NT_DEFECT_ISET_MIXED,		/* + map of DIMM 0x1 to range 1 saying 2 ways */
	NT_DEFECT_WAYS32,		/* valid: 32 DIMMs interleaved, a region's most */
	NT_DEFECT_WAYS33,		/* 33 DIMMs interleaved: one too many */
	NT_DEFECT_MAP_SIZE0,		/* memory device map of 0 bytes */
	NT_DEFECT_TINY,			/* only 20 bytes handed to nfit */
	NT_DEFECT_BDW_DUP,		/* two block data windows of control region 1 */
	NT_DEFECT_SPA_IOMEM,		/* SPA range 1 at 0: over the guest's RAM */
	NT_DEFECT_FLUSH_NOWHERE,	/* + flush hint of DIMM 0 with nothing behind it */
	NT_DEFECT_NR,
};

/* room for what the defects append: 32 more maps and control regions */
#define NT_DEFECT_ROOM	(32 * (sizeof(struct acpi_nfit_memory_map) + \
			       sizeof(struct acpi_nfit_control_region)))

static unsigned int nfit_defect;

static int nt_defect_set(const char *val, const struct kernel_param *kp)
{
	int rc = param_set_uint_minmax(val, kp, 0, NT_DEFECT_NR - 1);

	if (rc)
		pr_warn("nfit_test: nfit_defect '%.*s' refused: 0..%d\n",
			(int)strcspn(val, "\n"), val, NT_DEFECT_NR - 1);
	return rc;
}

static const struct kernel_param_ops nt_defect_ops = {
	.set = nt_defect_set,
	.get = param_get_uint,
};

module_param_cb(nfit_defect, &nt_defect_ops, &nfit_defect, 0644);
MODULE_PARM_DESC(nfit_defect, "nfit_test.1's NFIT, from its next bind: table defect 1..39 (docs/nfit_test.md; 0: none)");

/*
 * How nfit_test.0's NFIT describes a DIMM's block windows, from its next
 * bind: v4.2's layout, two other valid ones that the driver must follow
 * exactly (the mock places the data where the table says), and tables
 * nfit probe must refuse (the DIMM then has no BLK region).
 */
enum {
	NT_BLK_V42,		/* offsets 0, one window (v4.2's nfit_test) */
	NT_BLK_OFFSETS,		/* non-zero region offsets, window and register offsets */
	NT_BLK_INTERLEAVED,	/* both ranges 2-way interleaved, 256-byte lines, way 1 */
	NT_BLK_BAD_DCR_RANGE,	/* status register runs past the control range */
	NT_BLK_BAD_BDW_RANGE,	/* the window runs past the aperture range */
	NT_BLK_BAD_WIN_SIZE,	/* block-data window size 0 */
	NT_BLK_BAD_WINDOWS,	/* block-data window count 0 */
	NT_BLK_WINDOWS_DIFFER,	/* 2 control windows, 1 block-data window: 1 used */
	NT_BLK_BAD_LINE,	/* control range interleaved in 4-byte lines */
	NT_BLK_BAD_DPA,		/* start_address + capacity past 2^54 */
	NT_BLK_BAD_WAYS,	/* aperture map interleaved with 0 ways */
	NT_BLK_NR,
};

static const char *const nt_blk_variant_name[NT_BLK_NR] = {
	[NT_BLK_V42] = "v4.2 layout",
	[NT_BLK_OFFSETS] = "non-zero offsets",
	[NT_BLK_INTERLEAVED] = "2-way interleaved ranges",
	[NT_BLK_BAD_DCR_RANGE] = "status register outside the control range",
	[NT_BLK_BAD_BDW_RANGE] = "window outside the aperture range",
	[NT_BLK_BAD_WIN_SIZE] = "window size 0",
	[NT_BLK_BAD_WINDOWS] = "0 block-data windows",
	[NT_BLK_WINDOWS_DIFFER] = "2 control windows, 1 block-data window",
	[NT_BLK_BAD_LINE] = "registers across 4-byte interleave lines",
	[NT_BLK_BAD_DPA] = "DPA range past 2^54",
	[NT_BLK_BAD_WAYS] = "interleave with 0 ways",
};

static unsigned int blk_variant[NT_MAX_DIMMS];
module_param_array(blk_variant, uint, NULL, 0644);
MODULE_PARM_DESC(blk_variant, "nfit_test.0 DIMM i, from the bus's next bind: block-window table variant (0 v4.2 layout, 1 offsets, 2 interleaved, 3..10 refused by nfit: docs/nfit_test.md)");

/* the mock's block-window status bits (the driver masks 0x80000037) */
#define NT_BW_ST_INVALID	BIT(0)	/* command out of range or malformed */
#define NT_BW_ST_UNLATCHED	BIT(1)	/* LATCH DIMM: command not read back */
#define NT_BW_ST_MEDIA		BIT(2)	/* media error: blk_fail, or a poisoned line read */
#define NT_BW_ST_ERRORS		0x80000037U
#define NT_BW_POISON		0xa5	/* aperture bytes no command delivered */
#define NT_BW_MAX_WINDOWS	2
#define NT_BW_LATCH		BIT(1)	/* ND_CMD_DIMM_FLAGS: LATCH */

/**
 * struct nt_blk_layout - how the NFIT describes one DIMM's block windows
 * @dcr_windows: control region window count
 * @bdw_windows: block-data window count
 * @ctl_stride: control region window_size
 * @cmd_offset: command register offset
 * @status_offset: status register offset
 * @dcr_base: region_offset of the DIMM's map of its control range
 * @dcr_size: bytes of the control range
 * @dcr_line: interleave line of the control range (0: no table)
 * @win_offset: block-data window offset
 * @win_size: block-data window size
 * @start: first DPA (start_address)
 * @capacity: DPA bytes reachable
 * @bdw_base: region_offset of the DIMM's map of its aperture range
 * @bdw_size: bytes of the aperture range
 * @bdw_line: interleave line of the aperture range (0: no table)
 * @ways: interleave ways of the interleaved maps (their tables have one
 *	line, at offset 0: T(o) = base + o / line x ways x line + o % line)
 */
struct nt_blk_layout {
	u16 dcr_windows;
	u16 bdw_windows;
	u64 ctl_stride;
	u64 cmd_offset;
	u64 status_offset;
	u64 dcr_base;
	u64 dcr_size;
	u32 dcr_line;
	u64 win_offset;
	u64 win_size;
	u64 start;
	u64 capacity;
	u64 bdw_base;
	u64 bdw_size;
	u32 bdw_line;
	u16 ways;
};

/**
 * struct nt_bw - the state of one emulated block window
 * @dpa: DPA of the command's first line
 * @lines: its length in 64-byte lines
 * @write: its direction
 * @pending: a command was written, its status not read yet
 * @moved: the aperture follows the command (at the command write, or at
 *	its read-back on a LATCH DIMM)
 * @status: what the status register will report
 */
struct nt_bw {
	u64 dpa;
	u32 lines;
	bool write;
	bool pending;
	bool moved;
	u32 status;
};

struct nfit_test;

/**
 * struct nt_dimm - one mock DIMM
 * @t: its bus
 * @idx: index in the topology
 * @desc: its description in the topology
 * @handle: NFIT device handle
 * @pages: its media, NT_DIMM_SIZE / PAGE_SIZE pages (the DPA space)
 * @nr_pages: entries in @pages
 * @media: @pages mapped contiguously (debugfs "media")
 * @media_blob: debugfs view of @media
 * @label: label storage, NT_LABEL_SIZE bytes
 * @dcr: control registers (blk topologies)
 * @bdw: block-window aperture (blk topologies), as the CPU sees it
 * @bw_dev: the same range as the DIMM holds it; differs from @bdw while
 *	@blk_stale keeps the lines a read moved in hidden behind the CPU's
 *	cached copies
 * @flush_hint: its flush hint word, NULL when none
 * @config_size: label area size the firmware reports
 * @max_xfer: transfer limit the firmware reports
 * @fail_cmds: commands that fail (ND_CMD_* bits)
 * @fail_errno: when non-zero a failing command returns -@fail_errno
 *	(the call itself fails), else it completes with @fail_status
 * @fail_status: firmware status of a failing command
 * @short_cmds: commands whose output comes back @short_bytes short
 * @short_bytes: bytes withheld from the end of the output
 * @corrupt_cmds: commands whose data is corrupted: label reads return,
 *	label writes store, bytes at label offsets that are multiples of
 *	@corrupt_stride XORed with @corrupt_xor; get_size reports max_xfer
 *	0; flags reports all flags set
 * @corrupt_stride: see @corrupt_cmds (0 acts as 1)
 * @corrupt_xor: see @corrupt_cmds
 * @fault_skip: matching calls let through before faults start
 * @fault_count: faults to inject, then all three masks clear (0: no limit)
 * @call_len: bytes of every ND_CMD_CALL answer (nd_fw_size)
 * @set_delay_ms: SET_CONFIG_DATA sleeps this long before it writes (a
 *	label write the tests can race other configuration against)
 * @calls: commands received, per ND_CMD_* number
 * @faults: faults injected, per ND_CMD_* number
 * @link: debugfs nmemN symlink
 * @ndev: its nmemN device once registered (where the mock logs)
 * @variant: blk_variant at bind
 * @blk: how the table describes its block windows
 * @bw: its emulated block windows
 * @blk_flags: what ND_CMD_DIMM_FLAGS answers; with NT_BW_LATCH the
 *	aperture moves only when the driver reads the command back
 * @blk_fail: the next commands that complete with @blk_fail_status
 * @blk_fail_status: status of an injected failure (default media error)
 * @blk_reads: read commands received
 * @blk_writes: write commands received
 * @blk_errors: commands completed with an error status
 * @blk_latches: command read-backs
 * @blk_stale: the aperture acts as a write-back mapping would: after a
 *	read command moves a window, the CPU keeps seeing the lines it saw
 *	before (the previous DPA's) until the driver invalidates them
 *	(arch_invalidate_pmem(), READ_FLUSH)
 * @blk_invalidates: invalidations of the aperture (calls)
 * @poison: its poisoned media lines, NT_POISON_BITS bits (nt_poison_lock)
 * @poison_reads: reads through a PM range stopped by @poison, and
 *	block-window read commands failed by it
 * @smart: its health and the fail_cmd knobs (nfit_test_smart.c)
 * @secure: the DIMM has security firmware (nfit_test.0)
 * @sec: its security firmware (nfit_test_security.c)
 * @knobs: its test_dimmN device's drvdata
 */
struct nt_dimm {
	struct nfit_test *t;
	int idx;
	const struct nt_dimm_desc *desc;
	u32 handle;
	struct page **pages;
	unsigned long nr_pages;
	void *media;
	struct debugfs_blob_wrapper media_blob;
	void *label;
	struct nfit_test_res dcr;
	struct nfit_test_res bdw;
	void *bw_dev;
	u64 *flush_hint;
	u32 config_size;
	u32 max_xfer;
	u64 fail_cmds;
	u32 fail_errno;
	u32 fail_status;
	u64 short_cmds;
	u32 short_bytes;
	u64 corrupt_cmds;
	u32 corrupt_stride;
	u8 corrupt_xor;
	u32 fault_skip;
	u32 fault_count;
	u32 call_len;
	u32 set_delay_ms;
	u64 calls[ND_CMD_CALL + 1];
	u64 faults[ND_CMD_CALL + 1];
	struct dentry *link;
	struct device *ndev;
	unsigned int variant;
	struct nt_blk_layout blk;
	struct nt_bw bw[NT_BW_MAX_WINDOWS];
	u32 blk_flags;
	u32 blk_fail;
	u32 blk_fail_status;
	u64 blk_reads;
	u64 blk_writes;
	u64 blk_errors;
	u64 blk_latches;
	u32 blk_stale;
	u64 blk_invalidates;
	unsigned long *poison;
	u64 poison_reads;
	struct nt_smart smart;
	bool secure;
	struct nt_sec sec;
	struct nt_dimm_knobs knobs;
};

/* the groups of every DIMM's test_dimmN device, one per mocked family */
static const struct attribute_group *nt_dimm_groups[] = {
	&nt_smart_group,
#if NT_SEC_FIRMWARE
	&nt_sec_group,
#endif
	NULL,
};

/**
 * struct nfit_test - one mock bus (nfit_test.N)
 * @acpi_desc: what nfit.ko registers the bus from
 * @pdev: the platform device
 * @topo: what it describes
 * @cmds: DIMM commands offered: the topology's, ND_CMD_CALL with cmd_call
 * @bus_calls: bus ND_CMD_CALLs received (cmd_call=1's generic answer)
 * @ars: the bus's ARS and error-injection firmware
 * @fw: firmware update and activation (fw_update=1), else NULL
 * @next_phys: next free fake physical address
 * @vcd: fake address of the virtual CD range (topology vcd_size)
 * @dimm: its DIMMs
 * @pm: its persistent-memory ranges
 * @flush: the page of flush hints
 * @dir: its debugfs directory
 * @topo_1way: nfit_test.0's topology with pm_1way (@topo points here)
 */
struct nfit_test {
	struct acpi_nfit_desc acpi_desc;
	struct platform_device *pdev;
	const struct nt_topology *topo;
	unsigned long cmds;
	u64 bus_calls;
	struct nt_ars ars;
	struct nt_fw *fw;
	resource_size_t next_phys;
	resource_size_t vcd;
	struct nt_dimm dimm[NT_MAX_DIMMS];
	struct nfit_test_res pm[NT_MAX_SETS];
	struct nfit_test_res flush;
	struct dentry *dir;
	struct nt_topology topo_1way;
};

static struct platform_device *nt_pdev[NT_NR_BUSES];
static struct dentry *nt_debugfs;

/*
 * The poison bitmaps of all DIMMs.  Taken inside nfit_test_iomap's
 * registry lock by the wrapped copy_mc_to_kernel() and by block-window
 * commands; the debugfs knob takes it alone.  @nt_poisoned: lines
 * poisoned, on all DIMMs.
 */
static DEFINE_SPINLOCK(nt_poison_lock);
static atomic_long_t nt_poisoned;

/* commands */

enum {
	NT_FAULT_FAIL = BIT(0),
	NT_FAULT_SHORT = BIT(1),
	NT_FAULT_CORRUPT = BIT(2),
};

/* The faults this call gets (NT_FAULT_* bits); counts them. */
static unsigned int nt_take_faults(struct nt_dimm *d, unsigned int cmd)
{
	u64 bit = BIT_ULL(cmd);
	unsigned int f = 0;

	if (d->fail_cmds & bit)
		f |= NT_FAULT_FAIL;
	if (d->short_cmds & bit)
		f |= NT_FAULT_SHORT;
	if (d->corrupt_cmds & bit)
		f |= NT_FAULT_CORRUPT;
	if (!f)
		return 0;
	if (d->fault_skip) {
		d->fault_skip--;
		return 0;
	}
	if (d->fault_count && !--d->fault_count) {
		/* the last fault asked for: disarm */
		d->fail_cmds = 0;
		d->short_cmds = 0;
		d->corrupt_cmds = 0;
	}
	d->faults[cmd]++;
	return f;
}

/* XOR corrupt_xor into the bytes of [off, off + len) at stride multiples. */
static void nt_corrupt(struct nt_dimm *d, u8 *p, u32 off, u32 len)
{
	u32 stride = d->corrupt_stride ? d->corrupt_stride : 1;
	u32 i;

	for (i = (stride - off % stride) % stride; i < len; i += stride)
		p[i] ^= d->corrupt_xor;
}

/*
 * The command envelope: input fields, then output fields that start with
 * the firmware status word.  Returns the offset of the output, or
 * -EINVAL when @buf_len cannot hold what the header describes.
 */
static int nt_out_offset(unsigned int cmd, const void *buf, u32 buf_len)
{
	const struct nd_cmd_get_config_data_hdr *xfer = buf;

	switch (cmd) {
	case ND_CMD_SMART:
		return buf_len < sizeof(struct nd_intel_smart) ? -EINVAL : 0;
	case ND_CMD_SMART_THRESHOLD:
		return buf_len < sizeof(struct nd_intel_smart_threshold) ?
			-EINVAL : 0;
	case ND_CMD_DIMM_FLAGS:
		return buf_len < sizeof(struct nd_cmd_dimm_flags) ? -EINVAL : 0;
	case ND_CMD_GET_CONFIG_SIZE:
		return buf_len < sizeof(struct nd_cmd_get_config_size) ?
			-EINVAL : 0;
	case ND_CMD_GET_CONFIG_DATA:
		if (buf_len < sizeof(*xfer) ||
		    xfer->in_length > buf_len - sizeof(*xfer))
			return -EINVAL;
		return offsetof(struct nd_cmd_get_config_data_hdr, status);
	case ND_CMD_SET_CONFIG_DATA:
		if (buf_len < sizeof(struct nd_cmd_set_config_hdr) + sizeof(u32) ||
		    xfer->in_length > buf_len -
		    sizeof(struct nd_cmd_set_config_hdr) - sizeof(u32))
			return -EINVAL;
		return sizeof(struct nd_cmd_set_config_hdr) + xfer->in_length;
	}
	return -ENOTTY;
}

/* Label area bytes that exist: a lying config_size cannot reach past them. */
static u32 nt_label_bytes(struct nt_dimm *d)
{
	return min_t(u32, d->config_size, NT_LABEL_SIZE);
}

/*
 * Each command fills its output and returns the number of output bytes
 * it left unfilled; *status is the firmware status.  A command the
 * firmware refuses returns only its status word.
 */
static u32 nt_get_size(struct nt_dimm *d, void *buf, u32 out_len,
		       unsigned int faults, u32 *status)
{
	struct nd_cmd_get_config_size *c = buf;

	c->config_size = d->config_size;
	c->max_xfer = faults & NT_FAULT_CORRUPT ? 0 : d->max_xfer;
	return out_len - sizeof(*c);
}

static u32 nt_get_data(struct nt_dimm *d, void *buf, u32 out_len,
		       unsigned int faults, u32 *status)
{
	struct nd_cmd_get_config_data_hdr *c = buf;
	u32 size = nt_label_bytes(d), n;

	if (!c->in_length || c->in_length > d->max_xfer ||
	    c->in_offset >= size) {
		*status = NT_ST_BAD_INPUT;
		return out_len - sizeof(u32);
	}
	/* a read running past the end is served up to the end */
	n = min(c->in_length, size - c->in_offset);
	memcpy(c->out_buf, d->label + c->in_offset, n);
	if (faults & NT_FAULT_CORRUPT)
		nt_corrupt(d, c->out_buf, c->in_offset, n);
	return out_len - sizeof(u32) - n;
}

static u32 nt_set_data(struct nt_dimm *d, void *buf, u32 out_len,
		       unsigned int faults, u32 *status)
{
	struct nd_cmd_set_config_hdr *c = buf;
	u32 size = nt_label_bytes(d);

	if (!c->in_length || c->in_length > d->max_xfer ||
	    c->in_offset >= size || c->in_length > size - c->in_offset) {
		*status = NT_ST_BAD_INPUT;
		return out_len - sizeof(u32);
	}
	memcpy(d->label + c->in_offset, c->in_buf, c->in_length);
	if (faults & NT_FAULT_CORRUPT)
		nt_corrupt(d, d->label + c->in_offset, c->in_offset,
			   c->in_length);
	return out_len - sizeof(u32);
}

/* ND_CMD_SMART / SMART_THRESHOLD: Intel functions 1 and 2, same payload */
static u32 nt_health(struct nt_dimm *d, void *buf, u32 out_len,
		     unsigned int faults, u32 *status)
{
	return nt_smart_read(&d->smart, buf, out_len);
}

static u32 nt_thresholds(struct nt_dimm *d, void *buf, u32 out_len,
			 unsigned int faults, u32 *status)
{
	return nt_smart_read_thresholds(&d->smart, buf, out_len);
}

static u32 nt_flags(struct nt_dimm *d, void *buf, u32 out_len,
		    unsigned int faults, u32 *status)
{
	struct nd_cmd_dimm_flags *c = buf;

	/* what the emulated windows need: LATCH unless a test says otherwise */
	c->flags = faults & NT_FAULT_CORRUPT ? ~0U : READ_ONCE(d->blk_flags);
	return out_len - sizeof(*c);
}

/*
 * ND_CMD_CALL (cmd_call=1): every function of every family is answered
 * with @answer bytes, byte i = function + i, and nd_fw_size says so; at
 * most nd_size_out of them fit.  The mock has no policy of its own: what
 * userspace must not send is for the core to refuse.  Returns the output
 * bytes left unfilled.
 */
static bool nt_pkg_ok(struct device *dev, const void *buf,
		      unsigned int buf_len)
{
	const struct nd_cmd_pkg *pkg = buf;

	if (buf_len < sizeof(*pkg) || (u64)pkg->nd_size_in +
	    pkg->nd_size_out > buf_len - sizeof(*pkg)) {
		dev_dbg(dev, "cmd_call: envelope of %u bytes does not hold the package\n",
			buf_len);
		return false;
	}
	return true;
}

static int nt_call(struct device *dev, u32 answer, u64 *calls, void *buf,
		   unsigned int buf_len)
{
	struct nd_cmd_pkg *pkg = buf;
	u8 *out;
	u32 n, i;

	if (!nt_pkg_ok(dev, buf, buf_len))
		return -EINVAL;
	(*calls)++;
	out = pkg->nd_payload + pkg->nd_size_in;
	n = min(answer, pkg->nd_size_out);
	for (i = 0; i < n; i++)
		out[i] = pkg->nd_command + i;
	pkg->nd_fw_size = answer;
	dev_dbg(dev, "cmd_call %llu.%llu: %u bytes answered\n",
		pkg->nd_family, pkg->nd_command, answer);
	return pkg->nd_size_out - n;
}

static struct nt_dimm *nt_dimm_of(struct nfit_test *t, struct nvdimm *nvdimm)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(nvdimm);
	int i;

	for (i = 0; i < t->topo->nr_dimms; i++)
		if (t->dimm[i].handle == nfit_mem->handle)
			return &t->dimm[i];
	return NULL;
}

/*
 * The bus descriptor's ndctl hook: the mock firmware.  The core checked
 * the envelope and the label bounds already; the firmware checks them
 * again, as firmware must (its idea of the label area may differ from
 * what the kernel cached), and answers bad input with status 3.
 */
static int nfit_test_ctl(struct nvdimm_bus_descriptor *nd_desc,
			 struct nvdimm *nvdimm, unsigned int cmd, void *buf,
			 unsigned int buf_len, int *cmd_rc)
{
	struct nfit_test *t = container_of(to_acpi_nfit_desc(nd_desc),
					   struct nfit_test, acpi_desc);
	u32 (*run)(struct nt_dimm *d, void *buf, u32 out_len,
		   unsigned int faults, u32 *status);
	u32 status = NT_ST_SUCCESS, residual, out_len, w;
	unsigned int faults;
	struct nt_dimm *d;
	struct device *dev;
	int out, frc;

	*cmd_rc = 0;
	if (!nvdimm) {
		/* ARS and error injection (nfit_test_ars.c); cmd_call=1 */
		if (cmd >= BITS_PER_LONG || !test_bit(cmd, &nd_desc->cmd_mask))
			return -ENOTTY;
		if (cmd != ND_CMD_CALL)
			return nt_ars_ctl(&t->ars, cmd, buf, buf_len, cmd_rc);
		if (!nt_pkg_ok(&t->pdev->dev, buf, buf_len))
			return -EINVAL;
		out = nt_fw_bus_call(t->fw, &t->pdev->dev, buf, buf_len);
		if (out != -ENOTTY)
			return out;
		out = nt_ars_call(&t->ars, buf, buf_len);
		if (out != -ENOTTY || !cmd_call || !t->topo->fw)
			return out;
		return nt_call(&t->pdev->dev, NT_CALL_LEN, &t->bus_calls, buf,
			       buf_len);
	}
	dev = nvdimm_dev(nvdimm);
	d = nt_dimm_of(t, nvdimm);
	/* the security functions (nfit_test_security.c) */
	if (d && cmd == ND_CMD_CALL) {
		out = nt_sec_call(d->secure ? &d->sec : NULL, dev, buf,
				  buf_len);
		if (out != -ENOTTY)
			return out;
	}
	if (!d || cmd >= BITS_PER_LONG || !test_bit(cmd, &t->cmds))
		return -ENOTTY;
	if (cmd == ND_CMD_CALL) {
		if (!nt_pkg_ok(dev, buf, buf_len))
			return -EINVAL;
		out = test_bit(ND_INTEL_SMART, &t->acpi_desc.dimm_dsm_mask) ?
			nt_smart_call(&d->smart, dev, buf) : -ENOTTY;
		if (out != -ENOTTY) {
			d->calls[cmd]++;
			return out;
		}
		out = nt_fw_dimm_call(t->fw, d->idx, dev, buf, buf_len);
		if (out != -ENOTTY || !cmd_call)
			return out;
		return nt_call(dev, d->call_len, &d->calls[cmd], buf, buf_len);
	}
	switch (cmd) {
	case ND_CMD_SMART:
		run = nt_health;
		break;
	case ND_CMD_SMART_THRESHOLD:
		run = nt_thresholds;
		break;
	case ND_CMD_DIMM_FLAGS:
		run = nt_flags;
		break;
	case ND_CMD_GET_CONFIG_SIZE:
		run = nt_get_size;
		break;
	case ND_CMD_GET_CONFIG_DATA:
		run = nt_get_data;
		break;
	case ND_CMD_SET_CONFIG_DATA:
		run = nt_set_data;
		break;
	default:
		return -ENOTTY;
	}
	out = nt_out_offset(cmd, buf, buf_len);
	if (out < 0) {
		dev_dbg(dev, "%s: envelope of %u bytes does not hold the command\n",
			nvdimm_cmd_name(cmd), buf_len);
		return out;
	}
	out_len = buf_len - out;
	d->calls[cmd]++;
	/*
	 * fail_cmd: a failed write changes nothing; a failed read runs and
	 * then fails, as 6.1's mock does (dsm-fail counts on the label size
	 * a "locked" GET_CONFIG_SIZE still reports)
	 */
	frc = nt_smart_fail(&d->smart, dev, cmd);
	if (frc && cmd == ND_CMD_SET_CONFIG_DATA)
		return frc;

	faults = nt_take_faults(d, cmd);
	if (faults & NT_FAULT_FAIL) {
		if (d->fail_errno) {
			int rc = -(int)min_t(u32, d->fail_errno, MAX_ERRNO);

			dev_info_ratelimited(dev, "nfit_test: injected failure: %s returns %d\n",
					     nvdimm_cmd_name(cmd), rc);
			return rc;
		}
		dev_info_ratelimited(dev, "nfit_test: injected failure: %s firmware status %#x\n",
				     nvdimm_cmd_name(cmd), d->fail_status);
		put_unaligned(d->fail_status, (u32 *)(buf + out));
		*cmd_rc = d->fail_status ? -EIO : 0;
		return out_len - sizeof(u32);
	}

	if (cmd == ND_CMD_SET_CONFIG_DATA && READ_ONCE(d->set_delay_ms))
		msleep(min_t(u32, READ_ONCE(d->set_delay_ms), 10000));
	residual = run(d, buf, out_len, faults, &status);
	put_unaligned(status, (u32 *)(buf + out));
	if (faults & NT_FAULT_SHORT) {
		w = min(d->short_bytes, out_len - residual);
		memset(buf + out + (out_len - residual) - w, 0, w);
		residual += w;
		dev_info_ratelimited(dev, "nfit_test: injected short transfer: %s withholds %u bytes\n",
				     nvdimm_cmd_name(cmd), w);
	}
	if (faults & NT_FAULT_CORRUPT)
		dev_info_ratelimited(dev, "nfit_test: injected corruption: %s\n",
				     nvdimm_cmd_name(cmd));
	if (status) {
		dev_dbg(dev, "%s: firmware status %#x\n", nvdimm_cmd_name(cmd), status);
		*cmd_rc = -EIO;
	}
	return frc ? frc : residual;
}

/*
 * Block windows: the register protocol, emulated (docs/nfit_test.md).
 * nfit.ko's block-window I/O writes commands with __iowrite64_copy(),
 * reads them back with ioread64_lo_hi() and the status with ioread32();
 * in the test build those reach nfit_test_iomap.ko, which hands the
 * accesses inside a DIMM's control range to the callbacks below (under
 * its registry lock: they never sleep).  Data moves between the
 * aperture and the DIMM's media only as the commands say:
 *
 *  - a command is checked (DPA lines inside [start, start + capacity),
 *    1..255 lines, within the window) and counted; a bad one, or one
 *    that blk_fail turns into a media error, gets an error status;
 *  - the aperture then "moves" (at once, or when the driver reads the
 *    command back on a LATCH DIMM): a read puts exactly the commanded
 *    lines in the window, a write pre-loads them (so partial lines
 *    merge), and every other byte of the window is poison;
 *  - the status read completes the command: a write commits exactly the
 *    commanded lines to the media unless the status is an error, and a
 *    command never moved (LATCH, no read-back) fails.
 *
 * So a wrong DPA, a short length, data at the wrong aperture offset or a
 * skipped read-back shows up as wrong data or an error.
 */

#define NT_BW_LINE	64

/* T(o) of the mock's layouts: tables of one line at offset 0 */
static u64 nt_xlate(u64 base, u32 line, u16 ways, u64 off)
{
	if (!line)
		return base + off;
	return base + off / line * ways * line + off % line;
}

/* The DIMM whose control range is @res. */
static struct nt_dimm *nt_dimm_of_dcr(struct nfit_test_res *res)
{
	return container_of(res, struct nt_dimm, dcr);
}

static struct device *nt_dimm_dev(struct nt_dimm *d)
{
	struct device *dev = READ_ONCE(d->ndev);

	return dev ? dev : &d->t->pdev->dev;
}

/*
 * Move @n bytes from byte @j of window @k on: from @buf into the window
 * (@to_window), from the window into @buf, or poison into the window
 * (@buf NULL).  Only inside @ap, an aperture-range buffer: d->bdw.virt
 * (what the CPU sees) or d->bw_dev (what the DIMM holds).
 */
static void nt_bw_access(struct nt_dimm *d, void *ap, unsigned int k, u64 j,
			 void *buf, u64 n, bool to_window)
{
	const struct nt_blk_layout *l = &d->blk;
	u64 done, run;

	for (done = 0; done < n; done += run) {
		u64 o = l->win_offset + k * l->win_size + j + done;
		u64 at = nt_xlate(l->bdw_base, l->bdw_line, l->ways, o);
		void *p = ap + at;

		run = n - done;
		if (l->bdw_line)
			run = min_t(u64, run, l->bdw_line - o % l->bdw_line);
		if (WARN_ON_ONCE(at >= d->bdw.size || run > d->bdw.size - at))
			return;
		if (!buf)
			memset(p, NT_BW_POISON, run);
		else if (to_window)
			memcpy(p, buf + done, run);
		else
			memcpy(buf + done, p, run);
	}
}

/* Fill window @k of aperture buffer @ap as its command says. */
static void nt_bw_fill(struct nt_dimm *d, void *ap, unsigned int k)
{
	struct nt_bw *w = &d->bw[k];
	u64 bytes = (u64)w->lines * NT_BW_LINE;

	if (w->status & NT_BW_ST_ERRORS) {
		nt_bw_access(d, ap, k, 0, NULL, d->blk.win_size, true);
		return;
	}
	nt_bw_access(d, ap, k, 0, d->media + w->dpa, bytes, true);
	nt_bw_access(d, ap, k, bytes, NULL, d->blk.win_size - bytes, true);
}

/*
 * The aperture of window @k follows its command.  With blk_stale, a
 * read's new lines stay behind the CPU's cached copies of the old ones
 * until the driver invalidates them (nt_bw_invalidate()).  A write's
 * stores bypass and evict those copies (memcpy_flushcache()), so the
 * lines it pre-loads are what the CPU sees.
 */
static void nt_bw_move(struct nt_dimm *d, unsigned int k)
{
	d->bw[k].moved = true;
	nt_bw_fill(d, d->bw_dev, k);
	if (!READ_ONCE(d->blk_stale) || d->bw[k].write)
		nt_bw_fill(d, d->bdw.virt, k);
}

/* arch_invalidate_pmem() on the aperture: the DIMM's lines become visible */
static void nt_bw_invalidate(struct nfit_test_res *res, u64 off, u64 len)
{
	struct nt_dimm *d = container_of(res, struct nt_dimm, bdw);
	u64 start = round_down(off, NT_BW_LINE);
	u64 end = min_t(u64, round_up(off + len, NT_BW_LINE), res->size);

	d->blk_invalidates++;
	if (start < end)
		memcpy(res->virt + start, d->bw_dev + start, end - start);
}

static const struct nfit_test_cache_ops nt_bw_cache = {
	.invalidate = nt_bw_invalidate,
};

/*
 * The first poisoned line of [@dpa, +@len) of @d's media (@len > 0, the
 * range inside the DPA space), as a DPA, counted in @d->poison_reads;
 * U64_MAX if none.  For PM-range copies and block-window reads alike.
 */
static u64 nt_poison_hit(struct nt_dimm *d, u64 dpa, u64 len)
{
	unsigned long first = dpa / NT_POISON_LINE;
	unsigned long last = (dpa + len - 1) / NT_POISON_LINE;
	unsigned long bit;

	lockdep_assert_held(&nt_poison_lock);
	bit = find_next_bit(d->poison, last + 1, first);
	if (bit > last)
		return U64_MAX;
	d->poison_reads++;
	return (u64)bit * NT_POISON_LINE;
}

static void nt_bw_command(struct nt_dimm *d, unsigned int k, u64 cmd)
{
	const struct nt_blk_layout *l = &d->blk;
	struct nt_bw *w = &d->bw[k];
	u64 bytes;

	w->dpa = (cmd & GENMASK_ULL(47, 0)) * NT_BW_LINE;
	w->lines = (cmd >> 48) & 0xff;
	w->write = cmd & BIT_ULL(56);
	w->pending = true;
	w->moved = false;
	w->status = 0;
	bytes = (u64)w->lines * NT_BW_LINE;
	if (w->write)
		d->blk_writes++;
	else
		d->blk_reads++;
	if ((cmd & GENMASK_ULL(63, 57)) || !w->lines || bytes > l->win_size ||
	    w->dpa < l->start || w->dpa - l->start > l->capacity ||
	    bytes > l->capacity - (w->dpa - l->start) ||
	    w->dpa > NT_DIMM_SIZE - bytes) {
		w->status = NT_BW_ST_INVALID;
		dev_info_ratelimited(nt_dimm_dev(d), "nfit_test: block window %u: invalid command %#llx (DPA %#llx, %u lines)\n",
				     k, cmd, w->dpa, w->lines);
	} else if (d->blk_fail) {
		d->blk_fail--;
		w->status = READ_ONCE(d->blk_fail_status);
		dev_info_ratelimited(nt_dimm_dev(d), "nfit_test: injected block-window failure: %s DPA %#llx, %u lines: status %#x\n",
				     w->write ? "write" : "read", w->dpa,
				     w->lines, w->status);
	} else if (!w->write && atomic_long_read(&nt_poisoned)) {
		u64 bad;

		spin_lock(&nt_poison_lock);
		bad = nt_poison_hit(d, w->dpa, bytes);
		spin_unlock(&nt_poison_lock);
		if (bad != U64_MAX) {
			w->status = NT_BW_ST_MEDIA;
			dev_info_ratelimited(nt_dimm_dev(d), "nfit_test: block window %u: read of DPA %#llx, %u lines, hits poison at DPA %#llx: media error\n",
					     k, w->dpa, w->lines, bad);
		}
	}
	if (!(READ_ONCE(d->blk_flags) & NT_BW_LATCH))
		nt_bw_move(d, k);
}

/* Window whose register is at byte @off of the control range, or -1. */
static int nt_bw_reg(const struct nt_dimm *d, u64 off, bool *cmd)
{
	const struct nt_blk_layout *l = &d->blk;
	unsigned int k, n;

	n = min_t(unsigned int, min(l->dcr_windows, l->bdw_windows),
		  NT_BW_MAX_WINDOWS);
	for (k = 0; k < n; k++) {
		u64 stride = k * l->ctl_stride;

		*cmd = true;
		if (off == nt_xlate(l->dcr_base, l->dcr_line, l->ways,
				    l->cmd_offset + stride))
			return k;
		*cmd = false;
		if (off == nt_xlate(l->dcr_base, l->dcr_line, l->ways,
				    l->status_offset + stride))
			return k;
	}
	return -1;
}

static void nt_bw_write64(struct nfit_test_res *res, u64 off, u64 raw)
{
	struct nt_dimm *d = nt_dimm_of_dcr(res);
	bool cmd;
	int k = nt_bw_reg(d, off, &cmd);

	memcpy(res->virt + off, &raw, sizeof(raw));
	if (k >= 0 && cmd)
		nt_bw_command(d, k, le64_to_cpu((__force __le64)raw));
}

static u64 nt_bw_read64(struct nfit_test_res *res, u64 off)
{
	struct nt_dimm *d = nt_dimm_of_dcr(res);
	bool cmd;
	int k = nt_bw_reg(d, off, &cmd);
	u64 raw;

	if (k >= 0 && cmd) {
		d->blk_latches++;
		if (d->bw[k].pending && !d->bw[k].moved)
			nt_bw_move(d, k);
	}
	memcpy(&raw, res->virt + off, sizeof(raw));
	return le64_to_cpu((__force __le64)raw);
}

static u32 nt_bw_read32(struct nfit_test_res *res, u64 off)
{
	struct nt_dimm *d = nt_dimm_of_dcr(res);
	struct nt_bw *w;
	__le32 reg;
	bool cmd;
	int k = nt_bw_reg(d, off, &cmd);

	if (k >= 0 && !cmd && d->bw[k].pending) {
		w = &d->bw[k];
		w->pending = false;
		if (!w->moved) {
			w->status |= NT_BW_ST_UNLATCHED;
			dev_info_ratelimited(nt_dimm_dev(d), "nfit_test: block window %u: status read before the command was read back (LATCH)\n",
					     k);
		}
		if (w->status & NT_BW_ST_ERRORS)
			d->blk_errors++;
		else if (w->write)
			nt_bw_access(d, d->bdw.virt, k, 0, d->media + w->dpa,
				     (u64)w->lines * NT_BW_LINE, false);
		/* the DIMM's window holds what it committed (or poison) */
		if (w->write)
			nt_bw_fill(d, d->bw_dev, k);
		reg = cpu_to_le32(w->status);
		memcpy(res->virt + off, &reg, sizeof(reg));
	}
	memcpy(&reg, res->virt + off, sizeof(reg));
	return le32_to_cpu(reg);
}

static const struct nfit_test_mmio_ops nt_bw_mmio = {
	.write64 = nt_bw_write64,
	.read64 = nt_bw_read64,
	.read32 = nt_bw_read32,
};

/* The block windows of DIMM @d as blk_variant @variant describes them. */
static void nt_blk_layout_init(struct nt_dimm *d, unsigned int variant)
{
	struct nt_blk_layout *l = &d->blk;

	*l = (struct nt_blk_layout){
		.dcr_windows = 1,
		.bdw_windows = 1,
		.ctl_stride = NT_DCR_SIZE,
		.status_offset = 8,
		.dcr_size = NT_DCR_SIZE,
		.win_size = NT_BDW_SIZE,
		.capacity = NT_DIMM_SIZE,
		.bdw_size = NT_BDW_SIZE,
		.ways = 1,
	};
	switch (variant) {
	case NT_BLK_OFFSETS:
		l->cmd_offset = 0x40;
		l->status_offset = 0x80;
		l->dcr_base = 0x200;
		l->win_offset = SZ_8K;
		l->bdw_base = SZ_4K;
		l->bdw_size = SZ_32K;
		break;
	case NT_BLK_INTERLEAVED:
		l->ways = 2;
		l->dcr_line = 256;
		l->bdw_line = 256;
		l->dcr_base = 256;
		l->bdw_base = 256;
		l->bdw_size = 2 * NT_BDW_SIZE;
		break;
	case NT_BLK_BAD_DCR_RANGE:
		l->status_offset = NT_DCR_SIZE - 2;
		break;
	case NT_BLK_BAD_BDW_RANGE:
		l->win_offset = SZ_4K;
		break;
	case NT_BLK_BAD_WIN_SIZE:
		l->win_size = 0;
		break;
	case NT_BLK_BAD_WINDOWS:
		l->bdw_windows = 0;
		break;
	case NT_BLK_WINDOWS_DIFFER:
		l->dcr_windows = 2;
		break;
	case NT_BLK_BAD_LINE:
		l->dcr_line = 4;
		break;
	case NT_BLK_BAD_DPA:
		l->start = BIT_ULL(54) - SZ_16M;
		break;
	case NT_BLK_BAD_WAYS:
		l->bdw_line = 256;
		l->ways = 0;
		break;
	}
}

/* the table */

static const guid_t nt_guid_pm = GUID_INIT(0x66f0d379, 0xb4f3, 0x4074,
					   0xac, 0x43, 0x0d, 0x33, 0x18, 0xb7,
					   0x8c, 0xdb);
static const guid_t nt_guid_dcr = GUID_INIT(0x92f701f6, 0x13b4, 0x405d,
					    0x91, 0x0b, 0x29, 0x93, 0x67, 0xe8,
					    0x23, 0x4c);
static const guid_t nt_guid_bdw = GUID_INIT(0x91af0530, 0x5d86, 0x470e,
					    0xa6, 0xb0, 0x0a, 0x2d, 0xb9, 0x40,
					    0x82, 0x49);
/* volatile virtual CD (ACPI 6.0, 5.2.25.2) */
static const guid_t nt_guid_vcd = GUID_INIT(0x3d5abd30, 0x4175, 0x87ce,
					    0x6d, 0x64, 0xd2, 0xad, 0xe5, 0x23,
					    0xc4, 0xbb);

/**
 * struct nt_nfit - an NFIT being built
 * @buf: the table
 * @len: bytes used
 * @cap: bytes allocated
 */
struct nt_nfit {
	u8 *buf;
	u32 len;
	u32 cap;
};

/* Append a zeroed subtable; @b->cap was sized for all of them. */
static void *nt_nfit_add(struct nt_nfit *b, u16 type, u16 len)
{
	struct acpi_nfit_header *hdr = (void *)(b->buf + b->len);

	if (WARN_ON_ONCE(b->len + len > b->cap))
		return NULL;
	hdr->type = type;
	hdr->length = len;
	b->len += len;
	return hdr;
}

/* 6.1's mock: SPA ranges of ACPI 6.0, without the location cookie */
#define NT_SPA_LEN_V61	offsetof(struct acpi_nfit_system_address, location_cookie)

static int nt_add_spa(struct nt_nfit *b, const struct nt_topology *topo,
		      u16 index, const guid_t *type, u64 start, u64 size)
{
	struct acpi_nfit_system_address *spa;

	spa = nt_nfit_add(b, ACPI_NFIT_TYPE_SYSTEM_ADDRESS,
			  topo->v61 ? NT_SPA_LEN_V61 : sizeof(*spa));
	if (!spa)
		return -E2BIG;
	spa->range_index = index;
	memcpy(spa->range_guid, type, sizeof(spa->range_guid));
	spa->address = start;
	spa->length = size;
	return 0;
}

/**
 * struct nt_map - one memory device map entry to add
 * @dimm: the DIMM
 * @range: SPA range index
 * @dcr: index of the control region it names
 * @region_id: which of the DIMM's regions this is
 * @size: bytes the DIMM contributes
 * @offset: offset of its first interleave line in the range
 * @dpa: first DPA
 * @ways: interleave ways of the range
 * @idt: interleave table index, 0 for none
 * @flags: its state flags (the topology's for every map are added)
 */
struct nt_map {
	const struct nt_dimm *dimm;
	u16 range;
	u16 dcr;
	u16 region_id;
	u64 size;
	u64 offset;
	u64 dpa;
	u16 ways;
	u16 idt;
	u16 flags;
};

static int nt_add_memdev(struct nt_nfit *b, const struct nt_map *m)
{
	struct acpi_nfit_memory_map *memdev;

	memdev = nt_nfit_add(b, ACPI_NFIT_TYPE_MEMORY_MAP, sizeof(*memdev));
	if (!memdev)
		return -E2BIG;
	memdev->device_handle = m->dimm->handle;
	memdev->physical_id = m->dimm->desc->phys_id;
	memdev->region_id = m->region_id;
	memdev->range_index = m->range;
	memdev->region_index = m->dcr;
	memdev->region_size = m->size;
	memdev->region_offset = m->offset;
	memdev->address = m->dpa;
	memdev->interleave_ways = m->ways;
	memdev->interleave_index = m->idt;
	memdev->flags = m->dimm->t->topo->mem_flags | m->flags;
	return 0;
}

/*
 * Control region @index of DIMM @d, format @code, with the block-window
 * fields when @blk.  6.1's table cuts the others before those fields.
 */
static int nt_add_dcr(struct nt_nfit *b, const struct nt_dimm *d, u16 index,
		      u16 code, bool blk)
{
	const struct nt_topology *topo = d->t->topo;
	struct acpi_nfit_control_region *dcr;
	u16 len = sizeof(*dcr);

	if (topo->v61 && !blk)
		len = offsetof(struct acpi_nfit_control_region, window_size);
	dcr = nt_nfit_add(b, ACPI_NFIT_TYPE_CONTROL_REGION, len);
	if (!dcr)
		return -E2BIG;
	dcr->region_index = index;
	dcr->vendor_id = NT_VENDOR;
	dcr->revision_id = NT_REVISION;
	dcr->serial_number = ~d->handle;
	dcr->code = code;
	if (topo->v61) {
		dcr->valid_fields = ACPI_NFIT_CONTROL_MFG_INFO_VALID;
		dcr->manufacturing_location = NT_MFG_LOCATION;
		/* the table holds it big endian */
		dcr->manufacturing_date = (__force u16)cpu_to_be16(NT_MFG_YEAR);
	}
	if (!blk)
		return 0;
	dcr->windows = d->blk.dcr_windows;
	dcr->window_size = d->blk.ctl_stride;
	dcr->command_offset = d->blk.cmd_offset;
	dcr->command_size = 8;
	dcr->status_offset = d->blk.status_offset;
	dcr->status_size = 4;
	return 0;
}

static int nt_add_bdw(struct nt_nfit *b, const struct nt_dimm *d)
{
	struct acpi_nfit_data_region *bdw;

	bdw = nt_nfit_add(b, ACPI_NFIT_TYPE_DATA_REGION, sizeof(*bdw));
	if (!bdw)
		return -E2BIG;
	bdw->region_index = d->desc->dcr;
	bdw->windows = d->blk.bdw_windows;
	bdw->offset = d->blk.win_offset;
	bdw->size = d->blk.win_size;
	bdw->capacity = d->blk.capacity;
	bdw->start_address = d->blk.start;
	return 0;
}

/* An interleave table of one line at offset 0 (nt_xlate()). */
static int nt_add_idt(struct nt_nfit *b, u16 index, u32 line)
{
	struct acpi_nfit_interleave *idt;

	BUILD_BUG_ON(sizeof(*idt) != offsetof(typeof(*idt), line_offset) +
		     sizeof(u32));
	idt = nt_nfit_add(b, ACPI_NFIT_TYPE_INTERLEAVE, sizeof(*idt));
	if (!idt)
		return -E2BIG;
	idt->interleave_index = index;
	idt->line_count = 1;
	idt->line_size = line;
	idt->line_offset[0] = 0;
	return 0;
}

/* Interleave table indexes of DIMM @i's control and aperture maps. */
static u16 nt_dcr_idt(const struct nt_dimm *d)
{
	return d->blk.dcr_line ? 2 * d->idx + 1 : 0;
}

static u16 nt_bdw_idt(const struct nt_dimm *d)
{
	return d->blk.bdw_line ? 2 * d->idx + 2 : 0;
}

/* the bytes of a flush hint structure with @n addresses */
static u16 nt_flush_len(unsigned int n)
{
	return offsetof(struct acpi_nfit_flush_address, hint_address) +
		n * sizeof(u64);
}

/* DIMM @d's hints: consecutive words of its NT_FLUSH_STRIDE bytes */
static int nt_add_flush(struct nt_nfit *b, const struct nfit_test *t,
			const struct nt_dimm *d)
{
	unsigned int j, n = t->topo->nr_hints;
	struct acpi_nfit_flush_address *flush;
	u64 *hint;

	BUILD_BUG_ON(NT_MAX_HINTS * sizeof(u64) > NT_FLUSH_STRIDE);
	flush = nt_nfit_add(b, ACPI_NFIT_TYPE_FLUSH_ADDRESS, nt_flush_len(n));
	if (!flush)
		return -E2BIG;
	flush->device_handle = d->handle;
	flush->hint_count = n;
	/* past the one address the ACPICA struct declares */
	hint = (void *)flush + offsetof(typeof(*flush), hint_address);
	for (j = 0; j < n; j++)
		hint[j] = t->flush.start + d->idx * NT_FLUSH_STRIDE +
			j * sizeof(u64);
	return 0;
}

/* The SPA range indexes of DIMM @i's control registers and aperture. */
static u16 nt_dcr_range(const struct nfit_test *t, int i)
{
	return t->topo->dimm[i].dcr_range;
}

static u16 nt_bdw_range(const struct nfit_test *t, int i)
{
	return t->topo->dimm[i].bdw_range;
}

/* The map of DIMM @d to its aperture range, in @m. */
static const struct nt_map *nt_bdw_map(const struct nfit_test *t,
				       const struct nt_dimm *d,
				       struct nt_map *m)
{
	*m = (struct nt_map){
		.dimm = d,
		.range = nt_bdw_range(t, d->idx),
		.dcr = d->desc->dcr,
		.offset = d->blk.bdw_base,
		.ways = d->blk.bdw_line ? d->blk.ways : 1,
		.idt = nt_bdw_idt(d),
		.flags = d->desc->bdw_flags,
	};
	return m;
}

/*
 * A platform capabilities structure with @caps (bits 0 and 1 valid): on
 * 6.1's nfit_test.0 the platform flushes the memory controller's queues
 */
static int nt_add_caps(struct nt_nfit *b, u32 caps)
{
	struct acpi_nfit_capabilities *cap;

	cap = nt_nfit_add(b, ACPI_NFIT_TYPE_CAPABILITIES, sizeof(*cap));
	if (!cap)
		return -E2BIG;
	cap->highest_capability = 1;
	cap->capabilities = caps;
	return 0;
}

/* The control region index of DIMM @d's maps of PM ranges. */
static u16 nt_pm_dcr(const struct nt_dimm *d)
{
	return d->desc->pm_dcr ? d->desc->pm_dcr : d->desc->dcr;
}

/* The maps of the PM ranges, then that of a DIMM mapped to no range. */
static int nt_add_pm_maps(struct nfit_test *t, struct nt_nfit *b)
{
	const struct nt_topology *topo = t->topo;
	u16 region_id[NT_MAX_DIMMS] = {};
	int s, p, rc = 0;

	for (s = 0; s < topo->nr_sets; s++) {
		const struct nt_pm_set *set = &topo->set[s];

		for (p = 0; p < set->ways && !rc; p++) {
			const struct nt_dimm *d = &t->dimm[set->dimm[p]];
			struct nt_map m = {
				.dimm = d,
				.range = set->range,
				.dcr = nt_pm_dcr(d),
				.region_id = region_id[set->dimm[p]]++,
				.size = set->size,
				.offset = set->offset[p],
				.dpa = set->dpa,
				.ways = set->ways,
				.flags = set->flags[p],
			};

			rc = nt_add_memdev(b, &m);
		}
	}
	/* the last DIMM */
	if (topo->unmapped && !rc) {
		const struct nt_dimm *d = &t->dimm[topo->nr_dimms - 1];
		struct nt_map m = {
			.dimm = d,
			.dcr = nt_pm_dcr(d),
			.size = topo->unmapped,
			.ways = 1,
			.flags = topo->unmapped_flags,
		};

		rc = nt_add_memdev(b, &m);
	}
	return rc;
}

/*
 * The maps of the block-window ranges: v4.2, each DIMM's two in turn;
 * 6.1, the control ranges', then the apertures'.
 */
static int nt_add_blk_maps(struct nfit_test *t, struct nt_nfit *b)
{
	const struct nt_topology *topo = t->topo;
	int i, rc = 0;

	for (i = 0; i < topo->nr_dimms && !rc; i++) {
		const struct nt_dimm *d = &t->dimm[i];
		struct nt_map m = {
			.dimm = d,
			.range = nt_dcr_range(t, i),
			.dcr = d->desc->dcr,
			.offset = d->blk.dcr_base,
			.ways = d->blk.dcr_line ? d->blk.ways : 1,
			.idt = nt_dcr_idt(d),
		};

		rc = nt_add_memdev(b, &m);
		if (!rc && !topo->v61)
			rc = nt_add_memdev(b, nt_bdw_map(t, d, &m));
	}
	for (i = 0; topo->v61 && i < topo->nr_dimms && !rc; i++) {
		struct nt_map m;

		rc = nt_add_memdev(b, nt_bdw_map(t, &t->dimm[i], &m));
	}
	return rc;
}

static int nt_build_subtables(struct nfit_test *t, struct nt_nfit *b)
{
	const struct nt_topology *topo = t->topo;
	int i, s, rc = 0;

	for (s = 0; s < topo->nr_sets && !rc; s++)
		rc = nt_add_spa(b, topo, topo->set[s].range, &nt_guid_pm,
				t->pm[s].start, t->pm[s].size);
	for (i = 0; topo->blk && i < topo->nr_dimms && !rc; i++)
		rc = nt_add_spa(b, topo, nt_dcr_range(t, i), &nt_guid_dcr,
				t->dimm[i].dcr.start, t->dimm[i].dcr.size);
	for (i = 0; topo->blk && i < topo->nr_dimms && !rc; i++)
		rc = nt_add_spa(b, topo, nt_bdw_range(t, i), &nt_guid_bdw,
				t->dimm[i].bdw.start, t->dimm[i].bdw.size);
	/* a virtual CD: index 0, no DIMM behind it, nothing to map */
	if (topo->vcd_size && !rc)
		rc = nt_add_spa(b, topo, 0, &nt_guid_vcd, t->vcd,
				topo->vcd_size);

	/*
	 * nfit.ko describes a DIMM by the control region of its first map:
	 * on 6.1's nfit_test.0 the block-window one (format 0x201), as 6.1
	 * shows it, so those maps come first there
	 */
	if (!rc && topo->blk && topo->v61)
		rc = nt_add_blk_maps(t, b);
	if (!rc)
		rc = nt_add_pm_maps(t, b);
	if (!rc && topo->blk && !topo->v61)
		rc = nt_add_blk_maps(t, b);

	for (i = 0; i < topo->nr_dimms && !rc; i++)
		rc = nt_add_dcr(b, &t->dimm[i], t->dimm[i].desc->dcr,
				topo->format, topo->blk);
	for (i = 0; topo->pm_format && i < topo->nr_dimms && !rc; i++)
		rc = nt_add_dcr(b, &t->dimm[i], t->dimm[i].desc->pm_dcr,
				topo->pm_format, false);
	for (i = 0; topo->blk && i < topo->nr_dimms && !rc; i++)
		rc = nt_add_bdw(b, &t->dimm[i]);
	for (i = 0; topo->blk && i < topo->nr_dimms && !rc; i++) {
		const struct nt_dimm *d = &t->dimm[i];

		if (d->blk.dcr_line)
			rc = nt_add_idt(b, nt_dcr_idt(d), d->blk.dcr_line);
		if (!rc && d->blk.bdw_line)
			rc = nt_add_idt(b, nt_bdw_idt(d), d->blk.bdw_line);
	}
	for (i = 0; topo->nr_hints && i < topo->nr_dimms && !rc; i++)
		rc = nt_add_flush(b, t, &t->dimm[i]);
	if (platform_caps >= 0 && !rc)
		rc = nt_add_caps(b, platform_caps);
	else if (topo->v61 && topo->nr_hints && !rc)
		rc = nt_add_caps(b, ACPI_NFIT_CAPABILITY_MEM_FLUSH);
	return rc;
}

/* The misalign knob: nfit_test.1's range or mapping off a page boundary. */
static void nt_misalign(struct nfit_test *t, struct nt_nfit *b)
{
	unsigned int how = READ_ONCE(misalign);
	struct acpi_nfit_system_address *spa;
	struct acpi_nfit_memory_map *memdev;
	struct acpi_nfit_header *hdr;
	u32 off;

	if (t->pdev->id != 1 || how == NT_MISALIGN_NONE)
		return;
	for (off = sizeof(struct acpi_table_nfit); off < b->len;
	     off += hdr->length) {
		hdr = (struct acpi_nfit_header *)(b->buf + off);
		spa = (struct acpi_nfit_system_address *)hdr;
		memdev = (struct acpi_nfit_memory_map *)hdr;
		if (hdr->type == ACPI_NFIT_TYPE_SYSTEM_ADDRESS &&
		    how == NT_MISALIGN_SPA_START) {
			spa->address += 512;
			spa->length -= PAGE_SIZE;
		} else if (hdr->type == ACPI_NFIT_TYPE_SYSTEM_ADDRESS &&
			   how == NT_MISALIGN_SPA_SIZE) {
			spa->length -= 512;
		} else if (hdr->type == ACPI_NFIT_TYPE_MEMORY_MAP &&
			   how == NT_MISALIGN_DPA) {
			memdev->address += 512;
		} else if (hdr->type == ACPI_NFIT_TYPE_MEMORY_MAP &&
			   how == NT_MISALIGN_MAP_SIZE) {
			memdev->region_size -= 512;
		}
	}
	dev_info(&t->pdev->dev, "misalign %u: the table describes a misaligned %s\n",
		 how, how <= NT_MISALIGN_MAP_SIZE ? "mapping" : "range");
}

/* First subtable of @type in @b, or NULL. */
static struct acpi_nfit_header *nt_nfit_find(struct nt_nfit *b, u16 type)
{
	struct acpi_nfit_header *hdr;
	u32 off;

	for (off = sizeof(struct acpi_table_nfit); off < b->len;
	     off += hdr->length) {
		hdr = (struct acpi_nfit_header *)(b->buf + off);
		if (hdr->type == type)
			return hdr;
	}
	return NULL;
}

/* Append a copy of @hdr (for a duplicate, or to modify). */
static void *nt_nfit_copy(struct nt_nfit *b, const struct acpi_nfit_header *hdr)
{
	void *p = nt_nfit_add(b, hdr->type, hdr->length);

	if (p)
		memcpy(p, hdr, hdr->length);
	return p;
}

/* Cut @hdr to @len bytes, the subtables after it move up. */
static void nt_nfit_cut(struct nt_nfit *b, struct acpi_nfit_header *hdr,
			u16 len)
{
	u8 *end = (u8 *)hdr + hdr->length;

	memmove((u8 *)hdr + len, end, b->buf + b->len - end);
	b->len -= hdr->length - len;
	hdr->length = len;
}

/* DIMMs 1..@ways-1 join DIMM 0's map (@map) and control region (@dcr). */
static void nt_defect_ways(struct nt_nfit *b, struct acpi_nfit_memory_map *map,
			   struct acpi_nfit_control_region *dcr, u16 ways)
{
	struct acpi_nfit_control_region *dcr2;
	struct acpi_nfit_memory_map *map2;
	u16 i;

	map->interleave_ways = ways;
	map->region_size = NT_DIMM_SIZE / 32;
	for (i = 1; i < ways; i++) {
		map2 = nt_nfit_copy(b, &map->header);
		dcr2 = nt_nfit_copy(b, &dcr->header);
		if (!map2 || !dcr2)
			return;
		map2->device_handle = i;
		map2->physical_id = i;
		map2->region_index = i + 1;
		map2->region_offset = i * NT_ILEAVE;
		dcr2->region_index = i + 1;
		dcr2->serial_number = ~(u32)i;
	}
}

/* The defects in the subtables (nt_defect_header() does the header). */
static void nt_defect_subtables(struct nt_nfit *b, unsigned int how)
{
	struct acpi_nfit_system_address *spa, *spa2;
	struct acpi_nfit_control_region *dcr, *dcr2;
	struct acpi_nfit_memory_map *map, *map2;
	struct acpi_nfit_flush_address *flush;
	struct acpi_nfit_data_region *bdw;
	struct acpi_nfit_interleave *idt;
	u16 ilen = offsetof(struct acpi_nfit_interleave, line_offset);
	u16 flen = offsetof(struct acpi_nfit_flush_address, hint_address);

	spa = (void *)nt_nfit_find(b, ACPI_NFIT_TYPE_SYSTEM_ADDRESS);
	map = (void *)nt_nfit_find(b, ACPI_NFIT_TYPE_MEMORY_MAP);
	dcr = (void *)nt_nfit_find(b, ACPI_NFIT_TYPE_CONTROL_REGION);
	if (!spa || !map || !dcr)
		return;

	switch (how) {
	case NT_DEFECT_STRAY:
		if (!WARN_ON_ONCE(b->len + 3 > b->cap))
			b->len += 3;
		break;
	case NT_DEFECT_SUB_TINY:
		dcr->header.length = 2;
		break;
	case NT_DEFECT_SUB_PAST_END:
		dcr->header.length += 8;
		break;
	case NT_DEFECT_UNKNOWN_TYPE:
		nt_nfit_add(b, 0xff, 8);
		break;
	case NT_DEFECT_SPA_SHORT:
		nt_nfit_cut(b, &spa->header, 40);
		break;
	case NT_DEFECT_SPA_INDEX0:
		spa->range_index = 0;
		break;
	case NT_DEFECT_SPA_DUP:
		nt_nfit_copy(b, &spa->header);
		break;
	case NT_DEFECT_SPA_ZERO:
	case NT_DEFECT_SPA_WRAP:
	case NT_DEFECT_SPA_OVERLAP:
		spa2 = nt_nfit_copy(b, &spa->header);
		if (!spa2)
			break;
		spa2->range_index = 2;
		if (how == NT_DEFECT_SPA_ZERO) {
			spa2->length = 0;
		} else if (how == NT_DEFECT_SPA_WRAP) {
			spa2->address = ~0ULL - SZ_1M + 1 + SZ_4K;
			spa2->length = SZ_1M;
		} else {
			spa2->address += SZ_4K;
			spa2->length = SZ_4K;
		}
		break;
	case NT_DEFECT_DCR_INDEX0:
	case NT_DEFECT_DCR_DUP:
		dcr2 = nt_nfit_copy(b, &dcr->header);
		if (dcr2 && how == NT_DEFECT_DCR_INDEX0)
			dcr2->region_index = 0;
		break;
	case NT_DEFECT_DCR_WINDOWS:
		dcr2 = nt_nfit_add(b, ACPI_NFIT_TYPE_CONTROL_REGION,
				   offsetofend(struct acpi_nfit_control_region,
					       windows));
		if (!dcr2)
			break;
		dcr2->region_index = 2;
		dcr2->windows = 2;
		break;
	case NT_DEFECT_IDT_INDEX0:
	case NT_DEFECT_IDT_DUP:
	case NT_DEFECT_IDT_EMPTY:
	case NT_DEFECT_IDT_LINES:
		idt = nt_nfit_add(b, ACPI_NFIT_TYPE_INTERLEAVE, ilen + 4);
		if (!idt)
			break;
		idt->interleave_index = how == NT_DEFECT_IDT_INDEX0 ? 0 :
			how == NT_DEFECT_IDT_DUP ? 7 :
			how == NT_DEFECT_IDT_EMPTY ? 8 : 9;
		idt->line_count = how == NT_DEFECT_IDT_EMPTY ? 0 :
			how == NT_DEFECT_IDT_LINES ? 1000 : 1;
		idt->line_size = 256;
		if (how == NT_DEFECT_IDT_DUP)
			nt_nfit_copy(b, &idt->header);
		break;
	case NT_DEFECT_FLUSH_HINTS:
	case NT_DEFECT_FLUSH_DUP:
		flush = nt_nfit_add(b, ACPI_NFIT_TYPE_FLUSH_ADDRESS,
				    flen + 8);
		if (!flush)
			break;
		flush->device_handle = map->device_handle;
		if (how == NT_DEFECT_FLUSH_HINTS) {
			flush->hint_count = 100;
		} else {
			flush->header.length = flen;
			b->len -= 8;
			nt_nfit_copy(b, &flush->header);
		}
		break;
	case NT_DEFECT_BDW_NO_DCR:
		bdw = nt_nfit_add(b, ACPI_NFIT_TYPE_DATA_REGION, sizeof(*bdw));
		if (!bdw)
			break;
		bdw->region_index = 9;
		bdw->windows = 1;
		bdw->size = SZ_4K;
		bdw->capacity = SZ_4K;
		break;
	case NT_DEFECT_MAP_SHORT:
		nt_nfit_cut(b, &map->header, 40);
		break;
	case NT_DEFECT_MAP_WAYS0:
		map->interleave_ways = 0;
		break;
	case NT_DEFECT_MAP_NO_DCR:
		map->region_index = 9;
		break;
	case NT_DEFECT_MAP_NO_IDT:
		map->interleave_index = 9;
		break;
	case NT_DEFECT_ISET_SHORT:
		map->interleave_ways = 2;
		break;
	case NT_DEFECT_WAYS32:
	case NT_DEFECT_WAYS33:
		nt_defect_ways(b, map, dcr,
			       how == NT_DEFECT_WAYS32 ? 32 : 33);
		break;
	case NT_DEFECT_MAP_SIZE0:
		map->region_size = 0;
		break;
	case NT_DEFECT_BDW_DUP:
		bdw = nt_nfit_add(b, ACPI_NFIT_TYPE_DATA_REGION, sizeof(*bdw));
		if (!bdw)
			break;
		bdw->region_index = dcr->region_index;
		bdw->windows = 1;
		bdw->size = SZ_4K;
		bdw->capacity = SZ_4K;
		nt_nfit_copy(b, &bdw->header);
		break;
	case NT_DEFECT_SPA_IOMEM:
		spa->address = 0;
		break;
	case NT_DEFECT_FLUSH_NOWHERE:
		flush = nt_nfit_add(b, ACPI_NFIT_TYPE_FLUSH_ADDRESS, flen + 8);
		if (!flush)
			break;
		flush->device_handle = map->device_handle;
		flush->hint_count = 1;
		/* the last page of the bus's mock span: no mock memory there */
		flush->hint_address[0] = (spa->address & ~(NT_BUS_SPAN - 1)) +
			NT_BUS_SPAN - SZ_4K;
		break;
	case NT_DEFECT_MAP_DUP:
	case NT_DEFECT_MAP_NO_SPA:
	case NT_DEFECT_ISET_MIXED:
		map2 = nt_nfit_copy(b, &map->header);
		if (!map2 || how == NT_DEFECT_MAP_DUP)
			break;
		map2->device_handle = 0x1;
		map2->address += map2->region_size;
		if (how == NT_DEFECT_MAP_NO_SPA)
			map2->range_index = 9;
		else
			map2->interleave_ways = 2;
		break;
	}
}

/* The defects in the header, after the checksum. */
static void nt_defect_header(struct nt_nfit *b, unsigned int how)
{
	struct acpi_table_nfit *nfit = (struct acpi_table_nfit *)b->buf;

	switch (how) {
	case NT_DEFECT_SIGNATURE:
		nfit->header.signature[3] = 'X';
		break;
	case NT_DEFECT_HDR_SHORT:
		nfit->header.length = 16;
		break;
	case NT_DEFECT_HDR_LONG:
		nfit->header.length = b->len + 8;
		break;
	case NT_DEFECT_CHECKSUM:
		nfit->header.checksum++;
		break;
	case NT_DEFECT_TINY:
		b->len = 20;
		break;
	}
}

/* Build the NFIT of @t into @b; the caller frees @b->buf. */
static int nt_build_nfit(struct nfit_test *t, struct nt_nfit *b)
{
	const struct nt_topology *topo = t->topo;
	/* the defects and misalignments edit v4.2's nfit_test.1 table */
	unsigned int defect = t->pdev->id == 1 && !topo->v61 ?
		READ_ONCE(nfit_defect) : 0;
	struct acpi_table_nfit *nfit;
	int nr_spa = topo->nr_sets + !!topo->vcd_size, s, rc;
	int nr_memdev = !!topo->unmapped;
	u8 sum = 0;
	u32 i;

	for (s = 0; s < topo->nr_sets; s++)
		nr_memdev += topo->set[s].ways;
	if (topo->blk) {
		nr_spa += 2 * topo->nr_dimms;
		nr_memdev += 2 * topo->nr_dimms;
	}
	b->cap = sizeof(*nfit) +
		nr_spa * sizeof(struct acpi_nfit_system_address) +
		nr_memdev * sizeof(struct acpi_nfit_memory_map) +
		(topo->pm_format ? 2 : 1) * topo->nr_dimms *
		sizeof(struct acpi_nfit_control_region) +
		(topo->blk ? topo->nr_dimms *
		 (sizeof(struct acpi_nfit_data_region) +
		  2 * sizeof(struct acpi_nfit_interleave)) : 0) +
		topo->nr_dimms * nt_flush_len(topo->nr_hints) +
		sizeof(struct acpi_nfit_capabilities) +
		NT_DEFECT_ROOM;
	b->buf = kzalloc(b->cap, GFP_KERNEL);
	if (!b->buf)
		return -ENOMEM;
	b->len = sizeof(*nfit);

	rc = nt_build_subtables(t, b);
	if (rc)
		return rc;
	if (!topo->v61)
		nt_misalign(t, b);
	if (defect)
		nt_defect_subtables(b, defect);

	nfit = (struct acpi_table_nfit *)b->buf;
	memcpy(nfit->header.signature, ACPI_SIG_NFIT,
	       sizeof(nfit->header.signature));
	nfit->header.length = b->len;
	nfit->header.revision = 1;
	memcpy(nfit->header.oem_id, "NVTEST", sizeof(nfit->header.oem_id));
	memcpy(nfit->header.oem_table_id, "NFITTEST",
	       sizeof(nfit->header.oem_table_id));
	nfit->header.oem_revision = t->pdev->id;
	memcpy(nfit->header.asl_compiler_id, "NVT ",
	       sizeof(nfit->header.asl_compiler_id));
	nfit->header.asl_compiler_revision = 1;
	for (i = 0; i < b->len; i++)
		sum += b->buf[i];
	nfit->header.checksum = -sum;
	if (defect) {
		nt_defect_header(b, defect);
		dev_info(&t->pdev->dev, "nfit_defect %u: the table is built wrong\n",
			 defect);
	}
	return 0;
}

/* mock resources */

/* Next fake physical address for @size bytes; big ranges 16 MiB aligned. */
static resource_size_t nt_phys(struct nfit_test *t, resource_size_t size)
{
	resource_size_t addr;

	addr = ALIGN(t->next_phys, size >= SZ_2M ? SZ_16M : PAGE_SIZE);
	t->next_phys = addr + size;
	return addr;
}

/* A vmalloc buffer published at fake addresses. */
static int nt_buffer(struct nfit_test *t, struct nfit_test_res *res,
		     size_t size, const char *name)
{
	res->virt = vzalloc(size);
	if (!res->virt)
		return -ENOMEM;
	res->size = size;
	res->start = nt_phys(t, size);
	res->name = name;
	return nfit_test_res_add(res);
}

/*
 * A DIMM's contents (media pages, label area) belong to the module, not
 * to one bind of the platform device: unbinding and rebinding nfit_test.N
 * (a bus disable/enable) finds them as they were, as on hardware.
 */
static struct nt_contents {
	struct page **pages;
	void *label;
	unsigned long *poison;
} nt_contents[NT_NR_BUSES][NT_MAX_DIMMS];

static void nt_contents_free(struct nt_contents *c)
{
	unsigned long k, n = NT_DIMM_SIZE >> PAGE_SHIFT;

	for (k = 0; c->pages && k < n && c->pages[k]; k++)
		__free_page(c->pages[k]);
	kvfree(c->pages);
	vfree(c->label);
	kvfree(c->poison);
	c->pages = NULL;
	c->label = NULL;
	c->poison = NULL;
}

static void nt_contents_free_all(void)
{
	int b, i;

	for (b = 0; b < NT_NR_BUSES; b++)
		for (i = 0; i < NT_MAX_DIMMS; i++)
			nt_contents_free(&nt_contents[b][i]);
}

/* The contents of DIMM @d, allocated at the first bind. */
static int nt_alloc_contents(struct nt_dimm *d, bool label)
{
	struct nt_contents *c = &nt_contents[d->t->pdev->id][d->idx];
	unsigned long i;

	d->nr_pages = NT_DIMM_SIZE >> PAGE_SHIFT;
	if (!c->pages) {
		c->pages = kvcalloc(d->nr_pages, sizeof(*c->pages),
				    GFP_KERNEL);
		if (!c->pages)
			return -ENOMEM;
		for (i = 0; i < d->nr_pages; i++) {
			c->pages[i] = alloc_page(GFP_KERNEL | __GFP_ZERO);
			if (!c->pages[i]) {
				nt_contents_free(c);
				return -ENOMEM;
			}
			cond_resched();
		}
	}
	if (label && !c->label) {
		c->label = vzalloc(NT_LABEL_SIZE);
		if (!c->label)
			return -ENOMEM;
		/* 6.1's mock: a fresh area starts with its name, no index */
		if (d->t->topo->v61)
			snprintf(c->label, NT_LABEL_SIZE, "label%d", d->idx);
	}
	if (!c->poison) {
		c->poison = kvcalloc(BITS_TO_LONGS(NT_POISON_BITS),
				     sizeof(unsigned long), GFP_KERNEL);
		if (!c->poison)
			return -ENOMEM;
	}
	d->poison = c->poison;
	d->pages = c->pages;
	d->label = label ? c->label : NULL;
	d->media = vmap(d->pages, d->nr_pages, VM_MAP, PAGE_KERNEL);
	if (!d->media)
		return -ENOMEM;
	d->media_blob.data = d->media;
	d->media_blob.size = NT_DIMM_SIZE;
	return 0;
}

/*
 * Poison.  nfit_test_media_ops.readable of the PM ranges: the bytes of
 * [@off, +@len) of the range before the first poisoned line of a member
 * DIMM; a read stopped there is counted and logged on that DIMM.
 */
static u64 nt_pm_readable(struct nfit_test_res *res, u64 off, u64 len)
{
	struct nfit_test *t = res->priv;
	const struct nt_pm_set *set = &t->topo->set[res - t->pm];
	u64 done, run;

	if (!atomic_long_read(&nt_poisoned))
		return len;
	spin_lock(&nt_poison_lock);
	for (done = 0; done < len; done += run) {
		u64 o = off + done, line = o / NT_ILEAVE, in = o % NT_ILEAVE;
		struct nt_dimm *d = &t->dimm[set->dimm[line % set->ways]];
		u64 dpa = set->dpa + line / set->ways * NT_ILEAVE + in;
		u64 bad;

		run = min_t(u64, len - done, NT_ILEAVE - in);
		bad = nt_poison_hit(d, dpa, run);
		if (bad == U64_MAX)
			continue;
		done += max_t(u64, dpa, bad) - dpa;
		dev_info_ratelimited(nt_dimm_dev(d), "nfit_test: read stopped by poison at DPA %#llx (range offset %#llx)\n",
				     bad, off + done);
		break;
	}
	spin_unlock(&nt_poison_lock);
	return min(done, len);
}

static const struct nfit_test_media_ops nt_pm_media = {
	.readable = nt_pm_readable,
};

/* Map PM range @s: its members' pages, one interleave line each in turn. */
static int nt_map_set(struct nfit_test *t, int s)
{
	const struct nt_pm_set *set = &t->topo->set[s];
	struct nfit_test_res *res = &t->pm[s];
	unsigned long n = set->ways * (set->size >> PAGE_SHIFT), k;
	unsigned long first = set->dpa >> PAGE_SHIFT;
	struct page **pages;

	BUILD_BUG_ON(NT_ILEAVE != PAGE_SIZE);
	pages = kvcalloc(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (k = 0; k < n; k++)
		pages[k] = t->dimm[set->dimm[k % set->ways]].pages[first +
								   k / set->ways];
	res->virt = vmap(pages, n, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
	if (!res->virt)
		return -ENOMEM;
	res->size = (resource_size_t)n << PAGE_SHIFT;
	res->start = nt_phys(t, res->size);
	res->name = "PM range";
	res->media = &nt_pm_media;
	res->priv = t;
	return nfit_test_res_add(res);
}

/* devres action: runs after nfit's own teardown, so nothing maps it */
static void nt_free(void *data)
{
	struct nfit_test *t = data;
	int i, s;

	nfit_test_res_del(&t->flush);
	vfree(t->flush.virt);
	for (s = 0; s < NT_MAX_SETS; s++) {
		nfit_test_res_del(&t->pm[s]);
		if (t->pm[s].virt)
			vunmap(t->pm[s].virt);
	}
	for (i = 0; i < NT_MAX_DIMMS; i++) {
		struct nt_dimm *d = &t->dimm[i];

		nfit_test_res_del(&d->dcr);
		vfree(d->dcr.virt);
		nfit_test_res_del(&d->bdw);
		vfree(d->bdw.virt);
		vfree(d->bw_dev);
		d->bw_dev = NULL;
		/* pages and label stay in nt_contents until module exit */
		if (d->media)
			vunmap(d->media);
	}
}

static void nt_dimm_init(struct nfit_test *t, int i)
{
	struct nt_dimm *d = &t->dimm[i];
	bool first_bus = t->pdev->id == 0;

	d->t = t;
	d->idx = i;
	d->desc = &t->topo->dimm[i];
	d->handle = d->desc->handle;
	d->config_size = NT_LABEL_SIZE;
	d->max_xfer = NT_MAX_XFER;
	d->fail_status = NT_ST_HW_ERROR;
	d->short_bytes = 16;
	d->corrupt_stride = 128;
	d->corrupt_xor = 0xff;
	d->call_len = NT_CALL_LEN;
	d->fail_cmds = first_bus ? fail_cmds[i] : 0;
	d->short_cmds = first_bus ? short_cmds[i] : 0;
	d->corrupt_cmds = first_bus ? corrupt_cmds[i] : 0;
	d->blk_flags = NT_BW_LATCH;
	d->blk_fail_status = NT_BW_ST_MEDIA;
	/* the variants edit v4.2's layout */
	d->variant = first_bus && !t->topo->v61 ?
		READ_ONCE(blk_variant[i]) : NT_BLK_V42;
	if (d->variant >= NT_BLK_NR) {
		dev_warn(&t->pdev->dev, "blk_variant %u of DIMM %d unknown, using 0\n",
			 d->variant, i);
		d->variant = NT_BLK_V42;
	}
	if (t->topo->blk && d->variant != NT_BLK_V42)
		dev_info(&t->pdev->dev, "blk_variant %u: DIMM %d's block windows: %s\n",
			 d->variant, i, nt_blk_variant_name[d->variant]);
	nt_blk_layout_init(d, d->variant);
	if (t->topo->v61) {
		/* 6.1's control range: just the two registers */
		d->blk.dcr_size = NT_DCR_SIZE_V61;
		d->blk.ctl_stride = NT_DCR_SIZE_V61;
	}
	nt_smart_init(&d->smart, &t->acpi_desc, d->handle);
}

static int nt_alloc(struct nfit_test *t)
{
	const struct nt_topology *topo = t->topo;
	int i, s, rc;

	/* nt_free() may see every one of these */
	for (s = 0; s < NT_MAX_SETS; s++)
		INIT_LIST_HEAD(&t->pm[s].list);
	INIT_LIST_HEAD(&t->flush.list);
	for (i = 0; i < NT_MAX_DIMMS; i++) {
		INIT_LIST_HEAD(&t->dimm[i].dcr.list);
		INIT_LIST_HEAD(&t->dimm[i].bdw.list);
	}
	for (i = 0; i < topo->nr_dimms; i++)
		nt_dimm_init(t, i);
	/*
	 * Registered before acpi_nfit_init() adds the bus teardown, so run
	 * after it: the mock memory outlives every mapping of it.
	 */
	rc = devm_add_action_or_reset(&t->pdev->dev, nt_free, t);
	if (rc)
		return rc;

	for (i = 0; i < topo->nr_dimms; i++) {
		struct nt_dimm *d = &t->dimm[i];

		rc = nt_alloc_contents(d, topo->cmds != 0);
		if (rc)
			return rc;
	}
	for (s = 0; s < topo->nr_sets; s++) {
		rc = nt_map_set(t, s);
		if (rc)
			return rc;
	}
	for (i = 0; topo->blk && i < topo->nr_dimms; i++) {
		struct nt_dimm *d = &t->dimm[i];

		/* registers: a device (the emulated block windows) */
		d->dcr.mmio = &nt_bw_mmio;
		rc = nt_buffer(t, &d->dcr, d->blk.dcr_size,
			       "control registers");
		if (rc)
			return rc;
		d->bw_dev = vzalloc(d->blk.bdw_size);
		if (!d->bw_dev)
			return -ENOMEM;
		d->bdw.cache = &nt_bw_cache;
		rc = nt_buffer(t, &d->bdw, d->blk.bdw_size,
			       "block-window aperture");
		if (rc)
			return rc;
	}
	if (topo->nr_hints) {
		rc = nt_buffer(t, &t->flush, PAGE_SIZE, "flush hints");
		if (rc)
			return rc;
		for (i = 0; i < topo->nr_dimms; i++)
			t->dimm[i].flush_hint = t->flush.virt +
				i * NT_FLUSH_STRIDE;
	}
	if (topo->vcd_size)
		t->vcd = nt_phys(t, topo->vcd_size);
	return 0;
}

/* the ARS firmware's view of the PM ranges and their DIMMs' poison */
static void nt_ars_setup(struct nfit_test *t)
{
	struct nt_ars *a = &t->ars;
	int s, k;

	nt_ars_init(a);
	a->dev = &t->pdev->dev;
	a->acpi_desc = &t->acpi_desc;
	a->poison_lock = &nt_poison_lock;
	a->poisoned = &nt_poisoned;
	a->line = NT_POISON_LINE;
	a->ileave = NT_ILEAVE;
	a->dpa_size = NT_DIMM_SIZE;
	BUILD_BUG_ON(NT_MAX_SETS > NT_ARS_MAX_RANGES);
	BUILD_BUG_ON(NT_MAX_WAYS > NT_ARS_MAX_WAYS);
	for (s = 0; s < t->topo->nr_sets; s++) {
		const struct nt_pm_set *set = &t->topo->set[s];
		struct nt_ars_range *r = &a->r[s];

		r->spa = t->pm[s].start;
		r->size = t->pm[s].size;
		r->dpa = set->dpa;
		r->ways = set->ways;
		for (k = 0; k < set->ways; k++) {
			r->poison[k] = t->dimm[set->dimm[k]].poison;
			r->handle[k] = t->dimm[set->dimm[k]].handle;
		}
	}
	a->nr = t->topo->nr_sets;
}

/* debugfs: nfit_test/nfit_test.N/dimmI/, and nfit_test/nmemX -> it */

static int nt_stats_show(struct seq_file *m, void *unused)
{
	struct nt_dimm *d = m->private;
	unsigned long cmds = NT_FW_CMDS;
	unsigned int cmd;

	seq_puts(m, "command calls faults\n");
	for_each_set_bit(cmd, &cmds, ND_CMD_CALL + 1)
		seq_printf(m, "%s %llu %llu\n", nvdimm_cmd_name(cmd),
			   d->calls[cmd], d->faults[cmd]);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nt_stats);

/*
 * debugfs "poison": reads list the poisoned DPA runs ("OFFSET LENGTH",
 * hex, one a line); writes "OFFSET LENGTH" poison the lines covering
 * those bytes of DPA, "clear OFFSET LENGTH" clears them, "clear" clears
 * all.  Numbers in C notation.  Bad input: EINVAL (malformed, length 0)
 * or ERANGE (past the DPA space), logged, nothing changed.
 */
static int nt_poison_show(struct seq_file *m, void *unused)
{
	struct nt_dimm *d = m->private;
	unsigned long b, e = 0;

	spin_lock(&nt_poison_lock);
	for (;;) {
		b = find_next_bit(d->poison, NT_POISON_BITS, e);
		if (b >= NT_POISON_BITS)
			break;
		e = find_next_zero_bit(d->poison, NT_POISON_BITS, b);
		seq_printf(m, "%#llx %#llx\n", (u64)b * NT_POISON_LINE,
			   (u64)(e - b) * NT_POISON_LINE);
	}
	spin_unlock(&nt_poison_lock);
	return 0;
}

static int nt_poison_open(struct inode *inode, struct file *file)
{
	return single_open(file, nt_poison_show, inode->i_private);
}

/* "OFFSET LENGTH" of @p into [*@first, *@last] lines, or an errno */
static int nt_poison_parse(char *p, unsigned long *first,
			   unsigned long *last)
{
	char *o = strsep(&p, " \t"), *l;
	u64 off, len;

	p = p ? skip_spaces(p) : NULL;
	l = p ? strsep(&p, " \t") : NULL;
	if (!o || !l || (p && *skip_spaces(p)) ||
	    kstrtou64(o, 0, &off) || kstrtou64(l, 0, &len) || !len)
		return -EINVAL;
	if (off >= NT_DIMM_SIZE || len > NT_DIMM_SIZE - off)
		return -ERANGE;
	*first = off / NT_POISON_LINE;
	*last = (off + len - 1) / NT_POISON_LINE;
	return 0;
}

static ssize_t nt_poison_write(struct file *file, const char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	struct nt_dimm *d = ((struct seq_file *)file->private_data)->private;
	unsigned long first = 0, last = NT_POISON_BITS - 1, i, n = 0;
	bool clear = false;
	char buf[64], *p;
	int rc = -EINVAL;

	if (count >= sizeof(buf))
		goto bad;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	p = strim(buf);
	if (!strncmp(p, "clear", 5) && (!p[5] || isspace(p[5]))) {
		clear = true;
		p = skip_spaces(p + 5);
	}
	if (!clear || *p) {
		rc = nt_poison_parse(p, &first, &last);
		if (rc)
			goto bad;
	}
	spin_lock(&nt_poison_lock);
	for (i = first; i <= last; i++) {
		if (clear ? __test_and_clear_bit(i, d->poison) :
			    !__test_and_set_bit(i, d->poison))
			n++;
	}
	if (clear)
		atomic_long_sub(n, &nt_poisoned);
	else
		atomic_long_add(n, &nt_poisoned);
	spin_unlock(&nt_poison_lock);
	dev_info(nt_dimm_dev(d), "nfit_test: %s DPA [%#llx, %#llx): %lu lines changed\n",
		 clear ? "poison cleared in" : "poisoned", (u64)first * NT_POISON_LINE,
		 (u64)(last + 1) * NT_POISON_LINE, n);
	return count;
bad:
	dev_info(nt_dimm_dev(d), "nfit_test: poison: %zu-byte write refused: %d\n",
		 count, rc);
	return rc;
}

static const struct file_operations nt_poison_fops = {
	.owner = THIS_MODULE,
	.open = nt_poison_open,
	.read = seq_read,
	.write = nt_poison_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static void nt_debugfs_dimm(struct nfit_test *t, struct nt_dimm *d)
{
	struct nfit_mem *nfit_mem;
	struct dentry *dir;
	char name[16], target[48];

	snprintf(name, sizeof(name), "dimm%d", d->idx);
	dir = debugfs_create_dir(name, t->dir);
	debugfs_create_x32("handle", 0444, dir, &d->handle);
	debugfs_create_blob("media", 0400, dir, &d->media_blob);
	if (d->flush_hint)
		debugfs_create_x64("flush_hint", 0600, dir, d->flush_hint);
	debugfs_create_file("stats", 0444, dir, d, &nt_stats_fops);
	debugfs_create_file("poison", 0600, dir, d, &nt_poison_fops);
	debugfs_create_u64("poison_reads", 0444, dir, &d->poison_reads);
	nt_smart_debugfs(&d->smart, dir);
	nt_fw_debugfs(t->fw, d->idx, dir);
	if (t->topo->cmds) {
		debugfs_create_u32("config_size", 0600, dir, &d->config_size);
		debugfs_create_u32("max_xfer", 0600, dir, &d->max_xfer);
		debugfs_create_x64("fail_cmds", 0600, dir, &d->fail_cmds);
		debugfs_create_u32("fail_errno", 0600, dir, &d->fail_errno);
		debugfs_create_x32("fail_status", 0600, dir, &d->fail_status);
		debugfs_create_x64("short_cmds", 0600, dir, &d->short_cmds);
		debugfs_create_u32("short_bytes", 0600, dir, &d->short_bytes);
		debugfs_create_x64("corrupt_cmds", 0600, dir,
				   &d->corrupt_cmds);
		debugfs_create_u32("corrupt_stride", 0600, dir,
				   &d->corrupt_stride);
		debugfs_create_x8("corrupt_xor", 0600, dir, &d->corrupt_xor);
		debugfs_create_u32("fault_skip", 0600, dir, &d->fault_skip);
		debugfs_create_u32("fault_count", 0600, dir, &d->fault_count);
		debugfs_create_u32("set_delay_ms", 0600, dir,
				   &d->set_delay_ms);
	}
	if (test_bit(ND_CMD_CALL, &t->cmds))
		debugfs_create_u32("call_len", 0600, dir, &d->call_len);
	if (t->topo->blk) {
		debugfs_create_x32("blk_flags", 0600, dir, &d->blk_flags);
		debugfs_create_u32("blk_fail", 0600, dir, &d->blk_fail);
		debugfs_create_x32("blk_fail_status", 0600, dir,
				   &d->blk_fail_status);
		debugfs_create_u64("blk_reads", 0444, dir, &d->blk_reads);
		debugfs_create_u64("blk_writes", 0444, dir, &d->blk_writes);
		debugfs_create_u64("blk_errors", 0444, dir, &d->blk_errors);
		debugfs_create_u64("blk_latches", 0444, dir, &d->blk_latches);
		debugfs_create_u32("blk_stale", 0600, dir, &d->blk_stale);
		debugfs_create_u64("blk_invalidates", 0444, dir,
				   &d->blk_invalidates);
		debugfs_create_u32("blk_variant", 0444, dir, &d->variant);
	}

	list_for_each_entry(nfit_mem, &t->acpi_desc.dimms, list) {
		if (nfit_mem->handle != d->handle || !nfit_mem->nvdimm)
			continue;
		WRITE_ONCE(d->ndev, nvdimm_dev(nfit_mem->nvdimm));
		snprintf(target, sizeof(target), "%s/%s",
			 dev_name(&t->pdev->dev), name);
		d->link = debugfs_create_symlink(nvdimm_name(nfit_mem->nvdimm),
						 nt_debugfs, target);
		break;
	}
}

static void nt_debugfs_init(struct nfit_test *t)
{
	int i;

	t->dir = debugfs_create_dir(dev_name(&t->pdev->dev), nt_debugfs);
	if (cmd_call && t->topo->fw)
		debugfs_create_u64("bus_calls", 0444, t->dir, &t->bus_calls);
	nt_ars_debugfs(&t->ars, t->dir);
	for (i = 0; i < t->topo->nr_dimms; i++)
		nt_debugfs_dimm(t, &t->dimm[i]);
}

static void nt_debugfs_exit(void *data)
{
	struct nfit_test *t = data;
	int i;

	for (i = 0; i < t->topo->nr_dimms; i++)
		debugfs_remove(t->dimm[i].link);
	debugfs_remove_recursive(t->dir);
}

/* the platform driver */

/* the security firmware of every DIMM (its lock_dimm knob: test_dimmN) */
static void nt_sec_setup(struct nfit_test *t)
{
	int i;

	for (i = 0; i < t->topo->nr_dimms; i++) {
		struct nt_dimm *d = &t->dimm[i];

		nt_sec_dimm_init(&d->sec, d->handle, d->media, NT_DIMM_SIZE);
		d->secure = true;
		d->knobs.sec = &d->sec;
	}
}

static int nfit_test_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct acpi_nfit_desc *acpi_desc;
	struct nt_nfit b = {};
	struct nfit_test *t;
	int i, rc;

	if (pdev->id < 0 || pdev->id >= NT_NR_BUSES)
		return -ENODEV;
	t = devm_kzalloc(dev, sizeof(*t), GFP_KERNEL);
	if (!t)
		return -ENOMEM;
	t->pdev = pdev;
	t->topo = nt_topo_of(pdev->id);
	if (pdev->id == 0 && !nt_v61 && READ_ONCE(pm_1way)) {
		t->topo_1way = nt_topo[0];
		t->topo_1way.set[1] = nt_set_1way;
		t->topo = &t->topo_1way;
	}
	t->next_phys = NFIT_TEST_PHYS_BASE + pdev->id * NT_BUS_SPAN;

	/* all teardown is devres, in reverse: debugfs, nfit, the mock */
	rc = nt_alloc(t);
	if (!rc)
		rc = nt_build_nfit(t, &b);
	if (rc) {
		dev_err(dev, "cannot set up the mock platform: %d\n", rc);
		goto out;
	}

	acpi_desc = &t->acpi_desc;
	acpi_desc->dev = dev;
	t->cmds = t->topo->cmds;
	if (cmd_call && t->topo->fw) {
		t->cmds |= BIT(ND_CMD_CALL);
		acpi_desc->nd_desc.cmd_mask = BIT(ND_CMD_CALL);
	}
	if ((smart || t->topo->smart) && t->topo->fw) {
		t->cmds |= BIT(ND_CMD_CALL) | BIT(ND_CMD_SMART) |
			BIT(ND_CMD_SMART_THRESHOLD);
		acpi_desc->dimm_dsm_mask |= t->topo->cmds | ND_INTEL_SMART_FUNCS;
	}
	if ((fw_update || t->topo->fw_update) && t->topo->fw) {
		t->fw = nt_fw_create(dev, t->topo->nr_dimms, fw_live,
				     t->topo->v61);
		if (!t->fw) {
			rc = -ENOMEM;
			goto out;
		}
		t->cmds |= BIT(ND_CMD_CALL);
		acpi_desc->dimm_dsm_mask |= NFIT_INTEL_FW_UPDATE_FUNCS |
			NFIT_INTEL_FWA_FUNCS;
		acpi_desc->bus_intel_dsm_mask = NFIT_INTEL_BUS_FWA_FUNCS;
	}
	acpi_desc->dimm_cmd_mask = t->cmds;
	/* nfit_test.0's DIMMs: passphrase security */
	if (NT_SEC_FIRMWARE && t->topo->fw) {
		nt_sec_setup(t);
		acpi_desc->dimm_cmd_mask |= NFIT_INTEL_SECURITY_FUNCS;
	}
	/* the root _DSM functions the mock firmware answers (6.1's mock) */
	acpi_desc->bus_dsm_mask = BIT(ND_CMD_ARS_CAP) | BIT(ND_CMD_ARS_START) |
		BIT(ND_CMD_ARS_STATUS) | BIT(ND_CMD_CLEAR_ERROR) |
		BIT(NFIT_CMD_ARS_INJECT_SET) | BIT(NFIT_CMD_ARS_INJECT_CLEAR) |
		BIT(NFIT_CMD_ARS_INJECT_GET);
	nt_ars_setup(t);
	for (i = 0; i < t->topo->nr_dimms; i++) {
		t->dimm[i].knobs.smart = &t->dimm[i].smart;
		rc = nt_smart_add_dev(&t->dimm[i].knobs, dev,
				      t->topo->knob_base + i,
				      nt_dimm_groups);
		if (rc)
			goto out;
	}
	acpi_desc->nd_desc.ndctl = nfit_test_ctl;
	/* ndctl finds the mock buses by provider "nfit_test.N" */
	acpi_desc->nd_desc.provider_name = dev_name(dev);
	/*
	 * v4.2: a PMEM namespace is a multiple of PAGE_SIZE x ways; 6.1:
	 * nfit.ko's default (16 MiB)
	 */
	acpi_desc->pmem_align = t->topo->v61 ? 0 : PAGE_SIZE;
	rc = acpi_nfit_init(acpi_desc, b.buf, b.len);
	if (rc) {
		dev_err(dev, "acpi_nfit_init: %d\n", rc);
		goto out;
	}

	nt_debugfs_init(t);
	rc = devm_add_action_or_reset(dev, nt_debugfs_exit, t);
	if (rc)
		goto out;
	dev_dbg(dev, "%d DIMMs, %d PM ranges, mock addresses from %#llx\n",
		t->topo->nr_dimms, t->topo->nr_sets,
		NFIT_TEST_PHYS_BASE + pdev->id * NT_BUS_SPAN);
out:
	kfree(b.buf);
	return rc;
}

static struct platform_driver nfit_test_driver = {
	.probe = nfit_test_probe,
	.driver = {
		.name = "nfit_test",
	},
};

static void nt_unregister_devices(void)
{
	int i;

	for (i = NT_NR_BUSES - 1; i >= 0; i--) {
		platform_device_unregister(nt_pdev[i]);
		nt_pdev[i] = NULL;
	}
}

/*
 * 6.1's nfit_test.ko calls into the test builds of nd_pmem, dax_pmem and
 * device_dax (to check that they are test builds), so loading it loads
 * them, and ndctl's suite counts on it: a namespace that appears when a
 * region is enabled is bound by nd_pmem without anyone loading it.  The
 * 6.1 topology loads them (without holding them: unloading stays free).
 */
static void nt_load_61_modules(void)
{
	static const char *const mods[] = { "nd_pmem", "dax_pmem", "device_dax" };
	int i, rc;

	for (i = 0; i < ARRAY_SIZE(mods); i++) {
		rc = request_module("%s", mods[i]);
		if (rc)
			pr_info("nfit_test: topology 6.1: %s not loaded: %d\n",
				mods[i], rc);
	}
}

static int __init nfit_test_init(void)
{
	int i, rc;

	nt_debugfs = debugfs_create_dir("nfit_test", NULL);
	rc = nt_smart_class_init();
	if (rc)
		goto err_class;
	rc = platform_driver_register(&nfit_test_driver);
	if (rc)
		goto err_driver;
	for (i = 0; i < NT_NR_BUSES; i++) {
		struct platform_device *pdev;

		pdev = platform_device_register_simple("nfit_test", i, NULL, 0);
		if (IS_ERR(pdev)) {
			rc = PTR_ERR(pdev);
			goto err_devices;
		}
		nt_pdev[i] = pdev;
		/* probing is synchronous: a bus that failed fails the load */
		if (!READ_ONCE(pdev->dev.driver)) {
			rc = -ENXIO;
			goto err_devices;
		}
	}
	if (nt_v61)
		nt_load_61_modules();
	return 0;

err_devices:
	nt_unregister_devices();
	platform_driver_unregister(&nfit_test_driver);
err_driver:
	nt_smart_class_exit();
err_class:
	debugfs_remove_recursive(nt_debugfs);
	nt_contents_free_all();
	return rc;
}

static void __exit nfit_test_exit(void)
{
	nt_unregister_devices();
	platform_driver_unregister(&nfit_test_driver);
	nt_smart_class_exit();
	debugfs_remove_recursive(nt_debugfs);
	nt_contents_free_all();
}

module_init(nfit_test_init);
module_exit(nfit_test_exit);
MODULE_LICENSE("GPL v2");
MODULE_DESCRIPTION("nfit_test: mock NVDIMM platform (nfit_test.0, nfit_test.1)");
MODULE_AUTHOR("libnvdimm developers");
