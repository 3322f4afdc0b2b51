// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DIMM firmware update and runtime activation (docs/firmware.md).
 *
 * Update: the Intel DSM family's functions 12-16 (get info, start, send
 * data, finish or abort, finish query), sent as ND_CMD_CALL packages to
 * /dev/nmemN through smart.c's envelope (nd_intel_cmd()).  Payloads are
 * the Intel DSM specification's, as kernel/acpi/nfit/intel-firmware.h
 * lays them out.  Each call returns a negative errno when the command
 * could not be sent (no such function, ioctl failure) and otherwise the
 * firmware's answer as an enum ndctl_fw_status (0: success), translated
 * per function: the same extended status means different things for
 * start, finish and query.
 *
 * Activation: 6.1's sysfs ABI, nmemN/firmware/{activate,result} and
 * ndbusN/firmware/{activate,capability}, plus the NFIT bus's
 * nfit/firmware_activate_noidle.  States are read afresh on every call.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "private.h"

#define FW_GET_INFO	12
#define FW_START	13
#define FW_SEND		14
#define FW_FINISH	15
#define FW_QUERY	16

struct fw_info_out {
	uint32_t status;
	uint32_t storage_size;
	uint32_t max_send_len;
	uint32_t query_interval;
	uint32_t max_query_time;
	uint8_t update_cap;
	uint8_t reserved[3];
	uint32_t fis_version;
	uint64_t run_version;
	uint64_t updated_version;
} __attribute__((packed));

struct fw_start_out {
	uint32_t status;
	uint32_t context;
} __attribute__((packed));

struct fw_send_in {
	uint32_t context;
	uint32_t offset;
	uint32_t length;
	uint8_t data[];
} __attribute__((packed));

struct fw_finish_io {
	uint8_t ctrl_flags;	/* 0 finish, 1 abort */
	uint8_t reserved[3];
	uint32_t context;
	uint32_t status;
} __attribute__((packed));

struct fw_query_io {
	uint32_t context;
	uint32_t status;
	uint64_t updated_version;
} __attribute__((packed));

_Static_assert(sizeof(struct fw_info_out) == 44, "info payload");
_Static_assert(sizeof(struct fw_start_out) == 8, "start payload");
_Static_assert(sizeof(struct fw_send_in) == 12, "send payload");
_Static_assert(sizeof(struct fw_finish_io) == 12, "finish payload");
_Static_assert(sizeof(struct fw_query_io) == 16, "query payload");

/* the kernel's envelope limit for nd_size_in + nd_size_out */
#define FW_ENVELOPE_MAX	(4U << 20)

/*
 * Translate the status word of Intel function @func into enum
 * ndctl_fw_status.  Low 16 bits: 0 success, 1 not supported, 3 invalid
 * parameter, 7 "see the extended status" (bits 16-31), whose meaning is
 * the function's own.
 */
NDCTL_EXPORT int ndctl_fw_xlat_status(unsigned int func, unsigned int status)
{
	unsigned int ext = status >> 16;

	if (status == 0)
		return NDCTL_FW_SUCCESS;
	switch (status & 0xffff) {
	case 1:
		return NDCTL_FW_UNSUPPORTED;
	case 3:
		return NDCTL_FW_INVALID_PARAM;
	case 7:
		break;
	default:
		return NDCTL_FW_ERROR;
	}
	switch (func) {
	case FW_START:
		if (ext == 1)
			return NDCTL_FW_BUSY;
		break;
	case FW_SEND:
		if (ext == 1)
			return NDCTL_FW_BAD_CONTEXT;
		break;
	case FW_FINISH:
		switch (ext) {
		case 1: return NDCTL_FW_BAD_CONTEXT;
		case 2: return NDCTL_FW_DONE;
		case 3: return NDCTL_FW_BAD_IMAGE;
		case 4: return NDCTL_FW_ABORTED;
		}
		break;
	case FW_QUERY:
		switch (ext) {
		case 1: return NDCTL_FW_BAD_CONTEXT;
		case 2: return NDCTL_FW_VERIFYING;
		case 3: return NDCTL_FW_BAD_IMAGE;
		case 4: return NDCTL_FW_SEQUENCE;
		}
		break;
	}
	return NDCTL_FW_ERROR;
}

