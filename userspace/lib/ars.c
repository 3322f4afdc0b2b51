// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Bus commands of the Address Range Scrub family through /dev/ndctlN
 * (sysfs-abi §9.1: ND_CMD_ARS_CAP, ARS_START, ARS_STATUS, CLEAR_ERROR,
 * 6.1's envelopes of uapi <linux/ndctl.h>), and the kernel's scrub
 * through ndbusN/nfit/scrub (§2: write "1" to start one; reads "N" or
 * "N+" while one runs, poll(2)-able).
 *
 * Everything the firmware hands back is read as untrusted: a record
 * index is checked against the records the output actually holds, the
 * ranges a clear-error may cover are checked for wrap.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "private.h"

/* ARS Status output: flag "more records than the output holds" */
#define ND_ARS_STAT_FLAG_OVERFLOW	(1 << 0)
/* ARS Cap extended status: a scrub of this type is supported (= type bits) */
#define ARS_EXT(st)	((st) >> ARS_EXT_STATUS_SHIFT)
/* ARS Status extended status 1: a scrub is in progress */
#define ARS_EXT_IN_PROGRESS	1
/* a scrub wait without an interval re-reads nfit/scrub this often */
#define SCRUB_REREAD_MS		1000
/* the kernel caps an envelope at 4 MiB; ARS Status asks max_ars_out */
#define ND_BUS_ENVELOPE_MAX	(4U << 20)

static struct ndctl_ctx *bus_ctx(struct ndctl_cmd *cmd)
{
	return cmd->bus->ctx;
}

struct ndctl_cmd *nd_bus_cmd_alloc(struct ndctl_bus *bus, int type,
		unsigned int size)
{
	struct ndctl_cmd *cmd;

	if (!size || size > ND_BUS_ENVELOPE_MAX)
		return NULL;
	cmd = calloc(1, sizeof(*cmd));
	if (!cmd)
		return NULL;
	cmd->buf = calloc(1, size);
	if (!cmd->buf) {
		free(cmd);
		return NULL;
	}
	cmd->bus = bus;
	cmd->buf_size = size;
	cmd->refcount = 1;
	cmd->type = type;
	cmd->status = -EAGAIN;	/* not submitted */
	cmd->fw_status = UINT_MAX;
	return cmd;
}

/* open /dev/ndctlN and check it is the char device sysfs describes */
static int bus_open(struct ndctl_bus *bus)
{
	struct ndctl_ctx *ctx = bus->ctx;
	char name[32], path[PATH_MAX];
	struct stat st;
	int fd, rc;

	snprintf(name, sizeof(name), "ndctl%u", bus->id);
	rc = nd_path(path, sizeof(path), ctx->dev_root, name);
	if (rc)
		return rc;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		err(ctx, "%s: cannot open %s: %s", bus->devname, path,
				strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)
			|| major(st.st_rdev) != bus->major
			|| minor(st.st_rdev) != bus->minor) {
		err(ctx, "%s: %s is not char device %u:%u", bus->devname, path,
				bus->major, bus->minor);
		close(fd);
		return -ENXIO;
	}
	return fd;
}

/* where the command's firmware status word sits in its envelope */
static int fw_status_offset(struct ndctl_cmd *cmd)
{
	const struct nd_cmd_pkg *pkg = cmd->buf;

	switch (cmd->type) {
	case ND_CMD_ARS_CAP:
		return offsetof(struct nd_cmd_ars_cap, status);
	case ND_CMD_ARS_START:
		return offsetof(struct nd_cmd_ars_start, status);
	case ND_CMD_ARS_STATUS:
		return offsetof(struct nd_cmd_ars_status, status);
	case ND_CMD_CLEAR_ERROR:
		return offsetof(struct nd_cmd_clear_error, status);
	case ND_CMD_CALL:
		/* the NFIT family answers status first in the output */
		return sizeof(*pkg) + pkg->nd_size_in;
	}
	return -1;
}

