// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl clear-errors <namespace>|all: clear the known media errors of
 * namespaces through the platform (ARS Cap + Clear Uncorrectable Error
 * of each bad range, libndctl ars.c), as ndctl 76.1 does: optionally a
 * scrub first (-s) to learn latent errors; each namespace disabled while
 * its errors are cleared and enabled again (the kernel finds its pfn or
 * dax info block again); only the data area of fsdax/devdax namespaces
 * (their metadata is left alone); sector-mode namespaces skipped.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct cmd_help clear_help = {
	"ndctl clear-errors <namespace> [<options>]",
	"    -b, --bus <bus-id>    limit namespace to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit namespace to a region with an id or name of <region-id>\n"
	"    -v, --verbose         emit extra debug messages to stderr\n"
	"    -s, --scrub           run a scrub to find latent errors\n"
	"    -h, --help            show this help\n",
};

/* the data area [*start, +*size) of the namespace, system-physical */
static int data_area(struct ndctl_namespace *ndns, unsigned long long *start,
		unsigned long long *size)
{
	struct ndctl_pfn *pfn = ndctl_namespace_get_pfn(ndns);
	struct ndctl_dax *dax = ndctl_namespace_get_dax(ndns);

	if (pfn) {
		*start = ndctl_pfn_get_resource(pfn);
		*size = ndctl_pfn_get_size(pfn);
	} else if (dax) {
		*start = ndctl_dax_get_resource(dax);
		*size = ndctl_dax_get_size(dax);
	} else {
		*start = ndctl_namespace_get_resource(ndns);
		*size = ndctl_namespace_get_size(ndns);
	}
	if (*start == ULLONG_MAX || *size == ULLONG_MAX || *start + *size < *start)
		return -ENXIO;
	return 0;
}

/* ARS Cap and Clear Error of [addr, +len); all of it must be cleared */
static int clear_range(struct ndctl_bus *bus, unsigned long long addr,
		unsigned long long len)
{
	struct ndctl_cmd *cap, *clr;
	unsigned long long cleared;
	int rc;

	cap = ndctl_bus_cmd_new_ars_cap(bus, addr, len);
	if (!cap)
		return -ENOTTY;
	rc = ndctl_cmd_submit(cap);
	if (rc < 0) {
		ndctl_cmd_unref(cap);
		return rc;
	}
	clr = ndctl_bus_cmd_new_clear_error(addr, len, cap);
	if (!clr) {
		ndctl_cmd_unref(cap);
		return -ENXIO;
	}
	rc = ndctl_cmd_submit(clr);
	cleared = ndctl_cmd_clear_error_get_cleared(clr);
	ndctl_cmd_unref(clr);
	ndctl_cmd_unref(cap);
	if (rc < 0)
		return rc;
	if (cleared != len) {
		fail("clear of [%#llx, +%#llx): %llu bytes cleared", addr, len,
				cleared);
		return -ENXIO;
	}
	return 0;
}

static int clear_namespace(struct ndctl_namespace *ndns, bool scrub)
{
	struct ndctl_region *region = ndctl_namespace_get_region(ndns);
	struct ndctl_bus *bus = ndctl_namespace_get_bus(ndns);
	const char *name = ndctl_namespace_get_devname(ndns);
	unsigned long long start, size, rstart;
	struct badblock *bb;
	int rc, first = 0;

	if (ndctl_namespace_get_mode(ndns) == NDCTL_NS_MODE_SAFE) {
		if (verbose)
			note("%s: sector mode, skipped", name);
		return 1;	/* skipped, not cleared */
	}
	if (scrub) {
		rc = ndctl_bus_start_scrub(bus);
		if (rc && rc != -EBUSY) {
			fail("%s: unable to start a scrub: %s", name, strerror(-rc));
			return rc;
		}
		rc = ndctl_bus_wait_for_scrub_completion(bus);
		if (rc) {
			fail("%s: waiting for the scrub: %s", name, strerror(-rc));
			return rc;
		}
	}
	rc = data_area(ndns, &start, &size);
	if (rc) {
		fail("%s: no data area (is it enabled?)", name);
		return rc;
	}
	rstart = ndctl_region_get_resource(region);
	rc = ndctl_namespace_disable_safe(ndns);
	if (rc) {
		fail("%s: unable to disable namespace: %s", name, strerror(-rc));
		return rc;
	}
	ndctl_region_badblock_foreach(region, bb) {
		unsigned long long b, l;

		if (bb->offset > (ULLONG_MAX - rstart) / 512)
			continue;
		b = rstart + bb->offset * 512;
		l = (unsigned long long)bb->len * 512;
		/* only ranges wholly in the data area */
		if (b < start || b - start > size || l > size - (b - start))
			continue;
		rc = clear_range(bus, b, l);
		if (rc && !first) {
			fail("%s: clearing [%#llx, +%#llx): %s", name, b, l,
					strerror(-rc));
			first = rc;
		}
	}
	/* 1: enabled through the btt/pfn/dax device that claims it again */
	rc = ndctl_namespace_enable(ndns);
	if (rc < 0 && !first) {
		fail("%s: unable to enable namespace: %s", name, strerror(-rc));
		first = rc;
	}
	return first;
}

int cmd_clear_errors(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "scrub", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bus_f = NULL, *region_f = NULL;
	struct ndctl_namespace **list = NULL;
	int c, i, n, rc = 0, cleared = 0;
	struct ndctl_ctx *ctx;
	bool scrub = false;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:vsh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': bus_f = optarg; break;
		case 'r': region_f = optarg; break;
		case 'v': verbose = 1; break;
		case 's': scrub = true; break;
		case 'h': return print_help(&clear_help, stdout);
		default: return print_help(&clear_help, stderr);
		}
	}
	if (optind >= argc) {
		fail("specify a namespace to clear errors for, or \"all\"");
		return EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fail("unknown extra parameter \"%s\"", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	n = collect_namespaces(ctx, bus_f, region_f, argv[optind], &list);
	if (n <= 0)
		rc = n < 0 ? n : -ENXIO;
	for (i = 0; i < n; i++) {
		int r;

		/* "all": the active ones (enabled, or claimed by an enabled device) */
		if (!ndctl_namespace_is_active(list[i]) && !strcmp(argv[optind], "all"))
			continue;
		r = clear_namespace(list[i], scrub);
		if (r == 0)
			cleared++;
		else if (r < 0 && !rc)
			rc = r;
	}
	free(list);
	ndctl_unref(ctx);
	if (rc)
		fprintf(stderr, "error clearing namespaces: %s\n", strerror(-rc));
	fprintf(stderr, "cleared %d namespace%s\n", cleared, cleared == 1 ? "" : "s");
	return rc;
}
