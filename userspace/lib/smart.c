// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DIMM health: the Intel DSM family's SMART functions, sent as ND_CMD_CALL
 * packages (family NVDIMM_FAMILY_INTEL) to /dev/nmemN.  A DIMM offers them
 * when its nmemN/nfit/family is 0 (Intel), its nfit/dsm_mask has the
 * function's bit and its commands list cmd_call.  Function numbers and
 * payloads: the Intel DSM specification, as 6.1 and ndctl 76.1 use them
 * (kernel/acpi/nfit/intel-smart.h has the same layouts).  The accessors
 * keep ndctl 76.1's names and semantics: flags and alarm bits are the
 * ND_SMART_* bits (libndctl.h), temperatures are raw (1/16 degree
 * Celsius, bit 15 the sign; ndctl_decode_smart_temperature()).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "private.h"

#define INTEL_SMART		1
#define INTEL_SMART_THRESHOLD	2
#define INTEL_SMART_SET_THRESHOLD	17
#define INTEL_SMART_INJECT	18

#define INTEL_INJECT_MTEMP	(1ULL << 0)
#define INTEL_INJECT_SPARE	(1ULL << 1)
#define INTEL_INJECT_FATAL	(1ULL << 2)
#define INTEL_INJECT_SHUTDOWN	(1ULL << 3)

struct intel_smart {
	uint32_t status;
	uint32_t flags;
	uint8_t reserved0[4];
	uint8_t health;
	uint8_t spares;
	uint8_t life_used;
	uint8_t alarm_flags;
	uint16_t media_temperature;
	uint16_t ctrl_temperature;
	uint32_t shutdown_count;
	uint8_t ait_status;
	uint16_t pmic_temperature;
	uint8_t reserved1[8];
	uint8_t shutdown_state;
	uint32_t vendor_size;
	uint8_t vendor_data[92];
} __attribute__((packed));

struct intel_smart_threshold {
	uint32_t status;
	uint16_t alarm_control;
	uint8_t spares;
	uint16_t media_temperature;
	uint16_t ctrl_temperature;
	uint8_t reserved[1];
} __attribute__((packed));

struct intel_smart_set_threshold {
	uint16_t alarm_control;
	uint8_t spares;
	uint16_t media_temperature;
	uint16_t ctrl_temperature;
	uint32_t status;
} __attribute__((packed));

struct intel_smart_inject {
	uint64_t flags;
	uint8_t mtemp_enable;
	uint16_t media_temperature;
	uint8_t spare_enable;
	uint8_t spares;
	uint8_t fatal_enable;
	uint8_t unsafe_shutdown_enable;
	uint32_t status;
} __attribute__((packed));

_Static_assert(sizeof(struct intel_smart) == 132, "SMART payload");
_Static_assert(sizeof(struct intel_smart_threshold) == 12, "threshold payload");
_Static_assert(sizeof(struct intel_smart_set_threshold) == 11, "set threshold payload");
_Static_assert(sizeof(struct intel_smart_inject) == 19, "inject payload");

static struct ndctl_ctx *dimm_ctx(struct ndctl_dimm *dimm)
{
	return dimm->bus->ctx;
}

static struct ndctl_ctx *cmd_ctx_of(struct ndctl_cmd *cmd)
{
	return dimm_ctx(cmd->dimm);
}

static struct nd_cmd_pkg *pkg_of(struct ndctl_cmd *cmd)
{
	return cmd->buf;
}

static void *payload(struct ndctl_cmd *cmd)
{
	return pkg_of(cmd)->nd_payload;
}

/* the DIMM speaks the Intel family and offers function @func */
static bool intel_func(struct ndctl_dimm *dimm, unsigned int func)
{
	unsigned long long mask;
	unsigned int family;

	if (!dimm || !(dimm->cmd_mask & (1ULL << ND_CMD_CALL)))
		return false;
	if (nd_read_uint(dimm_ctx(dimm), dimm->path, "nfit/family", &family)
			|| family != NVDIMM_FAMILY_INTEL)
		return false;
	if (nd_read_ull(dimm_ctx(dimm), dimm->path, "nfit/dsm_mask", &mask))
		return false;
	return func < 64 && (mask & (1ULL << func));
}

