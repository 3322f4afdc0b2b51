/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device-dax bus interface the 6.1 kernel exports from its DAX core
 * (drivers/dax/bus.c, built into Debian's vmlinux) for drivers that
 * create device-dax instances.  Its header is private to drivers/dax, so
 * the declarations are restated here exactly as 6.1 has them; the
 * structure layout must match that kernel's.
 */
#ifndef __ND_DAX_BUS_H__
#define __ND_DAX_BUS_H__

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/range.h>

struct dev_dax;
struct dax_region;
struct dev_pagemap;

/* a dax_region whose single instance is sized and numbered by its maker */
#define IORESOURCE_DAX_STATIC	BIT(0)

struct dax_region *alloc_dax_region(struct device *parent, int region_id,
				    struct range *range, int target_node,
				    unsigned int align, unsigned long flags);
void dax_region_put(struct dax_region *dax_region);

struct dev_dax_data {
	struct dax_region *dax_region;
	struct dev_pagemap *pgmap;
	resource_size_t size;
	int id;
};

struct dev_dax *devm_create_dev_dax(struct dev_dax_data *data);

#endif /* __ND_DAX_BUS_H__ */