static unsigned long ioctl_nr(int type)
{
	switch (type) {
	case ND_CMD_ARS_CAP:
		return ND_IOCTL_ARS_CAP;
	case ND_CMD_ARS_START:
		return ND_IOCTL_ARS_START;
	case ND_CMD_ARS_STATUS:
		return ND_IOCTL_ARS_STATUS;
	case ND_CMD_CLEAR_ERROR:
		return ND_IOCTL_CLEAR_ERROR;
	case ND_CMD_CALL:
		return ND_IOCTL_CALL;
	}
	return 0;
}

/*
 * The ioctl's return is the command's status: negative errno, 0, or a
 * positive count of output bytes the firmware left unfilled (usual for
 * ARS Status, whose buffer is max_ars_out).  The firmware status word
 * is read back from the envelope.
 */
int nd_bus_cmd_submit(struct ndctl_cmd *cmd)
{
	struct ndctl_ctx *ctx = bus_ctx(cmd);
	unsigned long nr = ioctl_nr(cmd->type);
	int fd, rc, off = fw_status_offset(cmd);
	unsigned int st;

	if (!nr || off < 0 || (unsigned int)off + sizeof(st) > cmd->buf_size) {
		err(ctx, "%s: command %d cannot be submitted", cmd->bus->devname,
				cmd->type);
		return -EINVAL;
	}
	fd = bus_open(cmd->bus);
	if (fd < 0) {
		cmd->status = fd;
		return fd;
	}
	rc = ioctl(fd, nr, cmd->buf);
	if (rc < 0) {
		rc = -errno;
		dbg(ctx, "%s: %s: %s", cmd->bus->devname,
				cmd->type == ND_CMD_CALL ? "cmd_call"
				: nd_cmd_name(cmd->type, false), strerror(errno));
	}
	close(fd);
	cmd->status = rc;
	if (rc >= 0) {
		memcpy(&st, (char *)cmd->buf + off, sizeof(st));
		cmd->fw_status = st;
	}
	dbg(ctx, "%s: command %d: rc %d firmware status %#x", cmd->bus->devname,
			cmd->type, rc, cmd->fw_status);
	return rc;
}

/* submitted, no errno, and firmware status (low 16 bits) success */
static bool cmd_ok(struct ndctl_cmd *cmd, int type)
{
	return cmd && cmd->bus && cmd->type == type && cmd->status >= 0
		&& cmd->fw_status != UINT_MAX
		&& (cmd->fw_status & ARS_STATUS_MASK) == 0;
}

