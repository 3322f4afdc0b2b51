// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * List filters of `ndctl list` (-b, -r, -d, -n): several devices in one
 * option, as ndctl 76.1 takes them ("-r 'region0 region1'", "-n 1.0").
 * 76.1 splits at blanks only; commas are accepted here too ("-r 0,1",
 * which 76.1 matches against nothing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "filter.h"

#define FILTER_SEP " \t,"

typedef bool (*match_fn)(void *obj, const char *word);

/* true when some word of @list matches @obj; NULL or "all" match all */
static bool match_list(const char *list, match_fn m, void *obj)
{
	char *copy, *word, *save = NULL;
	bool hit = false;

	if (!list || m(obj, list))	/* the whole string first */
		return true;
	copy = strdup(list);
	if (!copy)
		return false;
	for (word = strtok_r(copy, FILTER_SEP, &save); word && !hit;
			word = strtok_r(NULL, FILTER_SEP, &save))
		hit = !strcmp(word, "all") || m(obj, word);
	free(copy);
	return hit;
}

static bool one_bus(void *obj, const char *word)
{
	return match_bus(obj, word);
}

static bool one_region(void *obj, const char *word)
{
	return match_region(obj, word);
}

static bool one_dimm(void *obj, const char *word)
{
	return match_dimm(obj, word);
}

static bool one_region_dimm(void *obj, const char *word)
{
	return region_has_dimm(obj, word);
}

/* namespaceX.Y, or X.Y: region X, namespace Y */
static bool one_namespace(void *obj, const char *word)
{
	struct ndctl_namespace *ndns = obj;
	unsigned int rid, nid;
	int end = 0;

	if (match_namespace(ndns, word))
		return true;
	if (word[0] < '0' || word[0] > '9' ||
	    sscanf(word, "%u.%u%n", &rid, &nid, &end) != 2 || word[end])
		return false;
	return rid == ndctl_region_get_id(ndctl_namespace_get_region(ndns)) &&
		nid == ndctl_namespace_get_id(ndns);
}

bool filter_bus(struct ndctl_bus *bus, const char *list)
{
	return match_list(list, one_bus, bus);
}

bool filter_region(struct ndctl_region *region, const char *list)
{
	return match_list(list, one_region, region);
}

bool filter_dimm(struct ndctl_dimm *dimm, const char *list)
{
	return match_list(list, one_dimm, dimm);
}

bool filter_namespace(struct ndctl_namespace *ndns, const char *list)
{
	return match_list(list, one_namespace, ndns);
}

bool filter_region_dimms(struct ndctl_region *region, const char *list)
{
	return match_list(list, one_region_dimm, region);
}
