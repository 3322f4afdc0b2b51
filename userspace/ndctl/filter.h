/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _NDCTL_CLI_FILTER_H_
#define _NDCTL_CLI_FILTER_H_

#include <stdbool.h>
#include <ndctl/libndctl.h>

/*
 * Filters that take a list: "region0 region1", "0,1", "1.0 namespace0.0".
 * Each word (separated by blanks or commas) is matched as the one-word
 * filters of util.h do; a namespace also matches "X.Y" (region X, id Y).
 * NULL, and a list holding "all", match everything.
 */
bool filter_bus(struct ndctl_bus *bus, const char *list);
bool filter_region(struct ndctl_region *region, const char *list);
bool filter_dimm(struct ndctl_dimm *dimm, const char *list);
bool filter_namespace(struct ndctl_namespace *ndns, const char *list);
/* does the region map a DIMM the list names? */
bool filter_region_dimms(struct ndctl_region *region, const char *list);

#endif
