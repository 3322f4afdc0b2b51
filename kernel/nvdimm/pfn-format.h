/* SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later */
/*
 * PFN and DAX info blocks: the on-media format.
 *
 * Pure-format code in the manner of btt-format.h: no I/O, no locking, no
 * allocation, no state.  It builds into the kernel and, through
 * userspace/kshim and tests/host/shim, into the host tests and fuzzer.
 *
 * A pfn (fsdax) or dax (devdax) device keeps one 4096-byte info block at
 * offset 4096 of its namespace; the first 4096 bytes are left alone.  The
 * mapped range is the namespace less start_pad at its start and end_trunc
 * at its end; the data is that range from dataoff on, npfns pages to its
 * end; in PFN_MODE_PMEM the struct page array lives between the reserve
 * and dataoff.  All integers are little-endian.
 * docs/pfn.md has the layout table, the rules and where each was read.
 */
#ifndef __ND_PFN_FORMAT_H__
#define __ND_PFN_FORMAT_H__

#include <linux/types.h>
#include <linux/compiler.h>

#define PFN_SIG_LEN		16
#define PFN_SIG			"NVDIMM_PFN_INFO"	/* NUL-padded to 16 */
#define DAX_SIG			"NVDIMM_DAX_INFO"
#define PFN_SB_OFFSET		4096	/* info block offset in the namespace */
#define PFN_SB_SIZE		4096
#define PFN_RESERVE		8192	/* 4K unused + 4K info block */
#define PFN_MAX_STRUCT_PAGE_SIZE 64
#define PFN_VERSION_MAJOR	1
#define PFN_VERSION_MINOR	4	/* what pfn_sb_build() writes */
#define PFN_ALIGN_MAX		0x40000000U	/* 1 GiB: cap of a derived alignment */

enum { PFN_MODE_NONE = 0, PFN_MODE_RAM = 1, PFN_MODE_PMEM = 2 };

/**
 * struct nd_pfn_sb - a pfn or dax info block, 4096 bytes
 * @signature: PFN_SIG or DAX_SIG, NUL-padded
 * @uuid: pfn/dax device uuid
 * @parent_uuid: uuid of the namespace holding the block
 * @flags: unused (0 from minor 3 on; never looked at)
 * @version_major: 1
 * @version_minor: 0 to 4; fields below are valid from the minor named
 * @dataoff: first data byte, from the start of the mapped range (the
 *	namespace start + @start_pad)
 * @npfns: data pages: the mapped range behind @dataoff, to its end
 * @mode: PFN_MODE_RAM (struct pages in RAM) or PFN_MODE_PMEM (on media)
 * @start_pad: minor >= 1: bytes skipped at the start (never created now)
 * @end_trunc: minor >= 1: bytes left unused at the end
 * @align: minor >= 2: alignment asked for; 0 or older: derive it
 * @page_size: minor >= 4: page size of the writer
 * @page_struct_size: minor >= 4: struct page size the reserve assumes
 * @padding: zero
 * @checksum: Fletcher-64 of the 4096 bytes with this field zero
 */
struct nd_pfn_sb {
	u8 signature[PFN_SIG_LEN];
	u8 uuid[16];
	u8 parent_uuid[16];
	__le32 flags;
	__le16 version_major;
	__le16 version_minor;
	__le64 dataoff;
	__le64 npfns;
	__le32 mode;
	__le32 start_pad;
	__le32 end_trunc;
	__le32 align;
	__le32 page_size;
	__le16 page_struct_size;
	u8 padding[3994];
	__le64 checksum;
} __packed;

/**
 * struct pfn_layout - where a pfn/dax device keeps its data, CPU order
 * @dataoff: offset of the first data byte from the mapped range's start
 *	(the namespace start + @start_pad)
 * @npfns: data pages, up to the mapped range's end (namespace end less
 *	@end_trunc)
 * @start_pad: bytes skipped at the namespace start
 * @end_trunc: bytes left unused at the namespace end
 * @align: as recorded (0 never after pfn_sb_check(): resolved)
 * @mode: PFN_MODE_RAM or PFN_MODE_PMEM
 * @page_size: page size the layout counts in
 * @page_struct_size: bytes per struct page in the reserve
 */
struct pfn_layout {
	u64 dataoff;
	u64 npfns;
	u32 start_pad;
	u32 end_trunc;
	u32 align;
	u32 mode;
	u32 page_size;
	u16 page_struct_size;
};

u64 pfn_sb_checksum(const struct nd_pfn_sb *sb);
int pfn_layout_compute(u64 start, u64 size, u32 mode, u32 align,
		       u32 compat_align, u32 page_size, struct pfn_layout *l);
void pfn_sb_build(struct nd_pfn_sb *sb, bool dax, const u8 uuid[16],
		  const u8 parent_uuid[16], const struct pfn_layout *l);
int pfn_sb_check(const struct nd_pfn_sb *sb, bool dax,
		 const u8 parent_uuid[16], u64 start, u64 size,
		 u32 page_size, u32 compat_align, struct pfn_layout *l,
		 const char **why);

#endif /* __ND_PFN_FORMAT_H__ */
