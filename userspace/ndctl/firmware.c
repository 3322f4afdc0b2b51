// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl update-firmware <dimm>... and ndctl activate-firmware [<bus>...]
 * (docs/firmware.md), on libndctl's firmware.c, with ndctl 76.1's options:
 *
 * update-firmware -f IMAGE: the image is read whole and checked against
 * each DIMM's firmware info (empty, larger than the DIMM's storage: an
 * error before anything is sent), then start, send in pieces of the
 * DIMM's max_send_len, finish and query until the DIMM has verified it;
 * --verify reads the info again and checks that the staged version is
 * the one the query reported.  The DIMM is then armed for activation
 * (when the bus can activate at runtime) unless --no-arm or --disarm.
 * Without -f, --arm / --disarm only arm or disarm.  An arm that trips
 * the bus's "overflow" is undone unless --force.  Prints the DIMMs' JSON
 * (as list -DF) and "updated N nmem(s).".
 *
 * activate-firmware: activates the armed DIMMs of each bus: "quiesce"
 * when the bus's method is suspend, "live" when it is live or --force;
 * --no-idle sets nfit/firmware_activate_noidle around it, --dry-run does
 * everything but the activation.  Prints the buses' JSON (as list -BFDu).
 *
 * Exit status, as 76.1's: update-firmware 0, or 1 when a DIMM failed (a
 * DIMM name that matches nothing is only noted); activate-firmware 0 or
 * -errno (256 - errno in the shell: 250 when nothing is armed);
 * EXIT_USAGE for bad options.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "filter.h"
#include "firmware.h"
#include "health.h"
#include "util.h"

static void add(struct json_object *o, const char *key, struct json_object *v)
{
	if (v)
		json_object_object_add(o, key, v);
}

struct json_object *dimm_firmware_json(struct ndctl_dimm *dimm, bool human)
{
	struct ndctl_fw_info info;
	struct json_object *j;
	int state, result, rc;

	rc = ndctl_dimm_fw_get_info(dimm, &info);
	/* no firmware-info function: no firmware object (76.1) */
	if (rc == -EOPNOTSUPP)
		return NULL;
	j = json_object_new_object();
	if (!j)
		return NULL;
	if (rc != NDCTL_FW_SUCCESS) {
		/* 76.1: all ones (18446744073709551615) */
		add(j, "current_version", json_hex(ULLONG_MAX, human));
		return j;
	}
	add(j, "current_version", json_hex(info.run_version, human));
	add(j, "can_update", json_object_new_boolean(
				ndctl_dimm_fw_update_supported(dimm) == 0));
	/* 76.1: the activation fields only with an image staged */
	if (!info.next_version)
		return j;
	add(j, "next_version", json_hex(info.next_version, human));
	state = ndctl_dimm_get_fw_activate_state(dimm);
	if (state == NDCTL_FWA_IDLE || state == NDCTL_FWA_ARMED ||
	    state == NDCTL_FWA_BUSY)
		add(j, "activate_state",
				json_object_new_string(ndctl_fwa_state_str(state)));
	/*
	 * 76.1: the last activation's result hints whether only a power
	 * cycle runs the staged image: a failed or unknown result
	 */
	result = ndctl_dimm_get_fw_activate_result(dimm);
	if (result != NDCTL_FWA_RESULT_NONE &&
	    result != NDCTL_FWA_RESULT_SUCCESS &&
	    result != NDCTL_FWA_RESULT_NOTSTAGED)
		add(j, "need_powercycle", json_object_new_boolean(1));
	return j;
}

static bool bus_can_update(struct ndctl_bus *bus)
{
	struct ndctl_dimm *dimm;

	ndctl_dimm_foreach(bus, dimm)
		if (ndctl_dimm_fw_update_supported(dimm) == 0)
			return true;
	return false;
}

struct json_object *bus_firmware_json(struct ndctl_bus *bus)
{
	static const char *const methods[] = {
		[NDCTL_FWA_METHOD_RESET] = "reset",
		[NDCTL_FWA_METHOD_SUSPEND] = "suspend",
		[NDCTL_FWA_METHOD_LIVE] = "live",
	};
	struct json_object *j;
	int m, state;