/**
 * ndctl_bus_cmd_new_ars_cap - an ARS Capabilities command for a range
 * @bus: a bus offering ND_CMD_ARS_CAP
 * @address: system-physical start of the range
 * @len: its length in bytes
 *
 * Returns the command (unsubmitted) or NULL.
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_bus_cmd_new_ars_cap(struct ndctl_bus *bus,
		unsigned long long address, unsigned long long len)
{
	struct nd_cmd_ars_cap *cap;
	struct ndctl_cmd *cmd;

	if (!bus)
		return NULL;
	if (!ndctl_bus_is_cmd_supported(bus, ND_CMD_ARS_CAP)) {
		dbg(bus->ctx, "%s: unsupported cmd: ars_cap", bus->devname);
		return NULL;
	}
	cmd = nd_bus_cmd_alloc(bus, ND_CMD_ARS_CAP, sizeof(*cap));
	if (!cmd)
		return NULL;
	cap = cmd->buf;
	cap->address = address;
	cap->length = len;
	return cmd;
}

/**
 * ndctl_bus_cmd_new_ars_start - start a scrub of the range of a completed
 *	ARS Capabilities command
 * @ars_cap: submitted with success
 * @type: ND_ARS_PERSISTENT and/or ND_ARS_VOLATILE; the capabilities'
 *	extended status must offer it
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_bus_cmd_new_ars_start(
		struct ndctl_cmd *ars_cap, int type)
{
	struct nd_cmd_ars_start *start;
	struct nd_cmd_ars_cap *cap;
	struct ndctl_cmd *cmd;

	if (!cmd_ok(ars_cap, ND_CMD_ARS_CAP)) {
		if (ars_cap && ars_cap->bus)
			dbg(bus_ctx(ars_cap), "expected a completed ars_cap command");
		return NULL;
	}
	if (!ndctl_bus_is_cmd_supported(ars_cap->bus, ND_CMD_ARS_START)) {
		dbg(bus_ctx(ars_cap), "%s: unsupported cmd: ars_start",
				ars_cap->bus->devname);
		return NULL;
	}
	if (type <= 0 || (ARS_EXT(ars_cap->fw_status) & type) != (unsigned int)type) {
		dbg(bus_ctx(ars_cap), "ars_cap does not offer scrub type %d", type);
		return NULL;
	}
	cmd = nd_bus_cmd_alloc(ars_cap->bus, ND_CMD_ARS_START, sizeof(*start));
	if (!cmd)
		return NULL;
	cap = ars_cap->buf;
	start = cmd->buf;
	start->address = cap->address;
	start->length = cap->length;
	start->type = type;
	return cmd;
}

/**
 * ndctl_bus_cmd_new_ars_status - an ARS Status command with an output of
 *	the max_ars_out bytes a completed ARS Capabilities command reported
 * @ars_cap: submitted with success
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_bus_cmd_new_ars_status(
		struct ndctl_cmd *ars_cap)
{
	struct nd_cmd_ars_status *st;
	struct nd_cmd_ars_cap *cap;
	struct ndctl_cmd *cmd;
	unsigned int size;

	if (!cmd_ok(ars_cap, ND_CMD_ARS_CAP)) {
		if (ars_cap && ars_cap->bus)
			dbg(bus_ctx(ars_cap), "expected a completed ars_cap command");
		return NULL;
	}
	if (!ndctl_bus_is_cmd_supported(ars_cap->bus, ND_CMD_ARS_STATUS)) {
		dbg(bus_ctx(ars_cap), "%s: unsupported cmd: ars_status",
				ars_cap->bus->devname);
		return NULL;
	}
	cap = ars_cap->buf;
	size = cap->max_ars_out;
	if (size < sizeof(*st) || size > ND_BUS_ENVELOPE_MAX) {
		err(bus_ctx(ars_cap), "%s: ars_cap max_ars_out %u unusable",
				ars_cap->bus->devname, size);
		return NULL;
	}
	cmd = nd_bus_cmd_alloc(ars_cap->bus, ND_CMD_ARS_STATUS, size);
	if (!cmd)
		return NULL;
	/*
	 * The kernel sizes the output by the out_length the caller puts in
	 * (the whole envelope: there is no input); the firmware overwrites it
	 */
	st = cmd->buf;
	st->out_length = size;
	return cmd;
}

/**
 * ndctl_cmd_ars_cap_get_size - max_ars_out of a completed ARS Capabilities
 * @ars_cap: the command
 *
 * Returns 0 when the command did not complete.
 */
NDCTL_EXPORT unsigned int ndctl_cmd_ars_cap_get_size(struct ndctl_cmd *ars_cap)
{
	if (!cmd_ok(ars_cap, ND_CMD_ARS_CAP))
		return 0;
	return ((struct nd_cmd_ars_cap *)ars_cap->buf)->max_ars_out;
}

/**
 * ndctl_cmd_ars_cap_get_range - the range an ARS Capabilities command asked
 * @ars_cap: completed
 * @range: filled with its address and length
 */
NDCTL_EXPORT int ndctl_cmd_ars_cap_get_range(struct ndctl_cmd *ars_cap,
		struct ndctl_range *range)
{
	struct nd_cmd_ars_cap *cap;

	if (!range || !cmd_ok(ars_cap, ND_CMD_ARS_CAP))
		return -EINVAL;
	cap = ars_cap->buf;
	range->address = cap->address;
	range->length = cap->length;
	return 0;
}

/**
 * ndctl_cmd_ars_cap_get_clear_unit - the clear_err_unit of a completed
 *	ARS Capabilities command (0 when it did not complete)
 * @ars_cap: the command
 */
NDCTL_EXPORT unsigned int ndctl_cmd_ars_cap_get_clear_unit(
		struct ndctl_cmd *ars_cap)
{
	if (!cmd_ok(ars_cap, ND_CMD_ARS_CAP))
		return 0;
	return ((struct nd_cmd_ars_cap *)ars_cap->buf)->clear_err_unit;
}