static struct ndctl_cmd *intel_cmd(struct ndctl_dimm *dimm, unsigned int func,
		unsigned int in, unsigned int out)
{
	struct nd_cmd_pkg *pkg;
	struct ndctl_cmd *cmd;

	if (!intel_func(dimm, func)) {
		dbg(dimm ? dimm_ctx(dimm) : NULL, "%s: no Intel function %u",
				dimm ? dimm->devname : "(null)", func);
		return NULL;
	}
	cmd = calloc(1, sizeof(*cmd));
	if (!cmd)
		return NULL;
	cmd->buf_size = sizeof(*pkg) + in + out;
	cmd->buf = calloc(1, cmd->buf_size);
	if (!cmd->buf) {
		free(cmd);
		return NULL;
	}
	cmd->dimm = dimm;
	cmd->bus = dimm->bus;
	cmd->refcount = 1;
	cmd->type = ND_CMD_CALL;
	cmd->status = 1;	/* not submitted */
	cmd->fw_status = UINT_MAX;
	pkg = pkg_of(cmd);
	pkg->nd_family = NVDIMM_FAMILY_INTEL;
	pkg->nd_command = func;
	pkg->nd_size_in = in;
	pkg->nd_size_out = out;
	return cmd;
}

/* firmware.c's Intel functions share the envelope */
bool nd_intel_func(struct ndctl_dimm *dimm, unsigned int func)
{
	return intel_func(dimm, func);
}

struct ndctl_cmd *nd_intel_cmd(struct ndctl_dimm *dimm, unsigned int func,
		unsigned int in, unsigned int out)
{
	return intel_cmd(dimm, func, in, out);
}

static unsigned int cmd_func(struct ndctl_cmd *cmd)
{
	if (!cmd || !cmd->dimm || cmd->type != ND_CMD_CALL)
		return 0;
	return (unsigned int)pkg_of(cmd)->nd_command;
}

/*
 * Submit an ND_CMD_CALL package on its DIMM (dimm.c's ndctl_cmd_submit()
 * hands DIMM ND_CMD_CALL commands here).  The firmware status is the
 * first output word.  Returns the ioctl's result, or -EIO when the
 * firmware refused (status non-zero).
 */
int nd_dimm_call_submit(struct ndctl_cmd *cmd, int fd)
{
	struct nd_cmd_pkg *pkg = pkg_of(cmd);
	uint32_t st;
	int rc;

	rc = ioctl(fd, ND_IOCTL_CALL, cmd->buf);
	if (rc < 0) {
		rc = -errno;
		dbg(cmd_ctx_of(cmd), "%s: Intel function %llu: %s",
				cmd->dimm->devname, pkg->nd_command,
				strerror(errno));
		cmd->status = rc;
		return rc;
	}
	if (pkg->nd_size_out < sizeof(st)) {
		cmd->status = -EIO;
		return -EIO;
	}
	memcpy(&st, pkg->nd_payload + pkg->nd_size_in, sizeof(st));
	cmd->fw_status = st;
	cmd->status = st ? -EIO : 0;
	dbg(cmd_ctx_of(cmd), "%s: Intel function %llu: rc %d status %#x",
			cmd->dimm->devname, pkg->nd_command, rc, st);
	return st ? -EIO : rc;
}

/* ---- SMART ---- */

NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_smart(struct ndctl_dimm *dimm)
{
	return intel_cmd(dimm, INTEL_SMART, 0, sizeof(struct intel_smart));
}

static const struct intel_smart *smart_of(struct ndctl_cmd *cmd)
{
	if (cmd_func(cmd) != INTEL_SMART || cmd->status != 0)
		return NULL;
	return payload(cmd);
}

#define SMART_GET(name, field)						\
NDCTL_EXPORT unsigned int ndctl_cmd_smart_get_##name(struct ndctl_cmd *cmd) \
{									\
	const struct intel_smart *s = smart_of(cmd);			\
									\
	return s ? s->field : UINT_MAX;					\
}

SMART_GET(flags, flags)
SMART_GET(health, health)
SMART_GET(media_temperature, media_temperature)
SMART_GET(temperature, media_temperature)
SMART_GET(ctrl_temperature, ctrl_temperature)
SMART_GET(spares, spares)
SMART_GET(alarm_flags, alarm_flags)
SMART_GET(life_used, life_used)
SMART_GET(shutdown_state, shutdown_state)
SMART_GET(shutdown_count, shutdown_count)
SMART_GET(vendor_size, vendor_size)

