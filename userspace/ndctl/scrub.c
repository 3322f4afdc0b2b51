// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl start-scrub / wait-scrub [BUS...]: the kernel's Address Range
 * Scrub through ndbusN/nfit/scrub (libndctl ars.c).  As ndctl 76.1: no
 * bus argument means every bus; the buses the action succeeded on are
 * printed as a JSON array (provider, dev, scrub_state); when it
 * succeeded on none, the first error (or -ENXIO: no bus matched) is the
 * exit status, after "error starting scrub: ..." or "error waiting for
 * scrub completion: ...".
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static const struct cmd_help start_help = {
	"ndctl start-scrub [<bus-id> <bus-id2> ... <bus-idN>] [<options>]",
	"    -v, --verbose         turn on debug\n"
	"    -h, --help            show this help\n",
};

static const struct cmd_help wait_help = {
	"ndctl wait-scrub [<bus-id> <bus-id2> ... <bus-idN>] [<options>]",
	"    -v, --verbose         turn on debug\n"
	"    -p, --poll <n>        poll interval (seconds)\n"
	"    -t, --timeout <n>     give up after <n> seconds (default: never)\n"
	"    -h, --help            show this help\n",
};

static struct json_object *bus_json(struct ndctl_bus *bus)
{
	struct json_object *j = json_object_new_object();
	const char *st;

	if (!j)
		return NULL;
	json_object_object_add(j, "provider",
			json_object_new_string(ndctl_bus_get_provider(bus)));
	json_object_object_add(j, "dev",
			json_object_new_string(ndctl_bus_get_devname(bus)));
	st = ndctl_bus_get_scrub_state(bus);
	if (st)
		json_object_object_add(j, "scrub_state", json_object_new_string(st));
	return j;
}

static int parse_uint(const char *s, unsigned int *v)
{
	unsigned long x;
	char *end;

	errno = 0;
	x = strtoul(s, &end, 0);
	if (errno || end == s || *end || x > UINT_MAX || strchr(s, '-'))
		return -1;
	*v = x;
	return 0;
}

static int scrub_action(int argc, char **argv, bool start)
{
	static const struct option lopts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "poll", required_argument, NULL, 'p' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct cmd_help *help = start ? &start_help : &wait_help;
	const char *short_opts = start ? "vh" : "vp:t:h";
	unsigned int poll_s = 0, timeout_s = 0;
	char *all[] = { (char *)"all" };
	struct json_object *jbuses;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	int c, i, rc, first_rc = 0, ok = 0;
	char **targets;
	int ntargets;

	optind = 1;
	while ((c = getopt_long(argc, argv, short_opts, lopts, NULL)) != -1) {
		if (!opt_allowed(short_opts, c))
			return print_help(help, stderr);
		switch (c) {
		case 'v': verbose = 1; break;
		case 'p':
			if (parse_uint(optarg, &poll_s)) {
				fail("invalid poll interval '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 't':
			if (parse_uint(optarg, &timeout_s)) {
				fail("invalid timeout '%s'", optarg);
				return EXIT_USAGE;
			}
			break;
		case 'h': return print_help(help, stdout);
		default: return print_help(help, stderr);
		}
	}
	targets = argv + optind;
	ntargets = argc - optind;
	if (!ntargets) {
		targets = all;
		ntargets = 1;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	jbuses = json_object_new_array();
	for (i = 0; i < ntargets; i++) {
		int found = 0;

		ndctl_bus_foreach(ctx, bus) {
			if (!match_bus(bus, targets[i]))
				continue;
			found++;
			rc = start ? ndctl_bus_start_scrub(bus)
				: ndctl_bus_poll_scrub_completion(bus, poll_s,
						timeout_s);
			if (rc) {
				if (!first_rc)
					first_rc = rc;
				continue;
			}
			ok++;
			json_object_array_add(jbuses, bus_json(bus));
		}
		if (!found && !first_rc)
			first_rc = -ENXIO;
	}
	if (ok)
		json_print(jbuses);
	json_object_put(jbuses);
	ndctl_unref(ctx);
	if (ok)
		return 0;
	if (!first_rc)
		first_rc = -ENXIO;
	fprintf(stderr, "error %s: %s\n", start ? "starting scrub"
			: "waiting for scrub completion", strerror(-first_rc));
	return first_rc;
}

int cmd_start_scrub(int argc, char **argv)
{
	return scrub_action(argc, argv, true);
}

int cmd_wait_scrub(int argc, char **argv)
{
	return scrub_action(argc, argv, false);
}
