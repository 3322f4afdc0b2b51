/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Crafts label storage areas byte by byte for the tests of
 * kernel/nvdimm/label-format.c, independently of the code under test:
 * its own little-endian stores and its own (byte-wise) Fletcher-64, so a
 * shared misreading of the format cannot make both sides agree.
 */
#ifndef LSA_BUILDER_H
#define LSA_BUILDER_H

#include <linux/types.h>

#define KIB 1024u

u64 lb_fletcher64(const u8 *p, size_t len);
void lb_put16(u8 *p, u16 v);
void lb_put32(u8 *p, u32 v);
void lb_put64(u8 *p, u64 v);
u32 lb_get32(const u8 *p);
u64 lb_get64(const u8 *p);

/* An index block; every field is written as given. */
struct lb_index {
	u32 seq;
	u64 myoff, mysize, otheroff, labeloff;
	u32 nslot;
	u16 major, minor;
	u8 labelsize;
	u32 bitmap_bits;	/* bits set from slot 0 (padding included) */
};

/* standard header for block @which of a layout (isize, nslot, version) */
struct lb_index lb_index_std(u32 isize, int which, u32 seq, u32 nslot,
			     u16 minor, u8 labelsize);
/* write @d as block @which (at which * isize) and seal it */
void lb_put_index(u8 *area, u32 isize, int which, const struct lb_index *d);
/* recompute block @which's checksum after an edit */
void lb_reseal_index(u8 *area, u32 isize, int which);
/* mark slot in use (bit clear) in block @which, reseal */
void lb_use_slot(u8 *area, u32 isize, int which, u32 slot);

/* A label. */
struct lb_label {
	u8 uuid[16];
	const char *name;
	u32 flags;
	u16 nlabel, position;
	u64 isetcookie, lbasize, dpa, rawsize;
	u32 slot;
};

/* write @l into slot @slot; 256-byte labels get a checksum */
void lb_put_label(u8 *area, u32 isize, u32 lsize, u32 slot,
		  const struct lb_label *l);

/*
 * Areas as the tools write them.  ndctl v76 init-labels: modern formula,
 * bitmap bits set up to roundup(nslot, 64).  v4.x kernel: v4.x formula,
 * bits beyond nslot clear.  Both: block 0 seq 3, block 1 seq 2.
 */
void lb_ndctl_init(u8 *area, u32 size, u32 lsize);
void lb_v4x_init(u8 *area, u32 size);

/* media-formats 3.7: N76:test/nmem1.bin (128 KiB) as far as described */
void lb_nmem1(u8 *area);

#endif