NDCTL_EXPORT const char *ndctl_fw_status_str(int status)
{
	switch (status) {
	case NDCTL_FW_SUCCESS: return "success";
	case NDCTL_FW_UNSUPPORTED: return "function not supported";
	case NDCTL_FW_INVALID_PARAM: return "invalid parameter";
	case NDCTL_FW_BUSY: return "an update is already in progress";
	case NDCTL_FW_BAD_CONTEXT: return "invalid update context (out of sequence)";
	case NDCTL_FW_DONE: return "update already finished";
	case NDCTL_FW_VERIFYING: return "image still being verified";
	case NDCTL_FW_BAD_IMAGE: return "image failed verification";
	case NDCTL_FW_ABORTED: return "update aborted";
	case NDCTL_FW_SEQUENCE: return "query out of sequence (no update finished)";
	case NDCTL_FW_ERROR: return "firmware error";
	}
	if (status < 0)
		return strerror(-status);
	return "unknown status";
}

/* 0 when the DIMM has all of functions 12-16 (ndctl list -F: can_update) */
NDCTL_EXPORT int ndctl_dimm_fw_update_supported(struct ndctl_dimm *dimm)
{
	unsigned int f;

	if (!dimm)
		return -EINVAL;
	for (f = FW_GET_INFO; f <= FW_QUERY; f++)
		if (!nd_intel_func(dimm, f))
			return -EOPNOTSUPP;
	return 0;
}

/*
 * Send Intel function @func with @in_len bytes of @in; copy the output
 * (status included) to @out.  Returns -errno or the translated status.
 */
static int fw_call(struct ndctl_dimm *dimm, unsigned int func, const void *in,
		unsigned int in_len, void *out, unsigned int out_len)
{
	struct ndctl_cmd *cmd;
	struct nd_cmd_pkg *pkg;
	unsigned int st;
	int rc;

	if (!dimm)
		return -EINVAL;
	if (in_len > FW_ENVELOPE_MAX || out_len > FW_ENVELOPE_MAX - in_len)
		return -E2BIG;
	cmd = nd_intel_cmd(dimm, func, in_len, out_len);
	if (!cmd)
		return nd_intel_func(dimm, func) ? -ENOMEM : -EOPNOTSUPP;
	pkg = cmd->buf;
	if (in_len)
		memcpy(pkg->nd_payload, in, in_len);
	rc = ndctl_cmd_submit(cmd);
	st = cmd->fw_status;
	if (rc < 0 && st == UINT_MAX) {
		/* the ioctl itself failed: nothing came back */
		ndctl_cmd_unref(cmd);
		return rc;
	}
	memcpy(out, pkg->nd_payload + in_len, out_len);
	ndctl_cmd_unref(cmd);
	rc = ndctl_fw_xlat_status(func, st);
	dbg(dimm->bus->ctx, "%s: firmware function %u: status %#x (%s)",
			dimm->devname, func, st, ndctl_fw_status_str(rc));
	return rc;
}

NDCTL_EXPORT int ndctl_dimm_fw_get_info(struct ndctl_dimm *dimm,
		struct ndctl_fw_info *info)
{
	struct fw_info_out out;
	int rc;

	if (!info)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	rc = fw_call(dimm, FW_GET_INFO, NULL, 0, &out, sizeof(out));
	if (rc)
		return rc;
	info->storage_size = out.storage_size;
	info->max_send_len = out.max_send_len;
	info->query_interval_us = out.query_interval;
	info->max_query_time_us = out.max_query_time;
	info->update_cap = out.update_cap;
	info->fis_version = out.fis_version;
	info->run_version = out.run_version;
	info->next_version = out.updated_version;
	return 0;
}

NDCTL_EXPORT int ndctl_dimm_fw_start(struct ndctl_dimm *dimm,
		unsigned int *context)
{
	struct fw_start_out out;
	int rc;

	if (!context)
		return -EINVAL;
	rc = fw_call(dimm, FW_START, NULL, 0, &out, sizeof(out));
	if (rc == NDCTL_FW_SUCCESS)
		*context = out.context;
	return rc;
}