	if (!bus_can_update(bus))
		return NULL;
	j = json_object_new_object();
	if (!j)
		return NULL;
	m = ndctl_bus_get_fw_activate_method(bus);
	if (m >= 0 && m <= NDCTL_FWA_METHOD_LIVE)
		add(j, "activate_method", json_object_new_string(methods[m]));
	/* 76.1 shows idle, armed and overflow; busy is left out */
	state = ndctl_bus_get_fw_activate_state(bus);
	if (state == NDCTL_FWA_IDLE || state == NDCTL_FWA_ARMED ||
	    state == NDCTL_FWA_ARM_OVERFLOW)
		add(j, "activate_state",
				json_object_new_string(ndctl_fwa_state_str(state)));
	return j;
}

static struct json_object *dimm_json(struct ndctl_dimm *dimm, bool human)
{
	struct json_object *j = dimm_to_json(dimm, human, false);

	if (j)
		add(j, "firmware", dimm_firmware_json(dimm, human));
	return j;
}

/* ---------------------------------------------------------- update */

struct fw_image {
	const char *path;
	unsigned char *data;
	size_t len;
};

/* the whole image in memory; 0 or -errno with a message */
static int image_load(struct fw_image *img)
{
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, rc = 0;

	fd = open(img->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		fail("firmware image %s: %s", img->path, strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) < 0) {
		rc = -errno;
		fail("firmware image %s: %s", img->path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		fail("firmware image %s: not a regular file", img->path);
		goto out;
	}
	if (st.st_size == 0) {
		rc = -ENODATA;
		fail("firmware image %s is empty", img->path);
		goto out;
	}
	/* no DIMM takes more than 4 GiB (32-bit offsets) */
	if ((unsigned long long)st.st_size > UINT32_MAX) {
		rc = -EFBIG;
		fail("firmware image %s: %lld bytes, more than any DIMM takes",
				img->path, (long long)st.st_size);
		goto out;
	}
	img->len = st.st_size;
	img->data = malloc(img->len);
	if (!img->data) {
		rc = -ENOMEM;
		fail("firmware image %s: out of memory", img->path);
		goto out;
	}
	while (got < img->len) {
		n = read(fd, img->data + got, img->len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			fail("firmware image %s: read: %s", img->path,
					n < 0 ? strerror(errno) : "file shrank");
			goto out;
		}
		got += n;
	}
out:
	close(fd);
	return rc;
}

struct fw_opts {
	const char *image;
	const char *bus;
	bool force, verify, arm, disarm, arm_given, no_arm;
};

static void sleep_us(unsigned long long us)
{
	struct timespec ts = {
		.tv_sec = us / 1000000,
		.tv_nsec = (us % 1000000) * 1000,
	};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

/* an update step failed: print why (a status or an errno) */
static int step_failed(struct ndctl_dimm *dimm, const char *step, int rc)
{
	fprintf(stderr, "%s: update firmware: %s: %s\n",
			ndctl_dimm_get_devname(dimm), step,
			ndctl_fw_status_str(rc));
	return rc < 0 ? rc : -EIO;
}

/* wait for the finished image's verification; 0 and the version, or rc */
static int fw_wait_verified(struct ndctl_dimm *dimm,
		const struct ndctl_fw_info *info, unsigned int context,
		unsigned long long *version)
{
	unsigned long long interval = info->query_interval_us;
	unsigned long long waited = 0, limit = info->max_query_time_us;
	int rc;

	if (interval < 1000)
		interval = 1000;
	if (interval > 1000000)
		interval = 1000000;
	/* no limit from the DIMM: give it a minute */
	if (!limit)
		limit = 60000000ULL;
	/* and a few intervals over what it promised */
	limit += 4 * interval;
	for (;;) {
		rc = ndctl_dimm_fw_query(dimm, context, version);
		if (rc != NDCTL_FW_VERIFYING)
			break;
		if (waited >= limit) {
			fprintf(stderr, "%s: update firmware: still verifying after %llu ms\n",
					ndctl_dimm_get_devname(dimm), waited / 1000);
			return -ETIMEDOUT;
		}
		sleep_us(interval);
		waited += interval;
	}
	if (rc != NDCTL_FW_SUCCESS)
		return step_failed(dimm, "query", rc);
	return 0;
}

static int fw_arm(struct ndctl_dimm *dimm, const struct fw_opts *o)
{
	struct ndctl_bus *bus = ndctl_dimm_get_bus(dimm);
	const char *dev = ndctl_dimm_get_devname(dimm);
	int rc, was = ndctl_dimm_get_fw_activate_state(dimm);

	rc = ndctl_dimm_fw_activate_arm(dimm, true);
	if (rc) {
		fprintf(stderr, "%s: update firmware: arm: %s\n", dev, strerror(-rc));
		return rc;
	}
	/* arming it pushed the activation time over the platform's maximum */
	if (was != NDCTL_FWA_ARMED && !o->force &&
	    ndctl_bus_get_fw_activate_state(bus) == NDCTL_FWA_ARM_OVERFLOW) {
		ndctl_dimm_fw_activate_arm(dimm, false);
		fprintf(stderr, "%s: update firmware: arm aborted, tripped overflow (--force to keep it)\n",
				dev);
		return -EOVERFLOW;
	}
	return 0;
}

static int fw_update_one(struct ndctl_dimm *dimm, const struct fw_opts *o,
		const struct fw_image *img)
{
	const char *dev = ndctl_dimm_get_devname(dimm);
	struct ndctl_bus *bus = ndctl_dimm_get_bus(dimm);
	struct ndctl_fw_info info, after;
	unsigned long long version = 0;
	unsigned int context, off, len;
	const char *scrub;
	int rc;

	rc = ndctl_dimm_fw_update_supported(dimm);
	if (rc) {
		fprintf(stderr, "%s: firmware update not supported\n", dev);
		return rc;
	}
	rc = ndctl_dimm_fw_get_info(dimm, &info);
	if (rc)
		return step_failed(dimm, "get firmware info", rc);
	/* checks before anything is sent */
	rc = ndctl_fw_image_check(&info, img->len);
	if (rc == -EFBIG) {
		fprintf(stderr, "%s: firmware image %s: %zu bytes, the DIMM holds at most %u\n",
				dev, img->path, img->len, info.storage_size);
		return rc;
	} else if (rc) {
		fprintf(stderr, "%s: firmware image %s: %s\n", dev, img->path,
				rc == -ENODATA ? "empty" : "the DIMM reports no send size");
		return rc;
	}
	scrub = ndctl_bus_get_scrub_state(bus);
	if (!o->force && scrub && !strcmp(scrub, "active")) {
		fprintf(stderr, "%s: an address range scrub is running on %s (wait-scrub, or --force)\n",
				dev, ndctl_bus_get_devname(bus));
		return -EBUSY;
	}

	rc = ndctl_dimm_fw_start(dimm, &context);
	if (rc)
		return step_failed(dimm, "start", rc);
	for (off = 0; off < img->len; off += len) {
		len = img->len - off;
		if (len > info.max_send_len)
			len = info.max_send_len;
		rc = ndctl_dimm_fw_send(dimm, context, off, len, img->data + off);
		if (rc) {
			step_failed(dimm, "send", rc);
			ndctl_dimm_fw_abort(dimm, context);
			return rc < 0 ? rc : -EIO;
		}
	}
	rc = ndctl_dimm_fw_finish(dimm, context);
	if (rc)
		return step_failed(dimm, "finish", rc);
	rc = fw_wait_verified(dimm, &info, context, &version);
	if (rc)
		return rc;
	if (verbose)
		fprintf(stderr, "%s: staged version %#llx\n", dev, version);
	if (o->verify) {
		rc = ndctl_dimm_fw_get_info(dimm, &after);
		if (rc)
			return step_failed(dimm, "verify: get firmware info", rc);
		if (after.next_version != version) {
			fprintf(stderr, "%s: update firmware: verify: staged version %#llx, the query said %#llx\n",
					dev, after.next_version, version);
			return -EIO;
		}
	}
	if (o->disarm)
		return ndctl_dimm_fw_activate_arm(dimm, false);
	/* armed by default, where the bus can activate at runtime */
	if (o->no_arm || ndctl_bus_get_fw_activate_method(bus) == NDCTL_FWA_METHOD_RESET ||
	    ndctl_dimm_get_fw_activate_state(dimm) < 0)
		return 0;
	return fw_arm(dimm, o);
}

static const struct cmd_help update_help = {
	"ndctl update-firmware <nmem0> [<nmem1>..<nmemN>] [<options>]",
	"    -b, --bus <bus-id>    limit the DIMMs to this bus ('all')\n"
	"    -f, --firmware <file> the firmware image to stage\n"
	"    -i, --force           ignore a running scrub; keep an arm that overflows\n"
	"    -A, --arm             arm for activation (the default after -f)\n"
	"        --no-arm          do not arm after staging\n"
	"    -D, --disarm          disarm (after staging, with -f)\n"
	"        --verify          check the staged version after the update\n"
	"    -v, --verbose         turn on debug\n"
	"    -h, --help            show this help\n",
};

int cmd_update_firmware(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "bus", required_argument, NULL, 'b' },
		{ "firmware", required_argument, NULL, 'f' },
		{ "force", no_argument, NULL, 'i' },
		{ "arm", no_argument, NULL, 'A' },
		{ "no-arm", no_argument, NULL, 'N' },
		{ "disarm", no_argument, NULL, 'D' },
		{ "verify", no_argument, NULL, 'V' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fw_image img = { 0 };
	struct fw_opts o = { 0 };
	struct json_object *jdimms;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	struct ndctl_dimm *dimm;
	int c, i, rc, first_rc = 0, done = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "b:f:iADvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'b': o.bus = optarg; break;
		case 'f': o.image = optarg; break;
		case 'i': o.force = true; break;
		case 'A': o.arm = o.arm_given = true; break;
		case 'N': o.no_arm = true; break;
		case 'D': o.disarm = true; break;
		case 'V': o.verify = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&update_help, stdout);
		default: return print_help(&update_help, stderr);
		}
	}
	if (optind >= argc) {
		fail("at least one DIMM (or 'all') is required");
		return EXIT_USAGE;
	}
	if ((o.arm && o.disarm) || (o.arm && o.no_arm)) {
		fail("--arm with --%s", o.disarm ? "disarm" : "no-arm");
		return EXIT_USAGE;
	}
	if (!o.image && !o.arm && !o.disarm) {
		fail("a firmware image (-f) or --arm / --disarm is required");
		return EXIT_USAGE;
	}
	if (o.verify && !o.image) {
		fail("--verify checks an update: it needs -f");
		return EXIT_USAGE;
	}
	/* the image is checked once, before any DIMM is touched */
	if (o.image) {
		img.path = o.image;
		rc = image_load(&img);
		if (rc) {
			free(img.data);
			return 1;
		}
	}
	if (cli_ctx_new(&ctx)) {
		free(img.data);
		return 1;
	}
	jdimms = json_object_new_array();
	for (i = optind; i < argc; i++) {
		int found = 0;

		ndctl_bus_foreach(ctx, bus) {
			if (!filter_bus(bus, o.bus))
				continue;
			ndctl_dimm_foreach(bus, dimm) {
				if (!match_dimm(dimm, argv[i]))
					continue;
				/* "all": the DIMMs that can, quietly */
				if (!strcmp(argv[i], "all") &&
				    ndctl_dimm_fw_update_supported(dimm))
					continue;
				found++;
				if (o.image)
					rc = fw_update_one(dimm, &o, &img);
				else if (o.arm)
					rc = fw_arm(dimm, &o);
				else
					rc = ndctl_dimm_fw_activate_arm(dimm, false);
				if (rc && !o.image)
					fprintf(stderr, "%s: update firmware: %s: %s\n",
							ndctl_dimm_get_devname(dimm),
							o.arm ? "arm" : "disarm",
							strerror(-rc));
				if (rc) {
					if (!first_rc)
						first_rc = rc;
					continue;
				}
				done++;
				json_object_array_add(jdimms, dimm_json(dimm, false));
			}
		}
		/* 76.1: not an error, the count says it */
		if (!found)
			note("%s: no such DIMM%s", argv[i],
					o.bus ? " on that bus" : "");
	}
	if (json_object_array_length(jdimms))
		json_print(jdimms);
	json_object_put(jdimms);
	fprintf(stderr, "updated %d nmem%s.\n", done, done == 1 ? "" : "s");
	ndctl_unref(ctx);
	free(img.data);
	return first_rc ? 1 : 0;
}