/* ARS Status submitted; a positive status is the output's underrun */
static bool ars_stat_ok(struct ndctl_cmd *cmd)
{
	return cmd_ok(cmd, ND_CMD_ARS_STATUS);
}

/**
 * ndctl_cmd_ars_in_progress - is the scrub an ARS Status reports running?
 * @ars_status: submitted
 *
 * Returns 1 while the firmware says "in progress", else 0.
 */
NDCTL_EXPORT int ndctl_cmd_ars_in_progress(struct ndctl_cmd *ars_status)
{
	if (!ars_status || ars_status->type != ND_CMD_ARS_STATUS
			|| ars_status->status < 0 || ars_status->fw_status == UINT_MAX)
		return 0;
	return (ars_status->fw_status & ARS_STATUS_MASK) == 0
		&& ARS_EXT(ars_status->fw_status) == ARS_EXT_IN_PROGRESS;
}

/*
 * The records an ARS Status output really holds: num_records, bounded by
 * the firmware's out_length (the output's bytes from its start, status
 * and out_length included) and by the buffer.
 */
static unsigned int ars_records(struct ndctl_cmd *cmd)
{
	struct nd_cmd_ars_status *st = cmd->buf;
	size_t hdr = sizeof(*st), fits, out;

	out = st->out_length;
	if (out > cmd->buf_size)
		out = cmd->buf_size;
	if (out < hdr)
		return 0;
	fits = (out - hdr) / sizeof(struct nd_ars_record);
	return st->num_records < fits ? st->num_records : (unsigned int)fits;
}

/**
 * ndctl_cmd_ars_num_records - error records of a completed ARS Status
 * @ars_stat: the command
 *
 * Only records inside the output the firmware filled are counted.
 */
NDCTL_EXPORT unsigned int ndctl_cmd_ars_num_records(struct ndctl_cmd *ars_stat)
{
	if (!ars_stat_ok(ars_stat))
		return 0;
	return ars_records(ars_stat);
}

/**
 * ndctl_cmd_ars_get_record_addr - system-physical address of record @rec_index
 * @ars_stat: completed ARS Status
 * @rec_index: below ndctl_cmd_ars_num_records()
 *
 * Returns 0 for an index out of range.
 */
NDCTL_EXPORT unsigned long long ndctl_cmd_ars_get_record_addr(
		struct ndctl_cmd *ars_stat, unsigned int rec_index)
{
	struct nd_cmd_ars_status *st;

	if (!ars_stat_ok(ars_stat) || rec_index >= ars_records(ars_stat))
		return 0;
	st = ars_stat->buf;
	return st->records[rec_index].err_address;
}

/**
 * ndctl_cmd_ars_get_record_len - length of record @rec_index
 * @ars_stat: completed ARS Status
 * @rec_index: below ndctl_cmd_ars_num_records()
 *
 * Returns 0 for an index out of range.
 */
NDCTL_EXPORT unsigned long long ndctl_cmd_ars_get_record_len(
		struct ndctl_cmd *ars_stat, unsigned int rec_index)
{
	struct nd_cmd_ars_status *st;

	if (!ars_stat_ok(ars_stat) || rec_index >= ars_records(ars_stat))
		return 0;
	st = ars_stat->buf;
	return st->records[rec_index].length;
}

/**
 * ndctl_cmd_ars_stat_get_flag_overflow - did the firmware have more
 *	records than the output holds?
 * @ars_stat: completed ARS Status
 *
 * Returns 1, 0, or -EINVAL when the command did not complete.
 */
NDCTL_EXPORT int ndctl_cmd_ars_stat_get_flag_overflow(struct ndctl_cmd *ars_stat)
{
	if (!ars_stat_ok(ars_stat))
		return -EINVAL;
	return !!(((struct nd_cmd_ars_status *)ars_stat->buf)->flags
			& ND_ARS_STAT_FLAG_OVERFLOW);
}