NDCTL_EXPORT int ndctl_dimm_fw_send(struct ndctl_dimm *dimm,
		unsigned int context, unsigned int offset, unsigned int len,
		const void *data)
{
	struct fw_send_in *in;
	uint32_t status;
	int rc;

	if (!data || !len)
		return -EINVAL;
	/* offset + len must not wrap: the DIMM takes 32-bit offsets */
	if (len > UINT32_MAX - offset)
		return -EINVAL;
	if (len > FW_ENVELOPE_MAX - sizeof(*in) - sizeof(status))
		return -E2BIG;
	in = malloc(sizeof(*in) + len);
	if (!in)
		return -ENOMEM;
	in->context = context;
	in->offset = offset;
	in->length = len;
	memcpy(in->data, data, len);
	rc = fw_call(dimm, FW_SEND, in, sizeof(*in) + len, &status,
			sizeof(status));
	free(in);
	return rc;
}

static int fw_finish(struct ndctl_dimm *dimm, unsigned int context,
		bool abort)
{
	struct fw_finish_io io = { .ctrl_flags = abort, .context = context };
	uint32_t status;

	return fw_call(dimm, FW_FINISH, &io, offsetof(struct fw_finish_io, status),
			&status, sizeof(status));
}

NDCTL_EXPORT int ndctl_dimm_fw_finish(struct ndctl_dimm *dimm,
		unsigned int context)
{
	return fw_finish(dimm, context, false);
}

NDCTL_EXPORT int ndctl_dimm_fw_abort(struct ndctl_dimm *dimm,
		unsigned int context)
{
	return fw_finish(dimm, context, true);
}

NDCTL_EXPORT int ndctl_dimm_fw_query(struct ndctl_dimm *dimm,
		unsigned int context, unsigned long long *version)
{
	uint32_t in = context;
	struct {
		uint32_t status;
		uint64_t version;
	} __attribute__((packed)) out;
	int rc;

	rc = fw_call(dimm, FW_QUERY, &in, sizeof(in), &out, sizeof(out));
	if (rc == NDCTL_FW_SUCCESS && version)
		*version = out.version;
	return rc;
}

/*
 * May an image of @len bytes go to a DIMM that reported @info?  0, or
 * -ENODATA (empty), -EFBIG (larger than the DIMM's storage).  Nothing is
 * sent: this is the check to make before starting an update.
 */
NDCTL_EXPORT int ndctl_fw_image_check(const struct ndctl_fw_info *info,
		unsigned long long len)
{
	if (!info)
		return -EINVAL;
	if (len == 0)
		return -ENODATA;
	if (len > info->storage_size)
		return -EFBIG;
	if (!info->max_send_len)
		return -EINVAL;
	return 0;
}

/* ---- activation (sysfs) ---- */

static int parse_word(const char *buf, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(buf, names[i]))
			return i;
	return -EINVAL;
}

static const char *const fwa_states[] = {
	[NDCTL_FWA_IDLE] = "idle",
	[NDCTL_FWA_ARMED] = "armed",
	[NDCTL_FWA_BUSY] = "busy",
	[NDCTL_FWA_ARM_OVERFLOW] = "overflow",
};

static const char *const fwa_results[] = {
	[NDCTL_FWA_RESULT_NONE] = "none",
	[NDCTL_FWA_RESULT_SUCCESS] = "success",
	[NDCTL_FWA_RESULT_FAIL] = "fail",
	[NDCTL_FWA_RESULT_NOTSTAGED] = "not_staged",
	[NDCTL_FWA_RESULT_NEEDRESET] = "need_reset",
	[NDCTL_FWA_RESULT_BUSY] = "busy",
};

#define NWORDS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* @attr of @dir parsed against @names: the index, or -errno */
static int read_word(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		const char *const *names, int n)
{
	char buf[ND_ATTR_MAX];
	int rc = nd_read_attr(ctx, dir, attr, buf);

	if (rc)
		return rc;
	rc = parse_word(buf, names, n);
	if (rc < 0)
		dbg(ctx, "%s/%s: unknown value '%s'", dir, attr, buf);
	return rc;
}

NDCTL_EXPORT const char *ndctl_fwa_state_str(int state)
{
	if (state < 0 || state >= NWORDS(fwa_states) || !fwa_states[state])
		return NULL;
	return fwa_states[state];
}

NDCTL_EXPORT const char *ndctl_fwa_result_str(int result)
{
	if (result < 0 || result >= NWORDS(fwa_results) || !fwa_results[result])
		return NULL;
	return fwa_results[result];
}

