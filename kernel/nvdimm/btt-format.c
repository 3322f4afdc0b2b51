// SPDX-License-Identifier: GPL-2.0-only OR LGPL-2.1-or-later
/*
 * BTT on-media format: arena layout arithmetic, info block build and
 * validation, map entries, and the flog rules (newest entry, padding
 * format, attach-time recovery).  See btt-format.h and media-formats.md
 * section 6.
 *
 * Every number taken from media is range-checked before it is used in a
 * sum or a product, and every such sum or product is overflow-checked,
 * so that no value an info block or a flog lane can hold makes a region
 * wrap around or leave its arena or namespace.
 */
#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/export.h>
#include <linux/build_bug.h>
#include <linux/overflow.h>
#include <asm/byteorder.h>

#include "label-format.h"
#include "btt-format.h"

static_assert(sizeof(struct btt_info) == BTT_INFO_SIZE);
static_assert(offsetof(struct btt_info, uuid) == 16);
static_assert(offsetof(struct btt_info, parent_uuid) == 32);
static_assert(offsetof(struct btt_info, flags) == 48);
static_assert(offsetof(struct btt_info, version_major) == 52);
static_assert(offsetof(struct btt_info, version_minor) == 54);
static_assert(offsetof(struct btt_info, external_lbasize) == 56);
static_assert(offsetof(struct btt_info, external_nlba) == 60);
static_assert(offsetof(struct btt_info, internal_lbasize) == 64);
static_assert(offsetof(struct btt_info, internal_nlba) == 68);
static_assert(offsetof(struct btt_info, nfree) == 72);
static_assert(offsetof(struct btt_info, infosize) == 76);
static_assert(offsetof(struct btt_info, nextoff) == 80);
static_assert(offsetof(struct btt_info, dataoff) == 88);
static_assert(offsetof(struct btt_info, mapoff) == 96);
static_assert(offsetof(struct btt_info, logoff) == 104);
static_assert(offsetof(struct btt_info, info2off) == 112);
static_assert(offsetof(struct btt_info, padding) == 120);
static_assert(offsetof(struct btt_info, checksum) == 4088);
static_assert(sizeof(struct btt_flog_slot) == BTT_FLOG_SLOT_SIZE);
static_assert(sizeof(struct btt_flog_lane) == BTT_FLOG_LANE_SIZE);
static_assert(sizeof(BTT_SIG) <= BTT_SIG_LEN);
/*
 * The largest arena with the smallest blocks still numbers its blocks in
 * the 30 bits a map entry has, and every size inside one arena fits in
 * 64 bits many times over: arena-internal arithmetic cannot wrap.
 */
static_assert(BTT_ARENA_MAX / (512 + BTT_MAP_ENTRY_SIZE) <
	      BTT_MAX_INTERNAL_NLBA);

static const u8 btt_sig[BTT_SIG_LEN] = BTT_SIG;
static const u8 btt_null_uuid[16];

static u64 btt_round_up(u64 val, u64 align)
{
	return (val + align - 1) / align * align;
}

/**
 * btt_lbasize_supported - is @lbasize a sector size a BTT may export
 * @lbasize: external_lbasize
 *
 * Return: true for the v4.2 list, which 6.1 keeps: 512, 520, 528, 4096,
 * 4104, 4160, 4224.
 */
bool btt_lbasize_supported(u32 lbasize)
{
	switch (lbasize) {
	case 512:
	case 520:
	case 528:
	case 4096:
	case 4104:
	case 4160:
	case 4224:
		return true;
	default:
		return false;
	}
}
EXPORT_SYMBOL_GPL(btt_lbasize_supported);

/**
 * btt_internal_lbasize - the data block size for a sector size
 * @lbasize: a supported external_lbasize
 *
 * Return: @lbasize rounded up to a multiple of 64 (576 for 520 and 528,
 * 4160 for 4104), 0 for an unsupported @lbasize.
 */
u32 btt_internal_lbasize(u32 lbasize)
{
	if (!btt_lbasize_supported(lbasize))
		return 0;
	return btt_round_up(lbasize, BTT_LBASIZE_ALIGN);
}
EXPORT_SYMBOL_GPL(btt_internal_lbasize);

/**
 * btt_sector_size - the Linux logical block size a BTT presents
 * @lbasize: external_lbasize
 *
 * The rest of each block (0, 8, 16, 64 or 128 bytes for the supported
 * sizes) is integrity metadata.
 *
 * Return: 512 for an @lbasize below 4096, else 4096.
 */
u32 btt_sector_size(u32 lbasize)
{
	return lbasize < 4096 ? 512 : 4096;
}
EXPORT_SYMBOL_GPL(btt_sector_size);