/* -------------------------------------------------------- activate */

struct act_opts {
	bool dry_run, force, idle;
};

static int activate_bus(struct ndctl_bus *bus, const struct act_opts *o,
		struct json_object *jbuses)
{
	const char *prov = ndctl_bus_get_provider(bus);
	const char *dev = ndctl_bus_get_devname(bus);
	struct json_object *jbus, *jdimms;
	struct ndctl_dimm *dimm;
	int method, noidle = -1, rc = 0;
	const char *scrub;

	if (!bus_can_update(bus)) {
		fprintf(stderr, "%s: %s: has no devices that support firmware update.\n",
				prov, dev);
		return -EOPNOTSUPP;
	}
	method = ndctl_bus_get_fw_activate_method(bus);
	if (method == NDCTL_FWA_METHOD_RESET) {
		fprintf(stderr, "%s: %s: requires a platform reset to activate firmware\n",
				prov, dev);
		return -EOPNOTSUPP;
	}
	if (!o->idle) {
		noidle = ndctl_bus_get_fw_activate_noidle(bus);
		rc = ndctl_bus_set_fw_activate_noidle(bus, true);
		if (rc)
			fprintf(stderr, "%s: %s: failed to disable platform idling: %s\n",
					prov, dev, strerror(-rc));
		rc = 0;
	}
	if (!o->dry_run) {
		rc = ndctl_bus_activate_firmware(bus,
				method == NDCTL_FWA_METHOD_LIVE || o->force);
		if (rc == -ENXIO)
			fprintf(stderr, "%s: %s: no DIMM is armed for activation\n",
					prov, dev);
		else if (rc == -EBUSY)
			fprintf(stderr, "%s: %s: an activation is already running\n",
					prov, dev);
		else if (rc)
			fprintf(stderr, "%s: %s: activate: %s\n", prov, dev,
					strerror(-rc));
	}
	if (noidle >= 0)
		ndctl_bus_set_fw_activate_noidle(bus, noidle > 0);
	if (rc)
		return rc;