NDCTL_EXPORT unsigned char *ndctl_cmd_smart_get_vendor_data(struct ndctl_cmd *cmd)
{
	const struct intel_smart *s = smart_of(cmd);

	return s ? (unsigned char *)s->vendor_data : NULL;
}

/* ---- thresholds ---- */

NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_smart_threshold(
		struct ndctl_dimm *dimm)
{
	return intel_cmd(dimm, INTEL_SMART_THRESHOLD, 0,
			sizeof(struct intel_smart_threshold));
}

static const struct intel_smart_threshold *thresh_of(struct ndctl_cmd *cmd)
{
	if (cmd_func(cmd) != INTEL_SMART_THRESHOLD || cmd->status != 0)
		return NULL;
	return payload(cmd);
}

#define THRESH_GET(name, field)						\
NDCTL_EXPORT unsigned int ndctl_cmd_smart_threshold_get_##name(		\
		struct ndctl_cmd *cmd)					\
{									\
	const struct intel_smart_threshold *t = thresh_of(cmd);	\
									\
	return t ? t->field : UINT_MAX;					\
}

THRESH_GET(alarm_control, alarm_control)
THRESH_GET(temperature, media_temperature)
THRESH_GET(media_temperature, media_temperature)
THRESH_GET(ctrl_temperature, ctrl_temperature)
THRESH_GET(spares, spares)

NDCTL_EXPORT unsigned int ndctl_cmd_smart_threshold_get_supported_alarms(
		struct ndctl_cmd *cmd)
{
	if (!thresh_of(cmd))
		return UINT_MAX;
	return ND_SMART_SPARE_TRIP | ND_SMART_TEMP_TRIP | ND_SMART_CTEMP_TRIP;
}

/**
 * ndctl_dimm_cmd_new_smart_set_threshold - a set-threshold command
 * @cmd: a completed threshold command of the DIMM: its values are the
 *	starting point
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_smart_set_threshold(
		struct ndctl_cmd *cmd)
{
	const struct intel_smart_threshold *t = thresh_of(cmd);
	struct intel_smart_set_threshold *set;
	struct ndctl_cmd *sc;

	if (!t)
		return NULL;
	sc = intel_cmd(cmd->dimm, INTEL_SMART_SET_THRESHOLD,
			offsetof(struct intel_smart_set_threshold, status),
			sizeof(uint32_t));
	if (!sc)
		return NULL;
	set = payload(sc);
	set->alarm_control = t->alarm_control;
	set->spares = t->spares;
	set->media_temperature = t->media_temperature;
	set->ctrl_temperature = t->ctrl_temperature;
	return sc;
}

static struct intel_smart_set_threshold *set_of(struct ndctl_cmd *cmd)
{
	return cmd_func(cmd) == INTEL_SMART_SET_THRESHOLD ? payload(cmd) : NULL;
}

#define THRESH_SET(name, field, max)					\
NDCTL_EXPORT int ndctl_cmd_smart_threshold_set_##name(			\
		struct ndctl_cmd *cmd, unsigned int val)		\
{									\
	struct intel_smart_set_threshold *s = set_of(cmd);		\
									\
	if (!s || val > (max))						\
		return -EINVAL;						\
	s->field = val;							\
	return 0;							\
}

THRESH_SET(alarm_control, alarm_control, ND_SMART_SPARE_TRIP
		| ND_SMART_TEMP_TRIP | ND_SMART_CTEMP_TRIP)
THRESH_SET(temperature, media_temperature, 0xffff)
THRESH_SET(media_temperature, media_temperature, 0xffff)
THRESH_SET(ctrl_temperature, ctrl_temperature, 0xffff)
THRESH_SET(spares, spares, 0xff)

/* ---- injection ---- */