/* enum ndctl_fwa_state of nmemN/firmware/activate, or -errno */
NDCTL_EXPORT int ndctl_dimm_get_fw_activate_state(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return -EINVAL;
	return read_word(dimm->bus->ctx, dimm->path, "firmware/activate",
			fwa_states, NWORDS(fwa_states));
}

/* enum ndctl_fwa_result of nmemN/firmware/result, or -errno */
NDCTL_EXPORT int ndctl_dimm_get_fw_activate_result(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return -EINVAL;
	return read_word(dimm->bus->ctx, dimm->path, "firmware/result",
			fwa_results, NWORDS(fwa_results));
}

/* write "arm" or "disarm" to nmemN/firmware/activate: 0 or -errno */
NDCTL_EXPORT int ndctl_dimm_fw_activate_arm(struct ndctl_dimm *dimm, bool arm)
{
	int rc;

	if (!dimm)
		return -EINVAL;
	rc = nd_write_attr(dimm->bus->ctx, dimm->path, "firmware/activate",
			arm ? "arm" : "disarm");
	dbg(dimm->bus->ctx, "%s: firmware %s: %d", dimm->devname,
			arm ? "arm" : "disarm", rc);
	return rc;
}

/* enum ndctl_fwa_state of ndbusN/firmware/activate, or -errno */
NDCTL_EXPORT int ndctl_bus_get_fw_activate_state(struct ndctl_bus *bus)
{
	if (!bus)
		return -EINVAL;
	return read_word(bus->ctx, bus->path, "firmware/activate", fwa_states,
			NWORDS(fwa_states));
}

/*
 * The activation method ndbusN/firmware/capability allows: "quiesce" is
 * NDCTL_FWA_METHOD_SUSPEND, "live" NDCTL_FWA_METHOD_LIVE; anything else,
 * the attribute missing included, NDCTL_FWA_METHOD_RESET (only a reset
 * runs a staged image).
 */
NDCTL_EXPORT int ndctl_bus_get_fw_activate_method(struct ndctl_bus *bus)
{
	char buf[ND_ATTR_MAX];

	if (!bus)
		return -EINVAL;
	if (nd_read_attr(bus->ctx, bus->path, "firmware/capability", buf))
		return NDCTL_FWA_METHOD_RESET;
	if (!strcmp(buf, "quiesce"))
		return NDCTL_FWA_METHOD_SUSPEND;
	if (!strcmp(buf, "live"))
		return NDCTL_FWA_METHOD_LIVE;
	return NDCTL_FWA_METHOD_RESET;
}

/*
 * Activate the armed DIMMs' staged images: write "quiesce" (@live false)
 * or "live" to ndbusN/firmware/activate.  0 or -errno (-ENXIO: nothing
 * armed, -EBUSY: an activation is running).
 */
NDCTL_EXPORT int ndctl_bus_activate_firmware(struct ndctl_bus *bus, bool live)
{
	int rc;

	if (!bus)
		return -EINVAL;
	rc = nd_write_attr(bus->ctx, bus->path, "firmware/activate",
			live ? "live" : "quiesce");
	dbg(bus->ctx, "%s: firmware activate %s: %d", bus->devname,
			live ? "live" : "quiesce", rc);
	return rc;
}

/*
 * nfit/firmware_activate_noidle: true asks the platform to leave device
 * idling to the OS.  0 or -errno (-ENOENT: not an NFIT bus).
 */
NDCTL_EXPORT int ndctl_bus_set_fw_activate_noidle(struct ndctl_bus *bus,
		bool noidle)
{
	if (!bus)
		return -EINVAL;
	return nd_write_attr(bus->ctx, bus->path, "nfit/firmware_activate_noidle",
			noidle ? "1" : "0");
}

/* 1 when noidle is set, 0 when not, or -errno */
NDCTL_EXPORT int ndctl_bus_get_fw_activate_noidle(struct ndctl_bus *bus)
{
	char buf[ND_ATTR_MAX];
	int rc;

	if (!bus)
		return -EINVAL;
	rc = nd_read_attr(bus->ctx, bus->path, "nfit/firmware_activate_noidle", buf);
	if (rc)
		return rc;
	return buf[0] == 'Y' || buf[0] == 'y' || buf[0] == '1';
}
