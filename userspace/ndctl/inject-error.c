// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl inject-error: media errors injected into a namespace, withdrawn
 * or listed through the bus's NFIT error-injection functions (libndctl
 * inject.c).  Parameters are checked, in ndctl 76.1's order and with its
 * exit statuses, before anything is looked up or sent.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct cmd_help inject_help = {
	"ndctl inject-error <namespace> [<options>]",
	"    -b, --bus <bus-id>    limit namespace to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit namespace to a region with an id or name of <region-id>\n"
	"    -v, --verbose         emit extra debug messages to stderr\n"
	"    -B, --block <namespace block offset (512B)>\n"
	"                          specify the block at which to (un)inject the error\n"
	"    -n, --count <count>   specify the number of blocks of errors to (un)inject\n"
	"    -d, --uninject        un-inject a previously injected error\n"
	"    -t, --status          get error injection status\n"
	"    -N, --no-notify       firmware should not notify OS\n"
	"    -S, --saturate        inject full sector, not just 'ars_unit' bytes\n"
	"    -u, --human           use human friendly number formats\n"
	"    -h, --help            show this help\n",
};

/* 76.1: strtoull base 0, all of it; ULLONG_MAX (and overflow) refused */
static int parse_num(const char *s, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	if (errno || *end || *v == ULLONG_MAX || strchr(s, '-'))
		return -1;
	return 0;
}

static struct ndctl_namespace *find_namespace(struct ndctl_ctx *ctx,
		const char *name, const char *bus_f, const char *region_f)
{
	struct ndctl_namespace **list = NULL, *ndns = NULL;
	int n;

	n = collect_namespaces(ctx, bus_f, region_f, name, &list);
	if (n > 0)
		ndns = list[0];
	free(list);
	return ndns;
}

static int show_status(struct ndctl_namespace *ndns, bool human)
{
	struct json_object *j, *arr;
	struct ndctl_bb *bb;
	int rc;

	rc = ndctl_namespace_injection_status(ndns);
	if (rc) {
		fail("%s: Unable to get injection status: %s (%d)",
				ndctl_namespace_get_devname(ndns), strerror(-rc), rc);
		return rc;
	}
	j = json_object_new_object();
	arr = json_object_new_array();
	if (!j || !arr) {
		json_object_put(j);
		json_object_put(arr);
		return -ENOMEM;
	}
	ndctl_namespace_bb_foreach(ndns, bb) {
		struct json_object *e = json_object_new_object();

		if (!e)
			break;
		json_object_object_add(e, "block",
				json_hex(ndctl_bb_get_block(bb), human));
		json_object_object_add(e, "count",
				json_hex(ndctl_bb_get_count(bb), human));
		json_object_array_add(arr, e);
	}
	/* 76.1 prints nothing when nothing is injected */
	if (json_object_array_length(arr)) {
		json_object_object_add(j, "badblocks", arr);
		json_print(j);
	} else {
		json_object_put(arr);
	}
	json_object_put(j);
	return 0;
}

int cmd_inject_error(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "block", required_argument, NULL, 'B' },
		{ "count", required_argument, NULL, 'n' },
		{ "uninject", no_argument, NULL, 'd' },
		{ "status", no_argument, NULL, 't' },
		{ "no-notify", no_argument, NULL, 'N' },
		{ "saturate", no_argument, NULL, 'S' },
		{ "human", no_argument, NULL, 'u' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *bus_f = NULL, *region_f = NULL, *block_s = NULL, *count_s = NULL;
	bool uninject = false, status = false, no_notify = false, saturate = false;
	bool human = false;
	unsigned long long block = 0, count = 0;
	struct ndctl_namespace *ndns;
	struct ndctl_ctx *ctx;
	unsigned int flags = 0;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:r:vB:n:dtNSuh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': bus_f = optarg; break;
		case 'r': region_f = optarg; break;
		case 'v': verbose = 1; break;
		case 'B': block_s = optarg; break;
		case 'n': count_s = optarg; break;
		case 'd': uninject = true; break;
		case 't': status = true; break;
		case 'N': no_notify = true; break;
		case 'S': saturate = true; break;
		case 'u': human = true; break;
		case 'h': return print_help(&inject_help, stdout);
		default: return print_help(&inject_help, stderr);
		}
	}
	/* 76.1's order: the operation, the numbers, then the namespace */
	if (status && (uninject || block_s || count_s || saturate)) {
		fail("status is invalid with inject or uninject");
		return -EINVAL;
	}
	if (block_s && parse_num(block_s, &block)) {
		fail("Invalid block: %s", block_s);
		return -EINVAL;
	}
	if (count_s && parse_num(count_s, &count)) {
		fail("Invalid count: %s", count_s);
		return -EINVAL;
	}
	if (!status && (!block_s || !count_s)) {
		fail("block and count required for inject/uninject");
		return -EINVAL;
	}
	if (optind >= argc) {
		fail("specify a namespace to inject error to");
		return EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fail("unknown extra parameter \"%s\"", argv[optind + 1]);
		return EXIT_USAGE;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	ndns = find_namespace(ctx, argv[optind], bus_f, region_f);
	if (!ndns) {
		fail("%s: no such namespace", argv[optind]);
		ndctl_unref(ctx);
		return -ENXIO;
	}
	if (!ndctl_bus_has_error_injection(ndctl_namespace_get_bus(ndns))) {
		fail("%s: error injection not supported",
				ndctl_namespace_get_devname(ndns));
		ndctl_unref(ctx);
		return -EOPNOTSUPP;
	}
	if (status) {
		rc = show_status(ndns, human);
		ndctl_unref(ctx);
		return rc;
	}
	if (saturate)
		flags |= 1 << NDCTL_NS_INJECT_SATURATE;
	if (uninject) {
		rc = ndctl_namespace_uninject_error2(ndns, block, count, flags);
	} else {
		if (!no_notify)
			flags |= 1 << NDCTL_NS_INJECT_NOTIFY;
		rc = ndctl_namespace_inject_error2(ndns, block, count, flags);
	}
	if (rc == 0) {
		/* 76.1: the namespace with its media errors, as list -M */
		struct json_object *j = namespace_to_json(ndns, human, false, false);

		if (j) {
			namespace_media_errors(j, ndns, true);
			json_print(j);
			json_object_put(j);
		}
	} else
		fail("%s: Unable to %s error: %s (%d)",
				ndctl_namespace_get_devname(ndns),
				uninject ? "uninject" : "inject", strerror(-rc), rc);
	ndctl_unref(ctx);
	return rc;
}
