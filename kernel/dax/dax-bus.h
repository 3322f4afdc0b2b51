/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The device-dax bus interface the 6.1 kernel exports from its DAX core
 * (drivers/dax/bus.c and super.c, built into Debian's vmlinux) for the
 * drivers that create device-dax instances (dax_pmem) and for the driver
 * of those instances (device_dax).  Its headers are private to
 * drivers/dax, so the declarations are restated here exactly as 6.1 has
 * them; the structure layouts must match that kernel's.
 */
#ifndef __ND_DAX_BUS_H__
#define __ND_DAX_BUS_H__

#include <linux/bits.h>
#include <linux/device.h>
#include <linux/idr.h>
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

/*
 * For drivers of dev_dax instances (device_dax): the instance as 6.1's
 * drivers/dax/dax-private.h lays it out (the core allocates it and
 * fills it in; a driver reads it), and the driver structure the core
 * matches against the instances of its bus.
 */
struct dax_device;
struct dax_mapping;

struct dev_dax {
	struct dax_region *region;
	struct dax_device *dax_dev;
	unsigned int align;
	int target_node;
	bool dyn_id;
	int id;
	struct ida ida;
	struct device dev;
	struct dev_pagemap *pgmap;
	int nr_range;
	struct dev_dax_range {
		unsigned long pgoff;
		struct range range;
		struct dax_mapping *mapping;
	} *ranges;
};

/*
 * @match_always: binds every instance without a new_id (6.1 allows one
 * such driver on the bus, device_dax); the driver's name is its
 * module's (KBUILD_MODNAME), which daxctl looks for
 */
struct dax_device_driver {
	struct device_driver drv;
	struct list_head ids;
	int match_always;
	int (*probe)(struct dev_dax *dev);
	void (*remove)(struct dev_dax *dev);
};

int __dax_driver_register(struct dax_device_driver *dax_drv,
			  struct module *module, const char *mod_name);
#define dax_driver_register(driver) \
	__dax_driver_register(driver, THIS_MODULE, KBUILD_MODNAME)
void dax_driver_unregister(struct dax_device_driver *dax_drv);
bool static_dev_dax(struct dev_dax *dev_dax);
void kill_dev_dax(struct dev_dax *dev_dax);
void run_dax(struct dax_device *dax_dev);
struct dax_device *inode_dax(struct inode *inode);
struct inode *dax_inode(struct dax_device *dax_dev);

/* the modalias of a dev_dax instance: "dax:t0" */
#define MODULE_ALIAS_DAX_DEVICE(type) \
	MODULE_ALIAS("dax:t" __stringify(type) "*")

#endif /* __ND_DAX_BUS_H__ */
