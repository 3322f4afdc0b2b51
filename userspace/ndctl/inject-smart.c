// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl inject-smart DIMM [options]: set a DIMM's SMART alarm thresholds
 * and inject (or un-inject) SMART values, through libndctl's smart.c, with
 * ndctl 76.1's options, refusals and exit statuses: thresholds first
 * (starting from the DIMM's current ones), then each injection as its own
 * command; on success the DIMM's list object with its health.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "health.h"

static const struct cmd_help inject_smart_help = {
	"ndctl inject-smart <dimm> [<options>]",
	"    -b, --bus <bus-id>\n"
	"    -m, --media-temperature <C>\n"
	"    -M, --media-temperature-threshold <C>\n"
	"        --media-temperature-alarm <on|off>\n"
	"        --media-temperature-uninject\n"
	"    -c, --ctrl-temperature <C>\n"
	"    -C, --ctrl-temperature-threshold <C>\n"
	"        --ctrl-temperature-alarm <on|off>\n"
	"        --ctrl-temperature-uninject\n"
	"    -s, --spares <N>\n"
	"    -S, --spares-threshold <N>\n"
	"        --spares-alarm <on|off>\n"
	"        --spares-uninject\n"
	"    -f, --fatal\n"
	"    -F, --fatal-uninject\n"
	"    -U, --unsafe-shutdown\n"
	"        --unsafe-shutdown-uninject\n"
	"    -N, --uninject-all\n"
	"    -u, --human\n"
	"    -v, --verbose\n"
	"    -h, --help\n",
};

enum { MT, CT, SP, NVAL };

struct smart_opts {
	const char *val[NVAL], *thr[NVAL], *alarm[NVAL];
	bool uninj[NVAL];
	bool fatal, fatal_un, unsafe, unsafe_un, all, human;
	unsigned int v[NVAL], t[NVAL];
	int alarm_on[NVAL];	/* -1 unchanged, 0 off, 1 on */
	bool set, inject;
};

static const unsigned int alarm_bit[NVAL] = {
	ND_SMART_TEMP_TRIP, ND_SMART_CTEMP_TRIP, ND_SMART_SPARE_TRIP,
};

/* 76.1: a temperature is strtod's, refused when infinite */
static int parse_temp(const char *s, unsigned int *out)
{
	double d = strtod(s, NULL);

	if (isinf(d) || isnan(d))
		return -EINVAL;
	*out = ndctl_encode_smart_temperature(d);
	return 0;
}

/* 76.1: spares are strtoul's, refused above UINT_MAX */
static int parse_count(const char *s, unsigned int *out)
{
	unsigned long v = strtoul(s, NULL, 0);

	if (v == ULONG_MAX || v > UINT_MAX)
		return -EINVAL;
	*out = v;
	return 0;
}

static int setup(struct smart_opts *o)
{
	int i, rc;

	for (i = 0; i < NVAL; i++) {
		int (*parse)(const char *, unsigned int *) =
			i == SP ? parse_count : parse_temp;

		if (o->val[i]) {
			rc = parse(o->val[i], &o->v[i]);
			if (rc) {
				fail("Invalid argument: %s", o->val[i]);
				return rc;
			}
			o->inject = true;
		}
		if (o->thr[i]) {
			rc = parse(o->thr[i], &o->t[i]);
			if (rc) {
				fail("Invalid argument: %s", o->thr[i]);
				return rc;
			}
			o->set = true;
		}
		o->alarm_on[i] = -1;
		if (o->alarm[i]) {
			if (!strncmp(o->alarm[i], "on", 2))
				o->alarm_on[i] = 1;
			else if (!strncmp(o->alarm[i], "off", 3))
				o->alarm_on[i] = 0;
			o->set = true;
		}
	}
	if (o->fatal || o->unsafe)
		o->inject = true;
	if (o->all) {
		for (i = 0; i < NVAL; i++)
			o->uninj[i] = true;
		o->fatal_un = o->unsafe_un = true;
	}
	for (i = 0; i < NVAL; i++) {
		if (!o->uninj[i])
			continue;
		if (o->val[i]) {
			fail("Cannot use inject and uninject together");
			return -EINVAL;
		}
		o->inject = true;
	}
	if ((o->fatal && o->fatal_un) || (o->unsafe && o->unsafe_un)) {
		fail("Cannot use inject and uninject together");
		return -EINVAL;
	}
	if (o->fatal_un || o->unsafe_un)
		o->inject = true;
	if (!o->set && !o->inject) {
		fail("No valid operation specified");
		return -EINVAL;
	}
	return 0;
}

static int set_thresholds(struct ndctl_dimm *dimm, struct smart_opts *o)
{
	struct ndctl_cmd *get, *set = NULL;
	unsigned int ctl;
	int rc, i;

	get = ndctl_dimm_cmd_new_smart_threshold(dimm);
	if (!get) {
		fail("%s: no smart threshold command support",
				ndctl_dimm_get_devname(dimm));
		return -EOPNOTSUPP;
	}
	rc = ndctl_cmd_submit(get);
	if (rc < 0) {
		fail("%s: smart threshold command failed: %s (%d)",
				ndctl_dimm_get_devname(dimm), strerror(-rc), rc);
		goto out;
	}
	set = ndctl_dimm_cmd_new_smart_set_threshold(get);
	if (!set) {
		rc = -EOPNOTSUPP;
		goto out;
	}
	ctl = ndctl_cmd_smart_threshold_get_alarm_control(get);
	for (i = 0; i < NVAL; i++) {
		if (o->alarm_on[i] == 1)
			ctl |= alarm_bit[i];
		else if (o->alarm_on[i] == 0)
			ctl &= ~alarm_bit[i];
	}
	rc = ndctl_cmd_smart_threshold_set_alarm_control(set, ctl);
	if (!rc && o->thr[MT])
		rc = ndctl_cmd_smart_threshold_set_media_temperature(set, o->t[MT]);
	if (!rc && o->thr[CT])
		rc = ndctl_cmd_smart_threshold_set_ctrl_temperature(set, o->t[CT]);
	if (!rc && o->thr[SP])
		rc = ndctl_cmd_smart_threshold_set_spares(set, o->t[SP]);
	if (rc) {
		fail("%s: smart set threshold: a value out of range",
				ndctl_dimm_get_devname(dimm));
		goto out;
	}
	rc = ndctl_cmd_submit(set);
	if (rc < 0)
		fail("%s: smart set threshold command failed: %s (%d)",
				ndctl_dimm_get_devname(dimm), strerror(-rc), rc);
out:
	ndctl_cmd_unref(set);
	ndctl_cmd_unref(get);
	return rc < 0 ? rc : 0;
}

/* one injection, its own command (as 76.1) */
static int inject_one(struct ndctl_dimm *dimm, const char *what,
		int (*apply)(struct ndctl_cmd *, struct smart_opts *),
		struct smart_opts *o)
{
	struct ndctl_cmd *cmd = ndctl_dimm_cmd_new_smart_inject(dimm);
	int rc;

	if (!cmd) {
		fail("%s: no smart inject command support",
				ndctl_dimm_get_devname(dimm));
		return -EOPNOTSUPP;
	}
	rc = apply(cmd, o);
	if (rc) {
		fail("%s: smart inject %s cmd invalid: %s (%d)",
				ndctl_dimm_get_devname(dimm), what, strerror(-rc), rc);
		goto out;
	}
	rc = ndctl_cmd_submit(cmd);
	if (rc < 0)
		fail("%s: smart inject %s command failed: %s (%d)",
				ndctl_dimm_get_devname(dimm), what, strerror(-rc), rc);
out:
	ndctl_cmd_unref(cmd);
	return rc < 0 ? rc : 0;
}

static int ap_mtemp(struct ndctl_cmd *c, struct smart_opts *o)
{
	return ndctl_cmd_smart_inject_media_temperature(c, !o->uninj[MT],
			o->uninj[MT] ? 0 : o->v[MT]);
}

static int ap_spares(struct ndctl_cmd *c, struct smart_opts *o)
{
	return ndctl_cmd_smart_inject_spares(c, !o->uninj[SP],
			o->uninj[SP] ? 0 : o->v[SP]);
}

static int ap_fatal(struct ndctl_cmd *c, struct smart_opts *o)
{
	return ndctl_cmd_smart_inject_fatal(c, !o->fatal_un);
}

static int ap_unsafe(struct ndctl_cmd *c, struct smart_opts *o)
{
	return ndctl_cmd_smart_inject_unsafe_shutdown(c, !o->unsafe_un);
}

static int inject(struct ndctl_dimm *dimm, struct smart_opts *o)
{
	const char *name = ndctl_dimm_get_devname(dimm);
	struct json_object *arr;
	int rc;

	rc = ndctl_dimm_smart_inject_supported(dimm);
	if (rc < 0) {
		fail("%s: smart injection not supported by %s", name,
				rc == -ENOTTY ? "ndctl" : rc == -EOPNOTSUPP ?
				"the kernel" : "either platform firmware or the kernel");
		return rc;
	}
	if (o->set) {
		rc = set_thresholds(dimm, o);
		if (rc)
			return rc;
	}
	if (o->val[MT] || o->uninj[MT]) {
		rc = inject_one(dimm, "media_temperature", ap_mtemp, o);
		if (rc && !o->all)
			return rc;
	}
	if (o->val[CT] || o->uninj[CT]) {
		/* the Intel family cannot inject a controller temperature */
		if (!o->all) {
			fail("%s: smart inject ctrl_temperature not supported", name);
			return -EOPNOTSUPP;
		}
	}
	if (o->val[SP] || o->uninj[SP]) {
		rc = inject_one(dimm, "spares", ap_spares, o);
		if (rc && !o->all)
			return rc;
	}
	if (o->fatal || o->fatal_un) {
		rc = inject_one(dimm, "fatal", ap_fatal, o);
		if (rc && !o->all)
			return rc;
	}
	if (o->unsafe || o->unsafe_un) {
		rc = inject_one(dimm, "unsafe_shutdown", ap_unsafe, o);
		if (rc && !o->all)
			return rc;
	}
	arr = json_object_new_array();
	if (arr) {
		json_object_array_add(arr, dimm_to_json(dimm, o->human, true));
		json_print(arr);
		json_object_put(arr);
	}
	return 0;
}

/* long options by their whole name only: no abbreviation */
static bool exact_long_options(int argc, char **argv, const struct option *lo)
{
	int i, k;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		size_t n;

		if (strncmp(argv[i], "--", 2))
			continue;
		n = strcspn(argv[i] + 2, "=");
		for (k = 0; lo[k].name; k++)
			if (strlen(lo[k].name) == n &&
			    !strncmp(lo[k].name, argv[i] + 2, n))
				break;
		if (!lo[k].name)
			return false;
	}
	return true;
}