	jbus = json_object_new_object();
	if (!jbus)
		return -ENOMEM;
	add(jbus, "provider", json_object_new_string(prov));
	add(jbus, "dev", json_object_new_string(dev));
	scrub = ndctl_bus_get_scrub_state(bus);
	if (scrub) {
		add(jbus, "scrub_state", json_object_new_string(scrub));
		add(jbus, "firmware", bus_firmware_json(bus));
	}
	jdimms = json_object_new_array();
	ndctl_dimm_foreach(bus, dimm)
		json_object_array_add(jdimms, dimm_json(dimm, true));
	if (json_object_array_length(jdimms))
		add(jbus, "dimms", jdimms);
	else
		json_object_put(jdimms);
	json_object_array_add(jbuses, jbus);
	return 0;
}

static const struct cmd_help activate_help = {
	"ndctl activate-firmware [<bus-id>...] [<options>]",
	"    -n, --dry-run         everything but the activation itself\n"
	"    -I, --idle            let the platform idle the devices (default)\n"
	"        --no-idle         ask the platform to leave idling to the OS\n"
	"    -f, --force           activate live even where the method is suspend\n"
	"    -v, --verbose         turn on debug\n"
	"    -h, --help            show this help\n",
};

int cmd_activate_firmware(int argc, char **argv)
{
	static const struct option lopts[] = {
		{ "dry-run", no_argument, NULL, 'n' },
		{ "idle", no_argument, NULL, 'I' },
		{ "no-idle", no_argument, NULL, 'X' },
		{ "force", no_argument, NULL, 'f' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct act_opts o = { .idle = true };
	struct json_object *jbuses;
	struct ndctl_ctx *ctx;
	struct ndctl_bus *bus;
	int c, i, rc, first_rc = 0, tried = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "nIfvh", lopts, NULL)) != -1) {
		switch (c) {
		case 'n': o.dry_run = true; break;
		case 'I': o.idle = true; break;
		case 'X': o.idle = false; break;
		case 'f': o.force = true; break;
		case 'v': verbose = 1; break;
		case 'h': return print_help(&activate_help, stdout);
		default: return print_help(&activate_help, stderr);
		}
	}
	if (cli_ctx_new(&ctx))
		return 1;
	jbuses = json_object_new_array();
	ndctl_bus_foreach(ctx, bus) {
		bool named = optind >= argc;

		for (i = optind; i < argc && !named; i++)
			named = match_bus(bus, argv[i]);
		if (!named)
			continue;
		tried++;
		rc = activate_bus(bus, &o, jbuses);
		/* "all" (or no bus named) skips the buses without firmware update */
		if (rc == -EOPNOTSUPP && (optind >= argc || !strcmp(argv[optind], "all")) &&
		    !bus_can_update(bus)) {
			tried--;
			continue;
		}
		if (rc && !first_rc)
			first_rc = rc;
	}
	if (!tried && !first_rc) {
		fail("no bus with firmware activation found");
		first_rc = -ENXIO;
	}
	if (json_object_array_length(jbuses))
		json_print(jbuses);
	json_object_put(jbuses);
	ndctl_unref(ctx);
	/* 76.1: the errno (the shell sees 256 - errno, 250: nothing armed) */
	return first_rc;
}
