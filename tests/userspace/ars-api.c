// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl-ars-api: libndctl's ARS calls on a live bus (guest tool of
 * tests/userspace/guest/media.sh; built into build/guest-tools/).
 *
 *   ndctl-ars-api PROVIDER REGION scrub
 *	ARS Cap, Start (persistent) and Status of REGION's range, Status
 *	polled while in progress; prints "cap max_ars_out clear_unit",
 *	then one "record ADDR LEN" line per record (addresses relative to
 *	the region's start), then "overflow N"
 *   ndctl-ars-api PROVIDER REGION clear OFFSET LEN
 *	ARS Cap of the region, Clear Error of [start + OFFSET, +LEN);
 *	prints "cleared N"
 *   ndctl-ars-api PROVIDER REGION badclear OFFSET LEN
 *	expects ndctl_bus_cmd_new_clear_error() to refuse the range (NULL,
 *	nothing sent); prints "refused"
 *
 * Exit 0 on success, 1 on a failed call (message on stderr), 2 usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ndctl/libndctl.h>

static struct ndctl_region *find_region(struct ndctl_ctx *ctx,
		const char *provider, const char *name)
{
	struct ndctl_region *region;
	struct ndctl_bus *bus = ndctl_bus_get_by_provider(ctx, provider);

	if (!bus)
		return NULL;
	ndctl_region_foreach(bus, region)
		if (!strcmp(ndctl_region_get_devname(region), name))
			return region;
	return NULL;
}

static struct ndctl_cmd *cap_of(struct ndctl_region *region)
{
	struct ndctl_bus *bus = ndctl_region_get_bus(region);
	struct ndctl_cmd *cap;
	struct ndctl_range range;
	int rc;

	cap = ndctl_bus_cmd_new_ars_cap(bus, ndctl_region_get_resource(region),
			ndctl_region_get_size(region));
	if (!cap) {
		fprintf(stderr, "ars_cap: no command\n");
		return NULL;
	}
	rc = ndctl_cmd_submit(cap);
	if (rc < 0 || ndctl_cmd_ars_cap_get_size(cap) == 0) {
		fprintf(stderr, "ars_cap: rc %d firmware status %#x\n", rc,
				ndctl_cmd_get_firmware_status(cap));
		ndctl_cmd_unref(cap);
		return NULL;
	}
	if (ndctl_cmd_ars_cap_get_range(cap, &range)
			|| range.address != ndctl_region_get_resource(region)
			|| range.length != ndctl_region_get_size(region)) {
		fprintf(stderr, "ars_cap: range not the one asked\n");
		ndctl_cmd_unref(cap);
		return NULL;
	}
	return cap;
}

static int scrub(struct ndctl_region *region)
{
	unsigned long long base = ndctl_region_get_resource(region);
	struct ndctl_cmd *cap, *start, *st = NULL;
	unsigned int i, n;
	int rc, tries;

	cap = cap_of(region);
	if (!cap)
		return 1;
	printf("cap %u %u\n", ndctl_cmd_ars_cap_get_size(cap),
			ndctl_cmd_ars_cap_get_clear_unit(cap));
	start = ndctl_bus_cmd_new_ars_start(cap, ND_ARS_PERSISTENT);
	if (!start) {
		fprintf(stderr, "ars_start: no command\n");
		return 1;
	}
	/* busy while the kernel's own scrub runs: try again */
	for (tries = 0; tries < 100; tries++) {
		rc = ndctl_cmd_submit(start);
		if (rc == -EBUSY || (rc >= 0 &&
				(ndctl_cmd_get_firmware_status(start) & 0xffff) == 6)) {
			usleep(100000);
			continue;
		}
		break;
		usleep(100000);
	}
	if (rc < 0 || (ndctl_cmd_get_firmware_status(start) & 0xffff)) {
		fprintf(stderr, "ars_start: rc %d firmware status %#x\n", rc,
				ndctl_cmd_get_firmware_status(start));
		return 1;
	}
	for (tries = 0; tries < 300; tries++) {
		ndctl_cmd_unref(st);
		st = ndctl_bus_cmd_new_ars_status(cap);
		if (!st) {
			fprintf(stderr, "ars_status: no command\n");
			return 1;
		}
		rc = ndctl_cmd_submit(st);
		if (rc < 0) {
			fprintf(stderr, "ars_status: rc %d\n", rc);
			return 1;
		}
		if (!ndctl_cmd_ars_in_progress(st))
			break;
		usleep(100000);
	}
	n = ndctl_cmd_ars_num_records(st);
	for (i = 0; i < n; i++)
		printf("record %#llx %#llx\n",
				ndctl_cmd_ars_get_record_addr(st, i) - base,
				ndctl_cmd_ars_get_record_len(st, i));
	/* past the last record: 0, never a read outside the output */
	if (ndctl_cmd_ars_get_record_len(st, n) || ndctl_cmd_ars_get_record_addr(st, n)) {
		fprintf(stderr, "record %u past the end is not 0\n", n);
		return 1;
	}
	printf("overflow %d\n", ndctl_cmd_ars_stat_get_flag_overflow(st));
	ndctl_cmd_unref(st);
	ndctl_cmd_unref(start);
	ndctl_cmd_unref(cap);
	return 0;
}

static int clear(struct ndctl_region *region, unsigned long long off,
		unsigned long long len, bool expect_refusal)
{
	unsigned long long base = ndctl_region_get_resource(region);
	struct ndctl_cmd *cap, *clr;
	int rc;

	cap = cap_of(region);
	if (!cap)
		return 1;
	clr = ndctl_bus_cmd_new_clear_error(base + off, len, cap);
	if (expect_refusal) {
		ndctl_cmd_unref(cap);
		if (clr) {
			fprintf(stderr, "clear_error of [%#llx, +%#llx) not refused\n",
					off, len);
			ndctl_cmd_unref(clr);
			return 1;
		}
		printf("refused\n");
		return 0;
	}
	if (!clr) {
		fprintf(stderr, "clear_error: no command\n");
		ndctl_cmd_unref(cap);
		return 1;
	}
	rc = ndctl_cmd_submit(clr);
	if (rc < 0) {
		fprintf(stderr, "clear_error: rc %d\n", rc);
		return 1;
	}
	printf("cleared %llu\n", ndctl_cmd_clear_error_get_cleared(clr));
	ndctl_cmd_unref(clr);
	ndctl_cmd_unref(cap);
	return 0;
}

int main(int argc, char **argv)
{
	struct ndctl_region *region;
	struct ndctl_ctx *ctx;
	int rc;

	if (argc < 4 || (strcmp(argv[3], "scrub") && argc != 6)) {
		fprintf(stderr, "usage: %s PROVIDER REGION scrub|clear|badclear [OFFSET LEN]\n",
				argv[0]);
		return 2;
	}
	if (ndctl_new(&ctx))
		return 1;
	region = find_region(ctx, argv[1], argv[2]);
	if (!region) {
		fprintf(stderr, "%s: no %s\n", argv[1], argv[2]);
		ndctl_unref(ctx);
		return 1;
	}
	if (!strcmp(argv[3], "scrub"))
		rc = scrub(region);
	else if (!strcmp(argv[3], "clear") || !strcmp(argv[3], "badclear"))
		rc = clear(region, strtoull(argv[4], NULL, 0),
				strtoull(argv[5], NULL, 0), argv[3][0] == 'b');
	else
		rc = 2;
	ndctl_unref(ctx);
	return rc;
}