/**
 * ndctl_bus_cmd_new_clear_error - clear the poison of [@address, +@len)
 * @address: system-physical, a multiple of the clear_err_unit
 * @len: bytes, a non-zero multiple of the clear_err_unit
 * @ars_cap: completed for a range holding the whole of it
 *
 * Returns NULL (nothing sent) for a range outside @ars_cap's, one that
 * wraps, or one not aligned to the unit.
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_bus_cmd_new_clear_error(
		unsigned long long address, unsigned long long len,
		struct ndctl_cmd *ars_cap)
{
	unsigned long long end, cap_end;
	struct nd_cmd_clear_error *clr;
	struct nd_cmd_ars_cap *cap;
	struct ndctl_ctx *ctx;
	struct ndctl_cmd *cmd;
	unsigned int unit;

	if (!cmd_ok(ars_cap, ND_CMD_ARS_CAP)) {
		if (ars_cap && ars_cap->bus)
			dbg(bus_ctx(ars_cap), "expected a completed ars_cap command");
		return NULL;
	}
	ctx = bus_ctx(ars_cap);
	if (!ndctl_bus_is_cmd_supported(ars_cap->bus, ND_CMD_CLEAR_ERROR)) {
		dbg(ctx, "%s: unsupported cmd: clear_error", ars_cap->bus->devname);
		return NULL;
	}
	cap = ars_cap->buf;
	unit = cap->clear_err_unit;
	if (!len || __builtin_add_overflow(address, len, &end)
			|| __builtin_add_overflow(cap->address, cap->length, &cap_end)
			|| address < cap->address || end > cap_end) {
		dbg(ctx, "clear_error [%#llx, +%#llx) outside the ars_cap range [%#llx, +%#llx)",
				address, len, (unsigned long long)cap->address,
				(unsigned long long)cap->length);
		return NULL;
	}
	if (!unit || address % unit || len % unit) {
		dbg(ctx, "clear_error [%#llx, +%#llx) not aligned to the clear unit %u",
				address, len, unit);
		return NULL;
	}
	cmd = nd_bus_cmd_alloc(ars_cap->bus, ND_CMD_CLEAR_ERROR, sizeof(*clr));
	if (!cmd)
		return NULL;
	clr = cmd->buf;
	clr->address = address;
	clr->length = len;
	return cmd;
}

/**
 * ndctl_cmd_clear_error_get_cleared - bytes a completed clear-error cleared
 * @clear_err: the command; 0 when it did not complete
 */
NDCTL_EXPORT unsigned long long ndctl_cmd_clear_error_get_cleared(
		struct ndctl_cmd *clear_err)
{
	if (!cmd_ok(clear_err, ND_CMD_CLEAR_ERROR))
		return 0;
	return ((struct nd_cmd_clear_error *)clear_err->buf)->cleared;
}

/* the kernel's scrub: ndbusN/nfit/scrub */

static int scrub_path(struct ndctl_bus *bus, char *path, size_t len)
{
	if (!bus->has_nfit)
		return -EOPNOTSUPP;
	return nd_path(path, len, bus->path, "nfit/scrub");
}

/* "N\n" -> count, idle; "N+\n" -> count, running; else -EOPNOTSUPP */
static int parse_scrub(const char *buf, unsigned int *count, bool *running)
{
	char *end;
	unsigned long v;

	if (buf[0] < '0' || buf[0] > '9')
		return -EOPNOTSUPP;
	errno = 0;
	v = strtoul(buf, &end, 10);
	if (errno || v > UINT_MAX)
		return -EOPNOTSUPP;
	*running = *end == '+';
	if (*running)
		end++;
	if (*end && strcmp(end, "\n"))
		return -EOPNOTSUPP;
	*count = v;
	return 0;
}

static int read_scrub(struct ndctl_bus *bus, unsigned int *count, bool *running)
{
	char path[PATH_MAX], buf[ND_ATTR_MAX];
	int rc;

	if (!bus)
		return -EINVAL;
	rc = scrub_path(bus, path, sizeof(path));
	if (rc)
		return rc;
	/* 76.1: an NFIT bus without the attribute, the open's errno */
	rc = nd_read_file(bus->ctx, path, buf);
	if (rc)
		return rc;
	rc = parse_scrub(buf, count, running);
	if (rc)
		dbg(bus->ctx, "%s: nfit/scrub reads '%s'", bus->devname, buf);
	return rc;
}

