/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The enumeration calls of a libndctl dlopen()ed by name, by 76.1's
 * names, so that one guest tool runs against ours and Debian's library
 * (dirty-shutdown.c, health-event.c).
 */
#ifndef _DL_NDCTL_H_
#define _DL_NDCTL_H_

#include <dlfcn.h>
#include <stdio.h>

struct ndctl_ctx;
struct ndctl_bus;
struct ndctl_dimm;

struct dl_ndctl {
	void *h;
	int (*new_ctx)(struct ndctl_ctx **ctx);
	struct ndctl_ctx *(*unref)(struct ndctl_ctx *ctx);
	struct ndctl_bus *(*bus_first)(struct ndctl_ctx *ctx);
	struct ndctl_bus *(*bus_next)(struct ndctl_bus *bus);
	struct ndctl_dimm *(*dimm_first)(struct ndctl_bus *bus);
	struct ndctl_dimm *(*dimm_next)(struct ndctl_dimm *dimm);
	const char *(*dimm_name)(struct ndctl_dimm *dimm);
};

/* 0, or 1 after a message on stderr */
static inline int dl_ndctl_open(struct dl_ndctl *l, const char *lib)
{
	l->h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	if (!l->h) {
		fprintf(stderr, "%s\n", dlerror());
		return 1;
	}
	*(void **)&l->new_ctx = dlsym(l->h, "ndctl_new");
	*(void **)&l->unref = dlsym(l->h, "ndctl_unref");
	*(void **)&l->bus_first = dlsym(l->h, "ndctl_bus_get_first");
	*(void **)&l->bus_next = dlsym(l->h, "ndctl_bus_get_next");
	*(void **)&l->dimm_first = dlsym(l->h, "ndctl_dimm_get_first");
	*(void **)&l->dimm_next = dlsym(l->h, "ndctl_dimm_get_next");
	*(void **)&l->dimm_name = dlsym(l->h, "ndctl_dimm_get_devname");
	if (!l->new_ctx || !l->unref || !l->bus_first || !l->bus_next ||
	    !l->dimm_first || !l->dimm_next || !l->dimm_name) {
		fprintf(stderr, "%s: libndctl's enumeration missing\n", lib);
		return 1;
	}
	return 0;
}

#define dl_ndctl_foreach_dimm(l, ctx, bus, dimm) \
	for (bus = (l)->bus_first(ctx); bus; bus = (l)->bus_next(bus)) \
		for (dimm = (l)->dimm_first(bus); dimm; \
		     dimm = (l)->dimm_next(dimm))

#endif