NDCTL_EXPORT int ndctl_dimm_smart_inject_supported(struct ndctl_dimm *dimm)
{
	unsigned int family;

	if (!dimm)
		return -EINVAL;
	/* as 76.1: no Intel family -ENOTTY, no passthrough -EOPNOTSUPP */
	if (nd_read_uint(dimm_ctx(dimm), dimm->path, "nfit/family", &family)
			|| family != NVDIMM_FAMILY_INTEL)
		return -ENOTTY;
	if (!(dimm->cmd_mask & (1ULL << ND_CMD_CALL)))
		return -EOPNOTSUPP;
	return intel_func(dimm, INTEL_SMART_INJECT) ? ND_SMART_INJECT_SPARES_REMAINING
		| ND_SMART_INJECT_MEDIA_TEMPERATURE | ND_SMART_INJECT_HEALTH_STATE
		| ND_SMART_INJECT_UNCLEAN_SHUTDOWN : -EIO;
}

NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_smart_inject(
		struct ndctl_dimm *dimm)
{
	return intel_cmd(dimm, INTEL_SMART_INJECT,
			offsetof(struct intel_smart_inject, status),
			sizeof(uint32_t));
}

static struct intel_smart_inject *inject_of(struct ndctl_cmd *cmd)
{
	return cmd_func(cmd) == INTEL_SMART_INJECT ? payload(cmd) : NULL;
}

NDCTL_EXPORT int ndctl_cmd_smart_inject_media_temperature(struct ndctl_cmd *cmd,
		bool enable, unsigned int mtemp)
{
	struct intel_smart_inject *i = inject_of(cmd);

	if (!i || mtemp > 0xffff)
		return -EINVAL;
	i->flags |= INTEL_INJECT_MTEMP;
	i->mtemp_enable = enable;
	i->media_temperature = mtemp;
	return 0;
}

NDCTL_EXPORT int ndctl_cmd_smart_inject_spares(struct ndctl_cmd *cmd,
		bool enable, unsigned int spares)
{
	struct intel_smart_inject *i = inject_of(cmd);

	if (!i || spares > 0xff)
		return -EINVAL;
	i->flags |= INTEL_INJECT_SPARE;
	i->spare_enable = enable;
	i->spares = spares;
	return 0;
}

NDCTL_EXPORT int ndctl_cmd_smart_inject_fatal(struct ndctl_cmd *cmd,
		bool enable)
{
	struct intel_smart_inject *i = inject_of(cmd);

	if (!i)
		return -EINVAL;
	i->flags |= INTEL_INJECT_FATAL;
	i->fatal_enable = enable;
	return 0;
}

NDCTL_EXPORT int ndctl_cmd_smart_inject_unsafe_shutdown(struct ndctl_cmd *cmd,
		bool enable)
{
	struct intel_smart_inject *i = inject_of(cmd);

	if (!i)
		return -EINVAL;
	i->flags |= INTEL_INJECT_SHUTDOWN;
	i->unsafe_shutdown_enable = enable;
	return 0;
}

/* ---- temperatures: 1/16 degree Celsius, bit 15 the sign ---- */

NDCTL_EXPORT double ndctl_decode_smart_temperature(unsigned int temp)
{
	double t = (double)(temp & 0x7fff) / 16.0;

	return temp & 0x8000 ? -t : t;
}

NDCTL_EXPORT unsigned int ndctl_encode_smart_temperature(double temp)
{
	unsigned int sign = temp < 0 ? 0x8000 : 0;
	double mag = temp < 0 ? -temp : temp;
	unsigned long long v = (unsigned long long)(mag * 16.0);

	return sign | (unsigned int)(v & 0x7fff);
}

/* ---- the dirty shutdown count (76.1's LIBNDCTL_18) ---- */

/*
 * The DIMM's dirty shutdown count as the kernel read it from the SMART
 * payload when the DIMM registered (nmemN/nfit/dirty_shutdown), taken
 * when the DIMM was scanned: -ENOENT when the kernel shows none (no
 * SMART function, SMART failed, the count not valid) or the attribute is
 * not a count; -EINVAL without a DIMM.
 */
NDCTL_EXPORT long long ndctl_dimm_get_dirty_shutdown(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return -EINVAL;
	return dimm->dirty_shutdown;
}

/* ---- events (ndctl monitor) ---- */

NDCTL_EXPORT int ndctl_dimm_get_health_eventfd(struct ndctl_dimm *dimm)
{
	char path[PATH_MAX];
	int rc;

	if (!dimm)
		return -EINVAL;
	rc = nd_path(path, sizeof(path), dimm->path, "nfit/flags");
	if (rc)
		return rc;
	rc = open(path, O_RDONLY | O_CLOEXEC);
	return rc < 0 ? -errno : rc;
}