/**
 * btt_version - the BTT version that goes with a start offset
 * @start: BTT start in the namespace
 * @major: set to the major version
 * @minor: set to the minor version
 *
 * 1.1 at BTT_START_V11 (4096), 2.0 at BTT_START_V20 (0).
 *
 * Return: 0, or -EINVAL for any other @start (@major and @minor untouched).
 */
int btt_version(u64 start, u16 *major, u16 *minor)
{
	if (start == BTT_START_V11) {
		*major = BTT_V11_MAJOR;
		*minor = BTT_V11_MINOR;
	} else if (start == BTT_START_V20) {
		*major = BTT_V20_MAJOR;
		*minor = BTT_V20_MINOR;
	} else {
		return -EINVAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(btt_version);

/**
 * btt_rawsize - the space a BTT has behind its start
 * @ns_size: namespace size in bytes
 * @start: BTT_START_V11 or BTT_START_V20
 * @rawsize: set to @ns_size - @start
 *
 * Return: 0, or -EINVAL for another @start or a namespace smaller than
 * @start.  Whether @rawsize is enough is btt_arena_count()'s call.
 */
int btt_rawsize(u64 ns_size, u64 start, u64 *rawsize)
{
	u16 major, minor;
	u64 raw;

	if (btt_version(start, &major, &minor))
		return -EINVAL;
	if (check_sub_overflow(ns_size, start, &raw))
		return -EINVAL;
	*rawsize = raw;
	return 0;
}
EXPORT_SYMBOL_GPL(btt_rawsize);

/**
 * btt_arena_count - how many arenas a BTT of @rawsize bytes has
 * @rawsize: bytes behind the BTT start
 *
 * Full 512 GiB arenas front to back, then the remainder as one more
 * arena if it is at least 16 MiB (a smaller tail is not used).
 *
 * Return: the count (at least 1, at most 2^25), or -ENOSPC when @rawsize
 * is below 16 MiB.
 */
int btt_arena_count(u64 rawsize)
{
	u64 full = rawsize / BTT_ARENA_MAX;

	if (rawsize < BTT_ARENA_MIN)
		return -ENOSPC;
	return full + (rawsize % BTT_ARENA_MAX >= BTT_ARENA_MIN);
}
EXPORT_SYMBOL_GPL(btt_arena_count);

/*
 * The inside of a fresh arena of @size bytes (BTT_ARENA_MIN to
 * BTT_ARENA_MAX, see the static_assert above for why nothing here can
 * wrap): two info blocks and the flog are taken off the top, then as
 * many data blocks as fit together with their map entries, keeping one
 * 4 KiB page of slack for the map's rounding.
 */
static void btt_arena_fill(struct btt_arena *a, u64 size, u32 lbasize)
{
	u64 logsize = btt_round_up((u64)BTT_NFREE * BTT_FLOG_LANE_SIZE,
				   BTT_ALIGN);
	u64 avail, mapsize, datasize;

	a->size = size / BTT_ALIGN * BTT_ALIGN;
	a->external_lbasize = lbasize;
	a->internal_lbasize = btt_internal_lbasize(lbasize);
	a->nfree = BTT_NFREE;
	a->flags = 0;

	avail = a->size - 2 * BTT_INFO_SIZE - logsize;
	a->internal_nlba = (avail - BTT_ALIGN) /
			   (a->internal_lbasize + BTT_MAP_ENTRY_SIZE);
	a->external_nlba = a->internal_nlba - a->nfree;
	mapsize = btt_round_up((u64)a->external_nlba * BTT_MAP_ENTRY_SIZE,
			       BTT_ALIGN);
	datasize = avail - mapsize;

	a->dataoff = BTT_INFO_SIZE;
	a->mapoff = a->dataoff + datasize;
	a->logoff = a->mapoff + mapsize;
	a->info2off = a->logoff + logsize;
}

/**
 * btt_arena_geometry - the layout of arena @idx of a fresh BTT
 * @rawsize: bytes behind the BTT start
 * @lbasize: external_lbasize
 * @idx: arena number, 0 to btt_arena_count() - 1
 * @arena: filled with the arena's geometry (offset relative to the BTT
 *	start, flags 0, nextoff the arena's size unless it is the last)
 *
 * Computes one arena without needing the others, so a BTT of any size is
 * laid out without an array of arenas.
 *
 * Return: 0; -EINVAL for an unsupported @lbasize; -ENOSPC when @rawsize
 * is below 16 MiB; -ERANGE when @idx is not an arena of this BTT.
 */
int btt_arena_geometry(u64 rawsize, u32 lbasize, u32 idx,
		       struct btt_arena *arena)
{
	u64 off, left, size;
	int count;

	if (!btt_lbasize_supported(lbasize))
		return -EINVAL;
	count = btt_arena_count(rawsize);
	if (count < 0)
		return count;
	if (idx >= (u32)count)
		return -ERANGE;
	if (check_mul_overflow((u64)idx, BTT_ARENA_MAX, &off) ||
	    check_sub_overflow(rawsize, off, &left))
		return -ERANGE;
	size = left < BTT_ARENA_MAX ? left : BTT_ARENA_MAX;

	btt_arena_fill(arena, size, lbasize);
	arena->off = off;
	arena->nextoff = left - size >= BTT_ARENA_MIN ? arena->size : 0;
	return 0;
}
EXPORT_SYMBOL_GPL(btt_arena_geometry);

/**
 * btt_capacity - what a fresh BTT exports
 * @rawsize: bytes behind the BTT start
 * @lbasize: external_lbasize
 * @nlba: set to the sum of every arena's external_nlba
 * @bytes: set to @nlba times btt_sector_size(@lbasize)
 *
 * Return: 0, or as btt_arena_geometry() (-ERANGE should a sum not fit in
 * 64 bits, which no @rawsize makes happen).
 */
int btt_capacity(u64 rawsize, u32 lbasize, u64 *nlba, u64 *bytes)
{
	struct btt_arena a;
	u64 n, b, full_nlba = 0;
	int count, rc;

	rc = btt_arena_geometry(rawsize, lbasize, 0, &a);
	if (rc)
		return rc;
	count = btt_arena_count(rawsize);
	/* all arenas but the last are full, and so alike */
	if (count > 1) {
		full_nlba = a.external_nlba;
		rc = btt_arena_geometry(rawsize, lbasize, count - 1, &a);
		if (rc)
			return rc;
	}
	if (check_mul_overflow(full_nlba, (u64)(count - 1), &n) ||
	    check_add_overflow(n, (u64)a.external_nlba, &n) ||
	    check_mul_overflow(n, (u64)btt_sector_size(lbasize), &b))
		return -ERANGE;
	*nlba = n;
	*bytes = b;
	return 0;
}
EXPORT_SYMBOL_GPL(btt_capacity);

/**
 * btt_info_checksum - the checksum an info block should carry
 * @info: the block (4-byte aligned)
 *
 * Fletcher-64 (little-endian words) of the 4096 bytes with the checksum
 * field taken as zero; @info is not modified.  The checksum field is the
 * last two words, so their zero contribution is added to the sum of the
 * 4088 bytes before it: the low sum stays, the high sum grows by it twice.
 *
 * Return: the checksum.
 */
u64 btt_info_checksum(const struct btt_info *info)
{
	u64 f = nd_fletcher64(info, offsetof(struct btt_info, checksum), true);
	u32 lo = f, hi = f >> 32;

	hi += 2 * lo;
	return (u64)hi << 32 | lo;
}
EXPORT_SYMBOL_GPL(btt_info_checksum);

/**
 * btt_info_seal - store the checksum of an info block after an edit
 * @info: the block (4-byte aligned), e.g. after setting IB_FLAG_ERROR
 */
void btt_info_seal(struct btt_info *info)
{
	info->checksum = cpu_to_le64(btt_info_checksum(info));
}
EXPORT_SYMBOL_GPL(btt_info_seal);

/**
 * btt_info_build - the info block of an arena, as the kernel writes it
 * @info: filled completely (padding zero), checksum included
 * @arena: the geometry to record, as given (offsets relative to the arena
 *	start; @arena->off and @arena->size are not stored)
 * @uuid: BTT instance uuid, 16 bytes
 * @parent_uuid: namespace uuid, 16 bytes, or NULL for all zero
 * @start: BTT start in the namespace; sets the version
 *
 * Return: 0, or -EINVAL when @start is neither BTT_START_V11 nor
 * BTT_START_V20 (@info untouched).
 */
int btt_info_build(struct btt_info *info, const struct btt_arena *arena,
		   const u8 *uuid, const u8 *parent_uuid, u64 start)
{
	u16 major, minor;

	if (btt_version(start, &major, &minor))
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	memcpy(info->signature, btt_sig, BTT_SIG_LEN);
	memcpy(info->uuid, uuid, sizeof(info->uuid));
	if (parent_uuid)
		memcpy(info->parent_uuid, parent_uuid,
		       sizeof(info->parent_uuid));
	info->flags = cpu_to_le32(arena->flags);
	info->version_major = cpu_to_le16(major);
	info->version_minor = cpu_to_le16(minor);
	info->external_lbasize = cpu_to_le32(arena->external_lbasize);
	info->external_nlba = cpu_to_le32(arena->external_nlba);
	info->internal_lbasize = cpu_to_le32(arena->internal_lbasize);
	info->internal_nlba = cpu_to_le32(arena->internal_nlba);
	info->nfree = cpu_to_le32(arena->nfree);
	info->infosize = cpu_to_le32(BTT_INFO_SIZE);
	info->nextoff = cpu_to_le64(arena->nextoff);
	info->dataoff = cpu_to_le64(arena->dataoff);
	info->mapoff = cpu_to_le64(arena->mapoff);
	info->logoff = cpu_to_le64(arena->logoff);
	info->info2off = cpu_to_le64(arena->info2off);
	btt_info_seal(info);
	return 0;
}
EXPORT_SYMBOL_GPL(btt_info_build);

static void btt_info_decode(const struct btt_info *info, u64 arena_off,
			    struct btt_arena *a)
{
	a->off = arena_off;
	a->external_lbasize = le32_to_cpu(info->external_lbasize);
	a->external_nlba = le32_to_cpu(info->external_nlba);
	a->internal_lbasize = le32_to_cpu(info->internal_lbasize);
	a->internal_nlba = le32_to_cpu(info->internal_nlba);
	a->nfree = le32_to_cpu(info->nfree);
	a->flags = le32_to_cpu(info->flags);
	a->nextoff = le64_to_cpu(info->nextoff);
	a->dataoff = le64_to_cpu(info->dataoff);
	a->mapoff = le64_to_cpu(info->mapoff);
	a->logoff = le64_to_cpu(info->logoff);
	a->info2off = le64_to_cpu(info->info2off);
	a->size = 0;
}

/* [off, off + count * unit) ends at or before @limit */
static bool btt_region_fits(u64 off, u64 count, u64 unit, u64 limit)
{
	u64 len, end;

	return !check_mul_overflow(count, unit, &len) &&
	       !check_add_overflow(off, len, &end) && end <= limit;
}

/*
 * The numbers of an info block that passed the identity checks, against
 * the space the BTT has (@rawsize).  Regions must come in the order the
 * kernel lays them out, none reaching past the start of the next: info
 * block, data, map, flog, backup info block; nextoff is 0 or the arena's
 * end, with room for a smallest arena behind it.  The arena start has
 * been checked to lie inside @rawsize.
 */
static enum btt_info_verdict btt_check_geometry(const struct btt_arena *a,
						u64 rawsize)
{
	u64 end, next;
	u32 nlba;

	if (!btt_lbasize_supported(a->external_lbasize) ||
	    a->internal_lbasize < a->external_lbasize ||
	    a->internal_lbasize % BTT_LBASIZE_ALIGN)
		return BTT_INFO_BAD_LBASIZE;
	if (!a->nfree)
		return BTT_INFO_BAD_NFREE;
	if (!a->external_nlba ||
	    check_add_overflow(a->external_nlba, a->nfree, &nlba) ||
	    nlba != a->internal_nlba ||
	    a->internal_nlba > BTT_MAX_INTERNAL_NLBA)
		return BTT_INFO_BAD_NLBA;
	if ((a->dataoff | a->mapoff | a->logoff | a->info2off | a->nextoff) %
	    BTT_ALIGN)
		return BTT_INFO_BAD_ALIGN;
	if (a->dataoff < BTT_INFO_SIZE ||
	    !btt_region_fits(a->dataoff, a->internal_nlba,
			     a->internal_lbasize, a->mapoff))
		return BTT_INFO_BAD_DATA;
	if (!btt_region_fits(a->mapoff, a->external_nlba, BTT_MAP_ENTRY_SIZE,
			     a->logoff))
		return BTT_INFO_BAD_MAP;
	if (!btt_region_fits(a->logoff, a->nfree, BTT_FLOG_LANE_SIZE,
			     a->info2off))
		return BTT_INFO_BAD_LOG;
	if (check_add_overflow(a->info2off, (u64)BTT_INFO_SIZE, &end) ||
	    !btt_region_fits(a->off, 1, end, rawsize))
		return BTT_INFO_BAD_INFO2;
	/* off + end is at most rawsize now, so off + nextoff cannot wrap */
	if (a->nextoff &&
	    (a->nextoff != end ||
	     check_add_overflow(a->off, a->nextoff, &next) ||
	     !btt_region_fits(next, 1, BTT_ARENA_MIN, rawsize)))
		return BTT_INFO_BAD_NEXTOFF;
	return BTT_INFO_VALID;
}

/**
 * btt_info_check - validate an info block read from media
 * @info: the 4096 bytes read at the arena start (4-byte aligned)
 * @ns: the namespace: size, BTT start, uuid
 * @arena_off: where @info was read, relative to the BTT start (0 for the
 *	first arena, then the sum of the previous arenas' nextoff)
 * @arena: filled with the geometry when the block is valid (size =
 *	info2off + 4096), untouched otherwise
 *
 * In order: signature; checksum; parent_uuid all zero or the namespace's
 * uuid; version 1.1 for a start of 4096, 2.0 for a start of 0 (any other
 * start matches no version); then the geometry: the arena starts 4 KiB
 * aligned inside the namespace, infosize 4096, external_lbasize
 * supported and internal_lbasize a multiple of 64 not below it, nfree at
 * least 1, internal_nlba = external_nlba + nfree with external_nlba at
 * least 1 and internal_nlba at most 2^30 (what a map entry addresses),
 * every offset 4 KiB aligned, the data blocks between the info block and
 * the map, external_nlba map entries before the flog, nfree flog lanes
 * before the backup info block, that block inside the namespace, and
 * nextoff either 0 or the arena's end with at least 16 MiB behind it.
 * A set IB_FLAG_ERROR does not make a block invalid (@arena->flags
 * reports it).  @info is not modified.
 *
 * Return: BTT_INFO_VALID or the first rule broken; btt_info_is_btt()
 * tells the two kinds of failure apart.
 */
enum btt_info_verdict btt_info_check(const struct btt_info *info,
				     const struct btt_ns *ns, u64 arena_off,
				     struct btt_arena *arena)
{
	const u8 *ns_uuid = ns->uuid ? ns->uuid : btt_null_uuid;
	enum btt_info_verdict v;
	struct btt_arena a;
	u16 major, minor;
	u64 rawsize;

	if (memcmp(info->signature, btt_sig, BTT_SIG_LEN))
		return BTT_INFO_BAD_SIG;
	if (le64_to_cpu(info->checksum) != btt_info_checksum(info))
		return BTT_INFO_BAD_CHECKSUM;
	if (memcmp(info->parent_uuid, btt_null_uuid, 16) &&
	    memcmp(info->parent_uuid, ns_uuid, 16))
		return BTT_INFO_BAD_PARENT;
	if (btt_version(ns->start, &major, &minor) ||
	    le16_to_cpu(info->version_major) != major ||
	    le16_to_cpu(info->version_minor) != minor)
		return BTT_INFO_BAD_VERSION;
	if (btt_rawsize(ns->size, ns->start, &rawsize) ||
	    arena_off % BTT_ALIGN ||
	    !btt_region_fits(arena_off, 1, BTT_INFO_SIZE, rawsize))
		return BTT_INFO_BAD_ARENA_OFF;
	if (le32_to_cpu(info->infosize) != BTT_INFO_SIZE)
		return BTT_INFO_BAD_INFOSIZE;

	btt_info_decode(info, arena_off, &a);
	v = btt_check_geometry(&a, rawsize);
	if (v != BTT_INFO_VALID)
		return v;
	a.size = a.info2off + BTT_INFO_SIZE;
	*arena = a;
	return BTT_INFO_VALID;
}
EXPORT_SYMBOL_GPL(btt_info_check);

/**
 * btt_info_is_btt - does a verdict mean "this namespace's BTT info block"
 * @v: a btt_info_check() verdict
 *
 * For BTT_INFO_VALID and the geometry failures the block has the
 * signature, a good checksum, our parent uuid and the right version, so
 * its arena must be treated as corrupt rather than absent (a fresh layout
 * would destroy data).
 *
 * Return: true for those, false for the failures that mean there is no
 * BTT of this namespace at that place.
 */
bool btt_info_is_btt(enum btt_info_verdict v)
{
	return v == BTT_INFO_VALID ||
	       (v >= BTT_INFO_BAD_ARENA_OFF && v < BTT_INFO_NR_VERDICTS);
}
EXPORT_SYMBOL_GPL(btt_info_is_btt);

static const char * const btt_verdict_names[BTT_INFO_NR_VERDICTS] = {
	[BTT_INFO_VALID] = "valid",
	[BTT_INFO_BAD_SIG] = "no info block signature",
	[BTT_INFO_BAD_CHECKSUM] = "info block checksum mismatch",
	[BTT_INFO_BAD_PARENT] = "parent uuid is another namespace's",
	[BTT_INFO_BAD_VERSION] = "version does not match the start offset",
	[BTT_INFO_BAD_ARENA_OFF] = "arena starts outside the namespace",
	[BTT_INFO_BAD_INFOSIZE] = "infosize is not 4096",
	[BTT_INFO_BAD_LBASIZE] = "unsupported lbasize",
	[BTT_INFO_BAD_NFREE] = "nfree is 0",
	[BTT_INFO_BAD_NLBA] = "internal_nlba is not external_nlba + nfree",
	[BTT_INFO_BAD_ALIGN] = "offset not 4 KiB aligned",
	[BTT_INFO_BAD_DATA] = "data area overlaps info block or map",
	[BTT_INFO_BAD_MAP] = "map too small or overlaps the flog",
	[BTT_INFO_BAD_LOG] = "flog too small or overlaps the backup info block",
	[BTT_INFO_BAD_INFO2] = "backup info block outside the namespace",
	[BTT_INFO_BAD_NEXTOFF] = "nextoff is not the arena end or leaves no room",
};

/**
 * btt_info_verdict_name - a verdict as a phrase for the kernel log
 * @v: a btt_info_check() verdict
 *
 * Return: a constant string, never NULL: out-of-range values give
 * "unknown verdict".
 */
const char *btt_info_verdict_name(enum btt_info_verdict v)
{
	if ((unsigned int)v >= BTT_INFO_NR_VERDICTS)
		return "unknown verdict";
	return btt_verdict_names[v];
}
EXPORT_SYMBOL_GPL(btt_info_verdict_name);

/**
 * btt_map_decode - what a map entry says about premap block @premap
 * @entry: the raw entry (CPU order)
 * @premap: the entry's index
 * @postmap: set to the data block: @premap for BTT_MAP_IDENTITY (the low
 *	bits of such an entry are ignored), else bits 29..0, which also name
 *	the block an error or trimmed entry still owns
 *
 * Bit 30 is the error flag and bit 31 the zero flag, as the kernel's code
 * and all media have them (not as the driver-api text's table shows).
 *
 * Return: the entry's state.
 */
enum btt_map_state btt_map_decode(u32 entry, u32 premap, u32 *postmap)
{
	switch (entry & BTT_MAP_FLAGS) {
	case 0:
		*postmap = premap;
		return BTT_MAP_IDENTITY;
	case BTT_MAP_ERROR:
		*postmap = entry & BTT_MAP_ABA_MASK;
		return BTT_MAP_ERR;
	case BTT_MAP_ZERO:
		*postmap = entry & BTT_MAP_ABA_MASK;
		return BTT_MAP_TRIMMED;
	default:
		*postmap = entry & BTT_MAP_ABA_MASK;
		return BTT_MAP_MAPPED;
	}
}
EXPORT_SYMBOL_GPL(btt_map_decode);

/**
 * btt_map_encode - the raw map entry for a state
 * @postmap: data block, below 2^30 (ignored for BTT_MAP_IDENTITY)
 * @state: what the entry says
 * @entry: set to the entry (CPU order); BTT_MAP_IDENTITY is 0
 *
 * Return: 0, or -ERANGE when @postmap does not fit in 30 bits and
 * -EINVAL for an unknown @state (@entry untouched).
 */
int btt_map_encode(u32 postmap, enum btt_map_state state, u32 *entry)
{
	static const u32 flags[] = {
		[BTT_MAP_IDENTITY] = 0,
		[BTT_MAP_ERR] = BTT_MAP_ERROR,
		[BTT_MAP_TRIMMED] = BTT_MAP_ZERO,
		[BTT_MAP_MAPPED] = BTT_MAP_NORMAL,
	};

	if ((unsigned int)state > BTT_MAP_MAPPED)
		return -EINVAL;
	if (state == BTT_MAP_IDENTITY) {
		*entry = 0;
		return 0;
	}
	if (postmap > BTT_MAP_ABA_MASK)
		return -ERANGE;
	*entry = postmap | flags[state];
	return 0;
}
EXPORT_SYMBOL_GPL(btt_map_encode);

/**
 * btt_seq_next - the sequence number that follows @seq
 * @seq: 0 (never written) to 3
 *
 * Return: 1 -> 2 -> 3 -> 1 and 0 -> 1; 0 for a @seq above 3 (not a
 * sequence number).
 */
u32 btt_seq_next(u32 seq)
{
	if (seq > BTT_FLOG_SEQ_MAX)
		return 0;
	return seq % BTT_FLOG_SEQ_MAX + 1;
}
EXPORT_SYMBOL_GPL(btt_seq_next);

/**
 * btt_flog_newest - which of a lane's two live entries is the newer
 * @seq0: sequence number of the first live slot (slot 0)
 * @seq1: sequence number of the second live slot (slot 1 or 2)
 *
 * The newer entry is the one whose number follows the other's (so 1 is
 * newer than 3).  A first slot never written (0) is the older whatever
 * the second holds; a second slot never written is the older when the
 * first holds 1, the only number a first write of a lane carries.
 *
 * Return: 0 or 1, or -EINVAL for a pair no sequence of writes produces:
 * equal numbers, a number above 3, both slots unwritten, or a second
 * slot unwritten behind a first slot holding 2 or 3.
 */
int btt_flog_newest(u32 seq0, u32 seq1)
{
	if (seq0 > BTT_FLOG_SEQ_MAX || seq1 > BTT_FLOG_SEQ_MAX)
		return -EINVAL;
	if (!seq0)
		return seq1 ? 1 : -EINVAL;
	if (!seq1)
		return seq0 == 1 ? 0 : -EINVAL;
	if (seq0 == seq1)
		return -EINVAL;
	return btt_seq_next(seq0) == seq1 ? 1 : 0;
}
EXPORT_SYMBOL_GPL(btt_flog_newest);

/**
 * btt_flog_decode - a flog slot in CPU order
 * @slot: the slot as on media
 * @ent: filled from it
 */
void btt_flog_decode(const struct btt_flog_slot *slot,
		     struct btt_flog_ent *ent)
{
	ent->lba = le32_to_cpu(slot->lba);
	ent->old_map = le32_to_cpu(slot->old_map);
	ent->new_map = le32_to_cpu(slot->new_map);
	ent->seq = le32_to_cpu(slot->seq);
}
EXPORT_SYMBOL_GPL(btt_flog_decode);

/**
 * btt_flog_encode - a flog entry as on media
 * @slot: filled from @ent
 * @ent: the entry
 *
 * Media writes of a slot go in two 8-byte halves, {lba, old_map} first
 * and {new_map, seq} last, so that seq is persisted last; this only
 * fills the 16 bytes.
 */
void btt_flog_encode(struct btt_flog_slot *slot,
		     const struct btt_flog_ent *ent)
{
	slot->lba = cpu_to_le32(ent->lba);
	slot->old_map = cpu_to_le32(ent->old_map);
	slot->new_map = cpu_to_le32(ent->new_map);
	slot->seq = cpu_to_le32(ent->seq);
}
EXPORT_SYMBOL_GPL(btt_flog_encode);

/**
 * btt_flog_init_lane - a lane of a fresh flog
 * @lane: filled: slot 0 = {@lane_nr, free block, free block, seq 1},
 *	slots 1 to 3 zero (right for both padding formats)
 * @lane_nr: lane number, below @arena->nfree
 * @arena: the arena; lane i's free block is external_nlba + i
 *
 * Return: 0, or -ERANGE when @lane_nr is not a lane of @arena or the free
 * block it names is not one of its blocks (@lane untouched).
 */
int btt_flog_init_lane(struct btt_flog_lane *lane, u32 lane_nr,
		       const struct btt_arena *arena)
{
	struct btt_flog_ent ent = { .lba = lane_nr, .seq = 1 };
	u32 block;

	if (lane_nr >= arena->nfree ||
	    check_add_overflow(arena->external_nlba, lane_nr, &block) ||
	    block >= arena->internal_nlba)
		return -ERANGE;
	ent.old_map = block;
	ent.new_map = block;
	memset(lane, 0, sizeof(*lane));
	btt_flog_encode(&lane->slot[0], &ent);
	return 0;
}
EXPORT_SYMBOL_GPL(btt_flog_init_lane);

static bool btt_flog_slot_is_zero(const struct btt_flog_slot *slot)
{
	static const struct btt_flog_slot zero;

	return !memcmp(slot, &zero, sizeof(zero));
}

/**
 * btt_flog_detect - one lane's part in telling the flog's padding format
 * @lane: the lane as on media
 * @fmt: in: the format so far (BTT_FLOG_UNKNOWN before the first lane);
 *	out: the format this lane fixes, if it is the first to tell
 *
 * A slot is padding when all its 16 bytes are zero.  A lane with at most
 * one non-padding slot (an initial lane) says nothing.  Any other lane
 * must have exactly slots 0 and 1 (BTT_FLOG_01) or 0 and 2 (BTT_FLOG_02)
 * in use, and the same pair as every earlier lane that told.  Call for
 * every lane in order; when all are initial @fmt stays BTT_FLOG_UNKNOWN,
 * which is written as BTT_FLOG_01.
 *
 * Return: 0, or -EINVAL when the lane has another pattern or contradicts
 * @fmt (@fmt untouched).
 */
int btt_flog_detect(const struct btt_flog_lane *lane,
		    enum btt_flog_fmt *fmt)
{
	enum btt_flog_fmt this;
	unsigned int i, used = 0;

	for (i = 0; i < BTT_FLOG_SLOTS; i++)
		if (!btt_flog_slot_is_zero(&lane->slot[i]))
			used |= 1U << i;
	if (!(used & (used - 1)))
		return 0;
	if (used == 0x3)
		this = BTT_FLOG_01;
	else if (used == 0x5)
		this = BTT_FLOG_02;
	else
		return -EINVAL;
	if (*fmt != BTT_FLOG_UNKNOWN && *fmt != this)
		return -EINVAL;
	*fmt = this;
	return 0;
}
EXPORT_SYMBOL_GPL(btt_flog_detect);

/**
 * btt_flog_second_slot - the second live slot of a padding format
 * @fmt: the detected format
 *
 * Return: 2 for BTT_FLOG_02, else 1 (the first live slot is always 0).
 */
u32 btt_flog_second_slot(enum btt_flog_fmt fmt)
{
	return fmt == BTT_FLOG_02 ? 2 : 1;
}
EXPORT_SYMBOL_GPL(btt_flog_second_slot);

/**
 * btt_flog_lane_state - a lane's newest entry and where it writes next
 * @lane: the lane as on media
 * @fmt: the flog's padding format (btt_flog_detect())
 * @st: filled: the newest live entry by btt_flog_newest(), its slot, the
 *	other live slot for the next write, and the successor of its seq
 *
 * Return: 0, or -EINVAL when the two live sequence numbers are not a
 * valid pair (@st untouched).  The entry's numbers are not range-checked
 * here: btt_flog_recover() does that.
 */
int btt_flog_lane_state(const struct btt_flog_lane *lane,
			enum btt_flog_fmt fmt, struct btt_flog_state *st)
{
	u32 live[2] = { 0, btt_flog_second_slot(fmt) };
	struct btt_flog_ent ent[2];
	int n;

	btt_flog_decode(&lane->slot[live[0]], &ent[0]);
	btt_flog_decode(&lane->slot[live[1]], &ent[1]);
	n = btt_flog_newest(ent[0].seq, ent[1].seq);
	if (n < 0)
		return n;
	st->newest = ent[n];
	st->newest_slot = live[n];
	st->next_slot = live[1 - n];
	st->next_seq = btt_seq_next(ent[n].seq);
	return 0;
}
EXPORT_SYMBOL_GPL(btt_flog_lane_state);

/**
 * btt_flog_reads_map - whether attach needs the map entry of a lane's
 *	newest flog entry
 * @newest: the lane's newest entry (struct btt_flog_state.newest)
 *
 * Only a logged write (old_map and new_map differ, flags stripped) may
 * have lost its map update.  A fresh lane or one whose last entry moved
 * nothing says nothing about the map, and attach does not read it: a
 * media error in the map then fails only the I/O of the blocks it
 * covers, as in 6.1 (media-formats 6.8).
 *
 * Return: true when btt_flog_recover() needs map[@newest->lba].
 */
bool btt_flog_reads_map(const struct btt_flog_ent *newest)
{
	return (newest->old_map & BTT_MAP_ABA_MASK) !=
	       (newest->new_map & BTT_MAP_ABA_MASK);
}
EXPORT_SYMBOL_GPL(btt_flog_reads_map);

/**
 * btt_flog_recover - the attach-time decision for one lane
 * @newest: the lane's newest entry (struct btt_flog_state.newest)
 * @map_raw: the raw map entry at @newest->lba, read by the caller when
 *	btt_flog_reads_map(); ignored (any value) otherwise
 * @arena: the arena's geometry
 * @rec: filled with what to do
 *
 * The lane's free block is the newest entry's old_map (flags stripped),
 * to be zeroed first when old_map carries the error flag alone.  When
 * old_map and new_map differ (flags stripped) and the map still resolves
 * to old_map, the write was logged but its map update lost: @rec asks
 * for map[lba] = new_map as a normal entry.  Otherwise the map stays.
 *
 * Return: 0, or -EINVAL when the entry's lba is not below external_nlba
 * or a postmap is not below internal_nlba (a corrupt flog; @rec
 * untouched).
 */
int btt_flog_recover(const struct btt_flog_ent *newest, u32 map_raw,
		     const struct btt_arena *arena, struct btt_recovery *rec)
{
	u32 old_blk = newest->old_map & BTT_MAP_ABA_MASK;
	u32 new_blk = newest->new_map & BTT_MAP_ABA_MASK;
	u32 cur;

	if (newest->lba >= arena->external_nlba ||
	    old_blk >= arena->internal_nlba || new_blk >= arena->internal_nlba)
		return -EINVAL;

	rec->lba = newest->lba;
	rec->free_block = old_blk;
	rec->zero_free = (newest->old_map & BTT_MAP_FLAGS) == BTT_MAP_ERROR;
	rec->set_map = false;
	rec->map_entry = map_raw;
	if (!btt_flog_reads_map(newest))
		return 0;
	btt_map_decode(map_raw, newest->lba, &cur);
	if (cur == old_blk) {
		rec->set_map = true;
		rec->map_entry = new_blk | BTT_MAP_NORMAL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(btt_flog_recover);
