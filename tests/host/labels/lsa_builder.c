// SPDX-License-Identifier: GPL-2.0-only
/*
 * Label storage area builder for the host tests (see lsa_builder.h).
 */
#include <string.h>

#include "lsa_builder.h"

void lb_put16(u8 *p, u16 v)
{
	p[0] = v;
	p[1] = v >> 8;
}

void lb_put32(u8 *p, u32 v)
{
	lb_put16(p, v);
	lb_put16(p + 2, v >> 16);
}

void lb_put64(u8 *p, u64 v)
{
	lb_put32(p, v);
	lb_put32(p + 4, v >> 32);
}

u32 lb_get32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

u64 lb_get64(const u8 *p)
{
	return lb_get32(p) | (u64)lb_get32(p + 4) << 32;
}

/* Fletcher-64 as media-formats 1.2 states it, one byte at a time. */
u64 lb_fletcher64(const u8 *p, size_t len)
{
	u64 lo = 0, hi = 0;
	size_t i;

	for (i = 0; i + 4 <= len; i += 4) {
		lo = (lo + lb_get32(p + i)) & 0xffffffffu;
		hi += lo;
	}
	return hi << 32 | lo;
}

struct lb_index lb_index_std(u32 isize, int which, u32 seq, u32 nslot,
			     u16 minor, u8 labelsize)
{
	struct lb_index d = {
		.seq = seq,
		.myoff = (u64)which * isize,
		.mysize = isize,
		.otheroff = (u64)(1 - which) * isize,
		.labeloff = 2 * (u64)isize,
		.nslot = nslot,
		.major = 1,
		.minor = minor,
		.labelsize = labelsize,
		.bitmap_bits = nslot,
	};

	return d;
}

void lb_reseal_index(u8 *area, u32 isize, int which)
{
	u8 *b = area + (size_t)which * isize;

	lb_put64(b + 64, 0);
	lb_put64(b + 64, lb_fletcher64(b, isize));
}

void lb_put_index(u8 *area, u32 isize, int which, const struct lb_index *d)
{
	u8 *b = area + (size_t)which * isize;
	u32 i;

	memset(b, 0, isize);
	memcpy(b, "NAMESPACE_INDEX", 16);
	b[19] = d->labelsize;
	lb_put32(b + 20, d->seq);
	lb_put64(b + 24, d->myoff);
	lb_put64(b + 32, d->mysize);
	lb_put64(b + 40, d->otheroff);
	lb_put64(b + 48, d->labeloff);
	lb_put32(b + 56, d->nslot);
	lb_put16(b + 60, d->major);
	lb_put16(b + 62, d->minor);
	for (i = 0; i < d->bitmap_bits && 72 + i / 8 < isize; i++)
		b[72 + i / 8] |= 1u << (i % 8);
	lb_reseal_index(area, isize, which);
}

void lb_use_slot(u8 *area, u32 isize, int which, u32 slot)
{
	u8 *b = area + (size_t)which * isize;

	b[72 + slot / 8] &= ~(1u << (slot % 8));
	lb_reseal_index(area, isize, which);
}

void lb_put_label(u8 *area, u32 isize, u32 lsize, u32 slot,
		  const struct lb_label *l)
{
	u8 *p = area + 2 * (size_t)isize + (size_t)slot * lsize;

	memset(p, 0, lsize);
	memcpy(p, l->uuid, 16);
	if (l->name)
		strncpy((char *)p + 16, l->name, 63);
	lb_put32(p + 80, l->flags);
	lb_put16(p + 84, l->nlabel);
	lb_put16(p + 86, l->position);
	lb_put64(p + 88, l->isetcookie);
	lb_put64(p + 96, l->lbasize);
	lb_put64(p + 104, l->dpa);
	lb_put64(p + 112, l->rawsize);
	lb_put32(p + 120, l->slot);
	if (lsize == 256)
		lb_put64(p + 248, lb_fletcher64(p, 256));
}

static u32 lb_roundup(u32 v, u32 a)
{
	return (v + a - 1) / a * a;
}

void lb_ndctl_init(u8 *area, u32 size, u32 lsize)
{
	u32 isize = lb_roundup(72 + (size / lsize + 7) / 8, 256);
	u32 nslot = (size - 2 * isize) / lsize;
	int b;

	for (b = 0; b < 2; b++) {
		struct lb_index d = lb_index_std(isize, b, b ? 2 : 3, nslot,
						 lsize == 256 ? 2 : 1,
						 lsize >> 8);

		d.bitmap_bits = lb_roundup(nslot, 64);
		lb_put_index(area, isize, b, &d);
	}
}

void lb_v4x_init(u8 *area, u32 size)
{
	u32 isize = size / 129 / 512 * 256, nslot = size / 129;
	int b;

	for (b = 0; b < 2; b++) {
		struct lb_index d = lb_index_std(isize, b, b ? 2 : 3, nslot,
						 1, 0);

		lb_put_index(area, isize, b, &d);
	}
}

void lb_nmem1(u8 *area)
{
	static const struct lb_label l0 = {
		.uuid = { 0x68, 0x30, 0xf0, 0x39, 0x79, 0x14, 0x42, 0x3e,
			  0xba, 0xd6, 0x22, 0xbd, 0xa8, 0xfd, 0xe8, 0xd6 },
		.flags = 8,
		.nlabel = 4,
		.position = 0,
		.isetcookie = 0x0803f6d70100fefbull,
		.lbasize = 0,
		.dpa = 0x1000000,
		.rawsize = 0x1000000,
		.slot = 0,
	};
	struct lb_index d;

	/* index 0: signature and checksum fine, sequence number 0 */
	d = lb_index_std(256, 0, 0, 1016, 1, 0);
	lb_put_index(area, 256, 0, &d);
	lb_use_slot(area, 256, 0, 0);
	/* index 1: seq 3, 1016 slots (v4.x formula), slot 0 in use */
	d = lb_index_std(256, 1, 3, 1016, 1, 0);
	lb_put_index(area, 256, 1, &d);
	lb_use_slot(area, 256, 1, 0);
	lb_put_label(area, 256, 128, 0, &l0);
}
