// SPDX-License-Identifier: GPL-2.0-or-later
/* enable-/disable- namespace, region, dimm */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum kind { NAMESPACE, REGION, DIMM };

static const char *const kind_name[] = { "namespace", "region", "dimm" };

struct toggle_opts {
	const char *bus, *region, *type;
	bool enable;
	enum kind kind;
};

static int toggle_help(const struct toggle_opts *t, FILE *f)
{
	char usage[128];
	struct cmd_help h;

	snprintf(usage, sizeof(usage), "ndctl %s-%s <%s> [<options>]",
			t->enable ? "enable" : "disable", kind_name[t->kind],
			t->kind == DIMM ? "nmemX" : t->kind == REGION ? "regionX" :
			"namespaceX.Y");
	h.usage = usage;
	switch (t->kind) {
	case NAMESPACE:
		h.options =
	"    <namespace>           namespaceX.Y, or 'all'\n"
	"    -b, --bus <bus-id>    limit to a bus with an id or provider of <bus-id>\n"
	"    -r, --region <region-id>\n"
	"                          limit to a region with an id or name of <region-id>\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n";
		break;
	case REGION:
		h.options =
	"    <region>              regionX, a region id, or 'all'\n"
	"    -b, --bus <bus-id>    <region> must be on a bus with an id/provider of <bus-id>\n"
	"    -t, --type <type>     <region> must be of the type 'pmem' or 'blk'\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n";
		break;
	default:
		h.options =
	"    <dimm>                nmemX, a dimm id, or 'all' (several may be given)\n"
	"    -b, --bus <bus-id>    <nmem> must be on a bus with an id/provider of <bus-id>\n"
	"    -v, --verbose         emit debug messages\n"
	"    -h, --help            show this help\n";
	}
	return print_help(&h, f);
}

static bool match_any(int argc, char **argv, bool (*m)(void *, const char *),
		void *obj)
{
	int i;

	for (i = 0; i < argc; i++)
		if (m(obj, argv[i]))
			return true;
	return false;
}

static bool m_dimm(void *o, const char *f) { return match_dimm(o, f); }
static bool m_region(void *o, const char *f) { return match_region(o, f); }
static bool m_ns(void *o, const char *f) { return match_namespace(o, f); }

