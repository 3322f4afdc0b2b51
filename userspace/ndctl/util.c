// SPDX-License-Identifier: GPL-2.0-or-later
/* ndctl CLI helpers: errors, sizes, filters, JSON */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "util.h"

int verbose;
const char *cmd_name = "ndctl";
const char *prog_name = "ndctl";

void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s %s: error: ", prog_name, cmd_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int cli_ctx_new(struct ndctl_ctx **ctx)
{
	int rc = ndctl_new(ctx);

	if (rc) {
		fail("cannot create library context: %s", strerror(-rc));
		return rc;
	}
	/* the CLI reports failures itself; library lines only with -v */
	if (!getenv("NDCTL_LOG"))
		ndctl_set_log_priority(*ctx, verbose ? LOG_DEBUG : LOG_CRIT);
	return 0;
}

int parse_size(const char *s, unsigned long long *out)
{
	unsigned long long v, mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		mult = 1ULL << 10;
		end++;
		break;
	case 'M':
		mult = 1ULL << 20;
		end++;
		break;
	case 'G':
		mult = 1ULL << 30;
		end++;
		break;
	case 'T':
		mult = 1ULL << 40;
		end++;
		break;
	}
	if (mult > 1 && (*end == 'i' || *end == 'I'))
		end++;
	if (mult > 1 && (*end == 'b' || *end == 'B'))
		end++;
	if (*end)
		return -1;
	if (v && mult > ULLONG_MAX / v)
		return -1;
	*out = v * mult;
	return 0;
}

static bool is_all(const char *filter)
{
	return !filter || !strcmp(filter, "all");
}

/* "<prefix>N", "N" or a literal string */
static bool match_id(const char *filter, const char *prefix, unsigned int id,
		const char *devname)
{
	char *end;
	unsigned long v;

	if (is_all(filter))
		return true;
	if (devname && !strcmp(filter, devname))
		return true;
	if (!isdigit((unsigned char)filter[0]))
		return false;
	v = strtoul(filter, &end, 10);
	(void)prefix;
	return !*end && v == id;
}

bool match_bus(struct ndctl_bus *bus, const char *filter)
{
	if (is_all(filter))
		return true;
	if (!strcmp(filter, ndctl_bus_get_provider(bus)))
		return true;
	return match_id(filter, "ndbus", ndctl_bus_get_id(bus),
			ndctl_bus_get_devname(bus));
}

bool match_region(struct ndctl_region *region, const char *filter)
{
	return match_id(filter, "region", ndctl_region_get_id(region),
			ndctl_region_get_devname(region));
}

bool match_dimm(struct ndctl_dimm *dimm, const char *filter)
{
	return match_id(filter, "nmem", ndctl_dimm_get_id(dimm),
			ndctl_dimm_get_devname(dimm));
}

bool match_namespace(struct ndctl_namespace *ndns, const char *filter)
{
	if (is_all(filter))
		return true;
	return !strcmp(filter, ndctl_namespace_get_devname(ndns));
}

bool region_has_dimm(struct ndctl_region *region, const char *dimm_filter)
{
	struct ndctl_mapping *m;

	if (is_all(dimm_filter))
		return true;
	ndctl_mapping_foreach(region, m) {
		struct ndctl_dimm *dimm = ndctl_mapping_get_dimm(m);

		if (dimm && match_dimm(dimm, dimm_filter))
			return true;
	}
	return false;
}

/* "W.FF": @v in units of @unit to two decimals, halves rounded up (76.1) */
static int fixed2(char *buf, size_t len, unsigned long long v, unsigned long long unit)
{
	unsigned long long whole = v / unit;
	unsigned long long frac = ((v % unit) * 100 + unit / 2) / unit;

	if (frac >= 100) {
		whole++;
		frac -= 100;
	}
	return snprintf(buf, len, "%llu.%02llu", whole, frac);
}

/*
 * Human sizes as ndctl 76.1 prints them: small values stay numbers; MiB up
 * to 2 GiB, GiB up to 2 TiB, TiB beyond, each with the decimal unit.  The
 * rounding is decimal, half up (2176 MiB is "2.13 GiB"), not printf's
 * binary round-half-even.
 */
struct json_object *json_size(unsigned long long v, bool human)
{
	static const struct {
		unsigned long long limit, bin, dec;
		const char *bu, *du;
	} units[] = {
		{ 2ULL << 30, 1ULL << 20, 1000000ULL, "MiB", "MB" },
		{ 2ULL << 40, 1ULL << 30, 1000000000ULL, "GiB", "GB" },
		{ ULLONG_MAX, 1ULL << 40, 1000000000000ULL, "TiB", "TB" },
	};
	char b[32], d[32], buf[80];
	size_t i;

	if (!human || v < 5120000ULL) {
		if (v > INT64_MAX)
			return json_object_new_uint64(v);
		return json_object_new_int64(v);
	}
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (v < units[i].limit || i == 2)
			break;
	fixed2(b, sizeof(b), v, units[i].bin);
	fixed2(d, sizeof(d), v, units[i].dec);
	snprintf(buf, sizeof(buf), "%s %s (%s %s)", b, units[i].bu, d, units[i].du);
	return json_object_new_string(buf);
}

struct json_object *json_hex(unsigned long long v, bool human)
{
	char buf[32];

	if (!human) {
		if (v > INT64_MAX)
			return json_object_new_uint64(v);
		return json_object_new_int64(v);
	}
	snprintf(buf, sizeof(buf), "%#llx", v);
	return json_object_new_string(buf);
}

void json_print(struct json_object *j)
{
	printf("%s\n", json_object_to_json_string_ext(j,
				JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE));
}

int print_help(const struct cmd_help *h, FILE *f)
{
	const char *usage = h->usage;

	if (f != stdout) {
		fail("invalid option or missing argument (see '%s %s --help')",
				prog_name, cmd_name);
		return EXIT_USAGE;
	}
	/* the usage strings say "ndctl ...": name the command as invoked */
	if (!strncmp(usage, "ndctl ", 6))
		usage += 6;
	fprintf(f, "\n usage: %s %s\n\n%s\n", prog_name, usage, h->options);
	return 0;
}

bool opt_allowed(const char *short_opts, int c)
{
	return c > 0 && c != ':' && strchr(short_opts, c);
}

/*
 * Every namespace on a bus and region matching @bus_f and @region_f whose
 * name matches @target, collected before a command changes any (enabling
 * and disabling rescan a region's children).  Returns how many are in
 * *@list (free() it), or -ENOMEM.
 */
int collect_namespaces(struct ndctl_ctx *ctx, const char *bus_f,
		const char *region_f, const char *target,
		struct ndctl_namespace ***list)
{
	struct ndctl_namespace *ndns, **v = NULL;
	struct ndctl_region *region;
	struct ndctl_bus *bus;
	int n = 0;

	ndctl_bus_foreach(ctx, bus) {
		if (!match_bus(bus, bus_f))
			continue;
		ndctl_region_foreach(bus, region) {
			if (!match_region(region, region_f))
				continue;
			ndctl_namespace_foreach(region, ndns) {
				struct ndctl_namespace **nv;

				if (!match_namespace(ndns, target))
					continue;
				nv = realloc(v, (n + 1) * sizeof(*v));
				if (!nv) {
					free(v);
					return -ENOMEM;
				}
				v = nv;
				v[n++] = ndns;
			}
		}
	}
	*list = v;
	return n;
}