int cmd_inject_smart(int argc, char **argv)
{
	enum { O_MALARM = 256, O_MUN, O_CALARM, O_CUN, O_SALARM, O_SUN, O_UUN };
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "media-temperature", required_argument, NULL, 'm' },
		{ "media-temperature-threshold", required_argument, NULL, 'M' },
		{ "media-temperature-alarm", required_argument, NULL, O_MALARM },
		{ "media-temperature-uninject", no_argument, NULL, O_MUN },
		{ "ctrl-temperature", required_argument, NULL, 'c' },
		{ "ctrl-temperature-threshold", required_argument, NULL, 'C' },
		{ "ctrl-temperature-alarm", required_argument, NULL, O_CALARM },
		{ "ctrl-temperature-uninject", no_argument, NULL, O_CUN },
		{ "spares", required_argument, NULL, 's' },
		{ "spares-threshold", required_argument, NULL, 'S' },
		{ "spares-alarm", required_argument, NULL, O_SALARM },
		{ "spares-uninject", no_argument, NULL, O_SUN },
		{ "fatal", no_argument, NULL, 'f' },
		{ "fatal-uninject", no_argument, NULL, 'F' },
		{ "unsafe-shutdown", no_argument, NULL, 'U' },
		{ "unsafe-shutdown-uninject", no_argument, NULL, O_UUN },
		{ "uninject-all", no_argument, NULL, 'N' },
		{ "human", no_argument, NULL, 'u' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct smart_opts o;
	const char *busf = NULL;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	int c, rc, found = 0;

	memset(&o, 0, sizeof(o));
	if (!exact_long_options(argc, argv, lopts))
		return print_help(&inject_smart_help, stderr);
	optind = 1;
	while ((c = getopt_long(argc, argv, "b:m:M:c:C:s:S:fFUNuvh", lopts,
					NULL)) != -1) {
		switch (c) {
		case 'b': busf = optarg; break;
		case 'm': o.val[MT] = optarg; break;
		case 'M': o.thr[MT] = optarg; break;
		case O_MALARM: o.alarm[MT] = optarg; break;
		case O_MUN: o.uninj[MT] = true; break;
		case 'c': o.val[CT] = optarg; break;
		case 'C': o.thr[CT] = optarg; break;
		case O_CALARM: o.alarm[CT] = optarg; break;
		case O_CUN: o.uninj[CT] = true; break;
		case 's': o.val[SP] = optarg; break;
		case 'S': o.thr[SP] = optarg; break;
		case O_SALARM: o.alarm[SP] = optarg; break;
		case O_SUN: o.uninj[SP] = true; break;
		case 'f': o.fatal = true; break;
		case 'F': o.fatal_un = true; break;
		case 'U': o.unsafe = true; break;
		case O_UUN: o.unsafe_un = true; break;
		case 'N': o.all = true; break;
		case 'u': o.human = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&inject_smart_help, stdout);
		default: return print_help(&inject_smart_help, stderr);
		}
	}
	if (optind >= argc) {
		fail("specify a DIMM");
		return EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fail("unknown extra parameter \"%s\"", argv[optind + 1]);
		return EXIT_USAGE;
	}
	rc = setup(&o);
	if (rc)
		return rc;
	if (cli_ctx_new(&ctx))
		return -ENOMEM;
	rc = 0;
	ndctl_bus_foreach(ctx, bus) {
		if (!match_bus(bus, busf))
			continue;
		ndctl_dimm_foreach(bus, dimm) {
			if (!match_dimm(dimm, argv[optind]))
				continue;
			found++;
			rc = inject(dimm, &o);
			goto done;
		}
	}
done:
	ndctl_unref(ctx);
	if (!found) {
		fail("no DIMM %s", argv[optind]);
		return -ENXIO;
	}
	return rc;
}