static int toggle(int argc, char **argv, struct toggle_opts *t)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "region", required_argument, NULL, 'r' },
		{ "type", required_argument, NULL, 't' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ndctl_region *region;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	int c, found = 0, done = 0, failed = 0, first_rc = 0;
	/* as 76.1: --region for namespaces, --type for regions only */
	const char *short_opts = t->kind == NAMESPACE ? "b:r:vh"
		: t->kind == REGION ? "b:t:vh" : "b:vh";
	char **targets;
	int ntargets;

	optind = 1;
	while ((c = getopt_long(argc, argv, short_opts, lopts, NULL)) != -1) {
		if (!opt_allowed(short_opts, c))
			return toggle_help(t, stderr);
		switch (c) {
		case 'b': t->bus = optarg; break;
		case 'r': t->region = optarg; break;
		case 't': t->type = optarg; break;
		case 'v': verbose = 1; break;
		case 'h': return toggle_help(t, stdout);
		default: return toggle_help(t, stderr);
		}
	}
	targets = argv + optind;
	ntargets = argc - optind;
	if (ntargets < 1 || (t->kind != DIMM && ntargets != 1)) {
		fail("specify the %s to %s (or 'all')", kind_name[t->kind],
				t->enable ? "enable" : "disable");
		return EXIT_USAGE;
	}
	if (t->type && strcmp(t->type, "pmem") && strcmp(t->type, "blk")) {
		fail("unknown region type '%s' (pmem or blk)", t->type);
		return EXIT_USAGE;
	}
	if (cli_ctx_new(&ctx))
		return 1;
	ndctl_bus_foreach(ctx, bus) {
		struct ndctl_dimm *dimm;

		if (!match_bus(bus, t->bus))
			continue;
		if (t->kind == DIMM) {
			ndctl_dimm_foreach(bus, dimm) {
				int rc;

				if (!match_any(ntargets, targets, m_dimm, dimm))
					continue;
				found++;
				rc = t->enable ? ndctl_dimm_enable(dimm)
					: ndctl_dimm_disable(dimm);
				if (rc) {
					failed++;
					fail("%s: %s failed: %s", ndctl_dimm_get_devname(dimm),
						t->enable ? "enable" : "disable",
						rc == -EBUSY ? "DIMM is active (in use by an enabled region)"
						: strerror(-rc));
				} else
					done++;
			}
			continue;
		}
		ndctl_region_foreach(bus, region) {
			struct ndctl_namespace *ndns, **list = NULL;
			int n = 0, i;

			if (t->type && strcmp(t->type, ndctl_region_get_type_name(region)))
				continue;
			if (t->kind == REGION) {
				int rc;

				if (!match_any(ntargets, targets, m_region, region))
					continue;
				found++;
				rc = t->enable ? ndctl_region_enable(region)
					: ndctl_region_disable_safe(region);
				if (rc) {
					failed++;
					fail("%s: %s failed: %s%s",
						ndctl_region_get_devname(region),
						t->enable ? "enable" : "disable",
						strerror(-rc), rc == -EBUSY && !t->enable
						? " (a namespace's block device is in use, or "
						  "its memory online as system-ram)" : "");
				} else
					done++;
				continue;
			}
			if (!match_region(region, t->region))
				continue;
			/* enabling rescans the region: collect first */
			ndctl_namespace_foreach(region, ndns) {
				struct ndctl_namespace **nv;

				if (!match_any(ntargets, targets, m_ns, ndns))
					continue;
				nv = realloc(list, (n + 1) * sizeof(*list));
				if (!nv)
					break;
				list = nv;
				list[n++] = ndns;
			}
			for (i = 0; i < n; i++) {
				int rc;

				ndns = list[i];
				found++;
				if (t->enable && !ndctl_namespace_is_configured(ndns)) {
					/* idle seeds are not errors for "all" */
					if (strcmp(targets[0], "all")) {
						failed++;
						fail("%s: not configured (no uuid or size)",
							ndctl_namespace_get_devname(ndns));
					}
					continue;
				}
				if (t->enable) {
					struct ndctl_btt *btt = ndctl_namespace_get_btt(ndns);

					/* a sector-mode namespace is served by its btt */
					rc = btt ? ndctl_btt_enable(btt)
						: ndctl_namespace_enable(ndns);
				} else {
					/* refuses while the block device is held */
					rc = ndctl_namespace_disable_safe(ndns);
				}
				if (rc == -EBUSY && !t->enable) {
					failed++;
					if (!first_rc)
						first_rc = rc;
					fail("%s: %s: %s",
						ndctl_namespace_get_devname(ndns),
						busy_reason(ndns), strerror(-rc));
				} else if (rc < 0) {
					failed++;
					fail("%s: %s failed: %s",
						ndctl_namespace_get_devname(ndns),
						t->enable ? "enable" : "disable",
						strerror(-rc));
				} else
					done++;
			}
			free(list);
		}
	}
	ndctl_unref(ctx);
	/*
	 * 76.1: a namespace that is not there is -ENXIO; for DIMMs and
	 * regions "enabled 0 regions" is the whole answer, exit 0.
	 */
	if (!found && strcmp(targets[0], "all")) {
		if (t->kind == NAMESPACE) {
			fail("%s '%s' not found", kind_name[t->kind], targets[0]);
			return -ENXIO;
		}
		note("no %s matches '%s'", kind_name[t->kind], targets[0]);
	}
	note("%s %d %s%s", t->enable ? "enabled" : "disabled", done,
			kind_name[t->kind], done == 1 ? "" : "s");
	/* 76.1: a namespace that is in use, -EBUSY (exit 240) */
	if (first_rc)
		return first_rc;
	return failed ? 1 : 0;
}

#define TOGGLE(fn, en, k) \
int fn(int argc, char **argv) \
{ \
	struct toggle_opts t = { .enable = en, .kind = k }; \
	return toggle(argc, argv, &t); \
}

TOGGLE(cmd_enable_namespace, true, NAMESPACE)
TOGGLE(cmd_disable_namespace, false, NAMESPACE)
TOGGLE(cmd_enable_region, true, REGION)
TOGGLE(cmd_disable_region, false, REGION)
TOGGLE(cmd_enable_dimm, true, DIMM)
TOGGLE(cmd_disable_dimm, false, DIMM)