/**
 * ndctl_bus_start_scrub - ask the kernel for a scrub of every PM range
 * @bus: an NFIT bus with nfit/scrub
 *
 * Returns 0, -EOPNOTSUPP for a bus without NFIT, or the write's error
 * (-ENOENT: no nfit/scrub; -EBUSY: one is already queued or running).
 */
NDCTL_EXPORT int ndctl_bus_start_scrub(struct ndctl_bus *bus)
{
	if (!bus)
		return -EINVAL;
	/* 76.1: an NFIT bus without the attribute fails the write (ENOENT) */
	if (!bus->has_nfit)
		return -EOPNOTSUPP;
	return nd_write_attr(bus->ctx, bus->path, "nfit/scrub", "1\n");
}

/**
 * ndctl_bus_get_scrub_count - scrubs the kernel completed on @bus
 * @bus: an NFIT bus with nfit/scrub
 *
 * Returns UINT_MAX when the bus has no readable nfit/scrub.
 */
NDCTL_EXPORT unsigned int ndctl_bus_get_scrub_count(struct ndctl_bus *bus)
{
	unsigned int count;
	bool running;

	if (read_scrub(bus, &count, &running))
		return UINT_MAX;
	return count;
}

static int elapsed_ms(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/**
 * ndctl_bus_poll_scrub_completion - wait until @bus's scrub is not running
 * @bus: an NFIT bus with nfit/scrub
 * @poll_interval: seconds between re-reads when no notification comes
 *	(0: every second)
 * @timeout: give up after this many seconds (0: no limit)
 *
 * The attribute is poll(2)ed for POLLPRI, as the kernel notifies it at
 * the end of each scrub.  Returns 0, -EOPNOTSUPP for a bus without
 * scrub, -ETIMEDOUT, or a poll error.
 */
NDCTL_EXPORT int ndctl_bus_poll_scrub_completion(struct ndctl_bus *bus,
		unsigned int poll_interval, unsigned int timeout)
{
	char path[PATH_MAX], c;
	struct timespec t0;
	struct pollfd pfd;
	unsigned int count;
	bool running;
	int rc, fd, wait_ms;

	rc = read_scrub(bus, &count, &running);
	if (rc)
		return rc;
	if (!running)
		return 0;
	rc = scrub_path(bus, path, sizeof(path));
	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		/* read to arm the notification, then check the state again */
		if (pread(fd, &c, 1, 0) < 0) {
			rc = -errno;
			break;
		}
		rc = read_scrub(bus, &count, &running);
		if (rc || !running)
			break;
		/*
		 * Each wait is bounded: without an interval the attribute is
		 * read again every second, so a notification the kernel does
		 * not send (or one lost) costs a second, not the whole wait.
		 */
		if (poll_interval && poll_interval <= INT_MAX / 1000)
			wait_ms = poll_interval * 1000;
		else
			wait_ms = poll_interval ? INT_MAX : SCRUB_REREAD_MS;
		if (timeout) {
			int left = (timeout <= INT_MAX / 1000 ? (int)timeout * 1000
					: INT_MAX) - elapsed_ms(&t0);

			if (left <= 0) {
				rc = -ETIMEDOUT;
				break;
			}
			if (wait_ms > left)
				wait_ms = left;
		}
		pfd.fd = fd;
		pfd.events = POLLPRI | POLLERR;
		pfd.revents = 0;
		rc = poll(&pfd, 1, wait_ms);
		if (rc < 0) {
			rc = -errno;
			if (rc == -EINTR)
				continue;
			break;
		}
		dbg(bus->ctx, "%s: scrub poll wake (revents %#x)", bus->devname,
				pfd.revents);
	}
	close(fd);
	if (rc)
		dbg(bus->ctx, "%s: waiting for the scrub: %s", bus->devname,
				strerror(-rc));
	else
		dbg(bus->ctx, "%s: scrub complete (count %u)", bus->devname, count);
	return rc;
}

/**
 * ndctl_bus_wait_for_scrub_completion - wait, without a limit, until
 *	@bus's scrub is not running
 * @bus: an NFIT bus with nfit/scrub
 */
NDCTL_EXPORT int ndctl_bus_wait_for_scrub_completion(struct ndctl_bus *bus)
{
	return ndctl_bus_poll_scrub_completion(bus, 0, 0);
}
