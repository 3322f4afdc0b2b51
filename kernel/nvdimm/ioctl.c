// SPDX-License-Identifier: GPL-2.0
/*
 * Command passthrough: the ioctls of /dev/ndctlN (bus commands) and
 * /dev/nmemN (DIMM commands), documented in docs/ABI/testing/dev-ndctl.
 *
 * The user buffer is an envelope: all input fields, then all output
 * fields.  Its size is not in the ioctl number (two header generations
 * disagree on it), so each command's layout below says how to compute it
 * from the fixed header, and dispatch goes by _IOC_NR() only.  Everything
 * is checked before the provider sees a byte: the command must be in the
 * provider's mask, the ioctl's size field must cover the fixed header,
 * the envelope must fit ND_IOCTL_MAX_BUFLEN, and label transfers must lie
 * inside the label area and within the firmware's transfer limit.
 *
 * The "nvdimm" driver keeps a copy of the label area read at bind
 * (struct nvdimm_drvdata).  A SET_CONFIG_DATA passed through here does not
 * update that copy: it is stale until the DIMM is bound again, which is
 * what ndctl does after writing labels (it unbinds and rebinds the DIMM).
 * Writes are refused while an enabled region uses the DIMM; a region
 * enabled again before the DIMM is rebound still sees the old copy.  A
 * write is checked and issued under the bus' reconfig_lock: the lock a
 * region's activation and the kernel's own label transactions hold, so
 * neither can slip in between the check and the write.
 *
 * ND_CMD_CALL (struct nd_cmd_pkg) passes a firmware function through.
 * Before any package reaches the provider, nd_call_allowed() refuses the
 * functions userspace must not send (6.1's list), and the answer comes
 * back as the uapi header describes it: nd_fw_size is what the firmware
 * produced, of which at most nd_size_out bytes are returned.
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/sizes.h>
#include <asm/unaligned.h>
#include "nd-core.h"

enum nd_cmd_var {
	ND_VAR_NONE,
	ND_VAR_IN_LEN,	/* u32 at offset 4 of the input: variable input */
	ND_VAR_OUT_LEN,	/* u32 at offset 4 of the input: variable output */
	ND_VAR_PKG,	/* struct nd_cmd_pkg: nd_size_in / nd_size_out */
	ND_VAR_ARS_OUT,	/* u32 at offset 4 of the output: its whole length */
};

/**
 * struct nd_cmd_layout - envelope of one command
 * @in_hdr: fixed input bytes (the part the ioctl's size field describes)
 * @out_fixed: fixed output bytes
 * @var: where the variable part's length comes from
 * @write: changes device state: refused on a read-only file
 */
struct nd_cmd_layout {
	u16 in_hdr;
	u16 out_fixed;
	u8 var;
	bool write;
};

static const struct nd_cmd_layout nd_dimm_cmds[] = {
	/* health: status + 128 bytes, status + 8 bytes (6.1) */
	[ND_CMD_SMART] = { 0, 4 + 128, ND_VAR_NONE, false },
	[ND_CMD_SMART_THRESHOLD] = { 0, 4 + 8, ND_VAR_NONE, false },
	[ND_CMD_DIMM_FLAGS] = { 0, 8, ND_VAR_NONE, false },
	[ND_CMD_GET_CONFIG_SIZE] = { 0, 12, ND_VAR_NONE, false },
	[ND_CMD_GET_CONFIG_DATA] = { 8, 4, ND_VAR_OUT_LEN, false },
	[ND_CMD_SET_CONFIG_DATA] = { 8, 4, ND_VAR_IN_LEN, true },
	[ND_CMD_CALL] = { sizeof(struct nd_cmd_pkg), 0, ND_VAR_PKG, true },
};

/*
 * ARS (6.1 layouts): ARS_STATUS has no input; its output is as long as
 * the out_length field the caller put at offset 4 says (at least the 8
 * bytes of status and out_length), which the provider overwrites.
 */
static const struct nd_cmd_layout nd_bus_cmds[] = {
	[ND_CMD_ARS_CAP] = { 16, 16, ND_VAR_NONE, false },
	[ND_CMD_ARS_START] = { 24, 8, ND_VAR_NONE, true },
	[ND_CMD_ARS_STATUS] = { 0, 8, ND_VAR_ARS_OUT, false },
	[ND_CMD_CLEAR_ERROR] = { 16, 16, ND_VAR_NONE, true },
	[ND_CMD_CALL] = { sizeof(struct nd_cmd_pkg), 0, ND_VAR_PKG, true },
};

static const struct nd_cmd_layout *nd_cmd_layout(bool dimm, unsigned int cmd)
{
	const struct nd_cmd_layout *tbl = dimm ? nd_dimm_cmds : nd_bus_cmds;
	size_t n = dimm ? ARRAY_SIZE(nd_dimm_cmds) : ARRAY_SIZE(nd_bus_cmds);

	if (cmd >= n || (!tbl[cmd].in_hdr && !tbl[cmd].out_fixed))
		return NULL;
	return &tbl[cmd];
}

/* Envelope sizes from the fixed header in @hdr (in_hdr bytes). */
static int nd_cmd_sizes(const struct nd_cmd_layout *l, const void *hdr,
			u64 *in_len, u64 *out_len)
{
	const struct nd_cmd_pkg *pkg = hdr;
	u32 var = 0;

	if (l->var == ND_VAR_IN_LEN || l->var == ND_VAR_OUT_LEN)
		var = get_unaligned((const u32 *)(hdr + 4));

	*in_len = l->in_hdr;
	*out_len = l->out_fixed;
	switch (l->var) {
	case ND_VAR_IN_LEN:
		*in_len += var;
		break;
	case ND_VAR_OUT_LEN:
		*out_len += var;
		break;
	case ND_VAR_PKG:
		if (memchr_inv(pkg->nd_reserved2, 0, sizeof(pkg->nd_reserved2)))
			return -EINVAL;
		*in_len += pkg->nd_size_in;
		*out_len += pkg->nd_size_out;
		break;
	}
	if (*in_len + *out_len > ND_IOCTL_MAX_BUFLEN)
		return -EINVAL;
	return 0;
}

/*
 * Whether the provider can take a command: -ENXIO once the bus is going
 * away (nd_desc may be gone), -ENOTTY when it has no command hook.  The
 * caller holds alive_lock for reading.
 */
static int nd_provider_ready(struct nvdimm_bus *nvdimm_bus)
{
	lockdep_assert_held_read(&nvdimm_bus->alive_lock);
	if (!nvdimm_bus->alive)
		return -ENXIO;
	if (!nvdimm_bus->nd_desc->ndctl)
		return -ENOTTY;
	return 0;
}

/* Call the provider; the caller holds alive_lock for reading. */
static int nd_call_provider(struct nvdimm_bus *nvdimm_bus,
			    struct nvdimm *nvdimm, unsigned int cmd, void *buf,
			    unsigned int len, int *cmd_rc)
{
	struct nvdimm_bus_descriptor *nd_desc = nvdimm_bus->nd_desc;
	int rc;

	rc = nd_provider_ready(nvdimm_bus);
	if (rc)
		return rc;
	mutex_lock(&nvdimm_bus->cmd_lock);
	rc = nd_desc->ndctl(nd_desc, nvdimm, cmd, buf, len, cmd_rc);
	mutex_unlock(&nvdimm_bus->cmd_lock);
	return rc;
}

/**
 * nvdimm_bus_cmd - a kernel-internal bus command to the provider,
 *	serialised with the ioctl path's (the bus's cmd_lock)
 * @nvdimm_bus: the bus
 * @cmd: ND_CMD_* (the bus must offer it)
 * @buf: envelope, input then output
 * @len: envelope bytes
 * @cmd_rc: the firmware's status as an errno
 *
 * Returns what the provider's hook returns, -ENOTTY when the bus does
 * not offer @cmd, -ENXIO when it is going away.
 */
int nvdimm_bus_cmd(struct nvdimm_bus *nvdimm_bus, unsigned int cmd,
		   void *buf, unsigned int len, int *cmd_rc)
{
	int rc;

	if (!test_bit(cmd, &nvdimm_bus->cmd_mask))
		return -ENOTTY;
	down_read(&nvdimm_bus->alive_lock);
	rc = nd_call_provider(nvdimm_bus, NULL, cmd, buf, len, cmd_rc);
	up_read(&nvdimm_bus->alive_lock);
	return rc;
}
EXPORT_SYMBOL_GPL(nvdimm_bus_cmd);

/*
 * nvdimm_config_limits() body; the caller holds alive_lock for reading.
 * @refresh asks the firmware even when the limits are known.
 */
static int __nvdimm_config_limits(struct nvdimm_bus *nvdimm_bus,
				  struct nvdimm *nvdimm, bool refresh)
{
	struct nd_cmd_get_config_size cmd = {};
	int rc, cmd_rc = 0;

	if (!test_bit(ND_CMD_GET_CONFIG_SIZE, &nvdimm->desc.cmd_mask))
		return -ENOTTY;
	rc = nd_provider_ready(nvdimm_bus);
	if (rc)
		return rc;

	mutex_lock(&nvdimm->cfg_lock);
	if (nvdimm->cfg_valid && !refresh) {
		mutex_unlock(&nvdimm->cfg_lock);
		return 0;
	}
	rc = nd_call_provider(nvdimm_bus, nvdimm, ND_CMD_GET_CONFIG_SIZE, &cmd,
			      sizeof(cmd), &cmd_rc);
	if (rc > 0)
		rc = -EIO;
	if (!rc && (cmd_rc || cmd.status))
		rc = cmd_rc ? cmd_rc : -EIO;
	if ((!rc || rc == -EACCES) && (!cmd.max_xfer || !cmd.config_size)) {
		/* a zero transfer size could never make progress */
		dev_dbg(&nvdimm->dev, "implausible label limits size %u xfer %u\n",
			cmd.config_size, cmd.max_xfer);
		rc = -ENXIO;
	}
	/*
	 * -EACCES: the DIMM's capacity is locked; the limits it reported
	 * stand, the labels stay readable (6.1)
	 */
	if (!rc || rc == -EACCES) {
		nvdimm->cfg_size = cmd.config_size;
		nvdimm->cfg_xfer = cmd.max_xfer;
		nvdimm->cfg_valid = true;
	} else if (refresh) {
		nvdimm->cfg_valid = false;
	}
	mutex_unlock(&nvdimm->cfg_lock);
	if (rc)
		dev_dbg(&nvdimm->dev, "label area size unavailable: %d\n", rc);
	return rc;
}

/**
 * nvdimm_config_limits - fetch the label area size and max transfer
 * @nvdimm: the DIMM
 * @refresh: ask the firmware even when the limits are known (at bind:
 *	whether it calls the DIMM locked is news every time)
 *
 * Returns 0 with nvdimm->cfg_size / cfg_xfer valid, -ENOTTY when the DIMM
 * has no label commands or the provider no command hook, -ENXIO when the
 * bus is going away, -EACCES when the firmware calls the DIMM's capacity
 * locked (the limits it reported then stored and valid, as 6.1 keeps
 * them), or the error of the firmware call.
 */
int nvdimm_config_limits(struct nvdimm *nvdimm, bool refresh)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nvdimm->dev);
	int rc;

	down_read(&nvdimm_bus->alive_lock);
	rc = __nvdimm_config_limits(nvdimm_bus, nvdimm, refresh);
	up_read(&nvdimm_bus->alive_lock);
	return rc;
}

/* Largest GET_CONFIG_DATA chunk the core itself asks for. */
#define ND_LABEL_CHUNK_MAX SZ_64K

/**
 * nvdimm_get_config_data - read part of a DIMM's label area
 * @nvdimm: the DIMM
 * @buf: destination, @len bytes
 * @offset: first byte of the area to read
 * @len: bytes to read
 *
 * Issues GET_CONFIG_DATA in chunks of at most the firmware's max_xfer,
 * each under the bus' alive_lock (read) and cmd_lock like every other
 * command.  Returns 0 with @buf filled, -ENOTTY when the DIMM has no
 * label commands, -EINVAL when the range is not inside the area, -ENXIO
 * when the bus is going away, -EIO for a short transfer or a non-zero
 * firmware status, or the provider's error.  On error @buf holds whatever
 * was read before the failing chunk.
 */
int nvdimm_get_config_data(struct nvdimm *nvdimm, void *buf, u32 offset,
			   u32 len)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nvdimm->dev);
	struct nd_cmd_get_config_data_hdr *cmd;
	u8 *dst = buf;
	u32 chunk, n;
	int rc, cmd_rc;

	/* nvdimm_config_limits() answers -ENOTTY for a provider without hook */
	if (!test_bit(ND_CMD_GET_CONFIG_DATA, &nvdimm->desc.cmd_mask))
		return -ENOTTY;
	rc = nvdimm_config_limits(nvdimm, false);
	if (rc)
		return rc;
	if ((u64)offset + len > nvdimm->cfg_size)
		return -EINVAL;

	chunk = min3(nvdimm->cfg_xfer, len, (u32)ND_LABEL_CHUNK_MAX);
	cmd = kvzalloc(sizeof(*cmd) + chunk, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	while (len) {
		n = min(len, chunk);
		cmd->in_offset = offset;
		cmd->in_length = n;
		cmd->status = 0;
		cmd_rc = 0;
		down_read(&nvdimm_bus->alive_lock);
		rc = nd_call_provider(nvdimm_bus, nvdimm,
				      ND_CMD_GET_CONFIG_DATA, cmd,
				      sizeof(*cmd) + n, &cmd_rc);
		up_read(&nvdimm_bus->alive_lock);
		if (rc > 0) {
			dev_dbg(&nvdimm->dev, "label read [%u, +%u): %d bytes short\n",
				offset, n, rc);
			rc = -EIO;
		} else if (!rc && (cmd_rc || cmd->status)) {
			dev_dbg(&nvdimm->dev, "label read [%u, +%u): firmware status %#x\n",
				offset, n, cmd->status);
			rc = cmd_rc ? cmd_rc : -EIO;
		}
		if (rc)
			break;
		memcpy(dst, cmd->out_buf, n);
		dst += n;
		offset += n;
		len -= n;
	}
	kvfree(cmd);
	return rc;
}

/**
 * nvdimm_set_config_data - write part of a DIMM's label area
 * @nvdimm: the DIMM
 * @offset: first byte of the area to write
 * @buf: source, @len bytes
 * @len: bytes to write
 *
 * The kernel's own label updates (label.c) go through here: SET_CONFIG_DATA
 * in chunks of at most max_xfer, each under the bus' alive_lock (read) and
 * cmd_lock.  Returns 0, -ENOTTY when the DIMM cannot write labels, -EINVAL
 * when the range is not inside the area, -ENXIO when the bus is going
 * away, -EIO for a non-zero firmware status, or the provider's error.  On
 * error the chunks before the failing one are on media.
 */
int nvdimm_set_config_data(struct nvdimm *nvdimm, u32 offset, const void *buf,
			   u32 len)
{
	struct nvdimm_bus *nvdimm_bus = walk_to_nvdimm_bus(&nvdimm->dev);
	struct nd_cmd_set_config_hdr *cmd;
	const u8 *src = buf;
	u32 chunk, n;
	int rc, cmd_rc;

	/* nvdimm_config_limits() answers -ENOTTY for a provider without hook */
	if (!test_bit(ND_CMD_SET_CONFIG_DATA, &nvdimm->desc.cmd_mask))
		return -ENOTTY;
	rc = nvdimm_config_limits(nvdimm, false);
	if (rc)
		return rc;
	if (!len || (u64)offset + len > nvdimm->cfg_size)
		return -EINVAL;

	chunk = min3(nvdimm->cfg_xfer, len, (u32)ND_LABEL_CHUNK_MAX);
	/* the firmware's status word follows the data */
	cmd = kvzalloc(sizeof(*cmd) + chunk + sizeof(u32), GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	while (len) {
		u32 status = 0;

		n = min(len, chunk);
		cmd->in_offset = offset;
		cmd->in_length = n;
		memcpy(cmd->in_buf, src, n);
		memset(cmd->in_buf + n, 0, sizeof(status));
		cmd_rc = 0;
		down_read(&nvdimm_bus->alive_lock);
		rc = nd_call_provider(nvdimm_bus, nvdimm,
				      ND_CMD_SET_CONFIG_DATA, cmd,
				      sizeof(*cmd) + n + sizeof(u32), &cmd_rc);
		up_read(&nvdimm_bus->alive_lock);
		memcpy(&status, cmd->in_buf + n, sizeof(status));
		if (rc > 0) {
			dev_dbg(&nvdimm->dev, "label write [%u, +%u): %d bytes short\n",
				offset, n, rc);
			rc = -EIO;
		} else if (!rc && (cmd_rc || status)) {
			dev_dbg(&nvdimm->dev, "label write [%u, +%u): firmware status %#x\n",
				offset, n, status);
			rc = cmd_rc ? cmd_rc : -EIO;
		}
		if (rc)
			break;
		src += n;
		offset += n;
		len -= n;
	}
	kvfree(cmd);
	return rc;
}

/*
 * Label transfers must have a length, stay within max_xfer and start
 * inside the area.  A write must end inside it; a read that runs past
 * the end is served up to the end and reports the rest as a short
 * transfer (*len is clamped): ndctl v47 always asks for whole max_xfer
 * chunks, and QEMU's max_xfer does not divide its area.
 */
static int nd_check_label_xfer(struct nvdimm_bus *nvdimm_bus,
			       struct nvdimm *nvdimm, unsigned int cmd,
			       const void *hdr, u32 *len)
{
	const struct nd_cmd_get_config_data_hdr *xfer = hdr;
	const char *op = cmd == ND_CMD_SET_CONFIG_DATA ? "write" : "read";
	int rc;

	if (cmd != ND_CMD_GET_CONFIG_DATA && cmd != ND_CMD_SET_CONFIG_DATA)
		return 0;

	*len = xfer->in_length;
	if (!xfer->in_length) {
		dev_dbg(&nvdimm->dev, "label %s of length 0\n", op);
		return -EINVAL;
	}
	rc = __nvdimm_config_limits(nvdimm_bus, nvdimm, false);
	/* locked capacity: the limits it reported (stored) bound the transfer */
	if (rc == -EACCES)
		rc = 0;
	if (rc == -ENOTTY) {
		/* no size: nothing to check a transfer against */
		dev_dbg(&nvdimm->dev, "label %s without a label size command\n",
			op);
		return -ENOTTY;
	}
	if (rc)
		return rc;
	if (xfer->in_length > nvdimm->cfg_xfer) {
		dev_dbg(&nvdimm->dev, "label %s length %u over max_xfer %u\n",
			op, xfer->in_length, nvdimm->cfg_xfer);
		return -EINVAL;
	}
	if (xfer->in_offset >= nvdimm->cfg_size ||
	    (cmd == ND_CMD_SET_CONFIG_DATA &&
	     (u64)xfer->in_offset + xfer->in_length > nvdimm->cfg_size)) {
		dev_dbg(&nvdimm->dev, "label %s [%u, +%u) outside area of %u\n",
			op, xfer->in_offset, xfer->in_length, nvdimm->cfg_size);
		return -EINVAL;
	}
	if (cmd == ND_CMD_SET_CONFIG_DATA && atomic_read(&nvdimm->busy)) {
		dev_dbg(&nvdimm->dev, "label write refused: DIMM active\n");
		return -EBUSY;
	}
	*len = min_t(u64, xfer->in_length,
		     (u64)nvdimm->cfg_size - xfer->in_offset);
	return 0;
}

/*
 * Function numbers of the passthrough families (uapi NVDIMM_FAMILY_*,
 * NVDIMM_BUS_FAMILY_*) that 6.1 keeps from userspace.  DIMM families:
 * Intel functions 19-28 are the security set (get security state, set /
 * disable passphrase, unlock, freeze lock, secure erase, overwrite, query
 * overwrite, set master passphrase, master secure erase) and 29-30
 * firmware activation (DIMM info, arm); the Intel set has no function
 * above 31.  Function 6 writes the label area in the Intel and HPE1 sets
 * (MSFT and HYPERV define none; 6.1 treats function 6 of every family as
 * a label write).  Bus families: only NVDIMM_BUS_FAMILY_NFIT passes; the
 * Intel bus family is firmware activation (functions 1, 2).
 */
#define ND_INTEL_FUNC_MAX	31
#define ND_INTEL_DENY_FUNCS	GENMASK_ULL(30, 19)
#define ND_FUNC_LABEL_WRITE	6

/**
 * nd_call_allowed - may userspace pass this function through to firmware?
 * @dimm: a DIMM command (else a bus command)
 * @family: nd_cmd_pkg.nd_family
 * @func: nd_cmd_pkg.nd_command
 * @active: the DIMM is mapped by an enabled region
 * @why: set to the reason when refused
 *
 * Pure: looks at its arguments only.  Returns 0, -EINVAL for a family
 * the uapi does not define, -EOPNOTSUPP for a function that must not come
 * from userspace, -EBUSY for a label write while the kernel owns labels.
 */
static int nd_call_allowed(bool dimm, u64 family, u64 func, bool active,
			   const char **why)
{
	if (family > (dimm ? NVDIMM_FAMILY_MAX : NVDIMM_BUS_FAMILY_MAX)) {
		*why = "unknown family";
		return -EINVAL;
	}
	if (!dimm) {
		if (family == NVDIMM_BUS_FAMILY_NFIT)
			return 0;
		*why = "firmware activation";
		return -EOPNOTSUPP;
	}
	if (family == NVDIMM_FAMILY_INTEL &&
	    (func > ND_INTEL_FUNC_MAX || ND_INTEL_DENY_FUNCS & BIT_ULL(func))) {
		*why = func > ND_INTEL_FUNC_MAX ? "no such function" :
			"security or firmware activation";
		return -EOPNOTSUPP;
	}
	if (func == ND_FUNC_LABEL_WRITE && active) {
		*why = "label write while the DIMM is active";
		return -EBUSY;
	}
	return 0;
}

/*
 * After an ND_CMD_CALL: put the request header back as the user sent it,
 * except for nd_fw_size, the provider's answer; return how many bytes go
 * back to the user: header, input, and the output the firmware filled,
 * never more than nd_size_out (the uapi lets nd_fw_size exceed it, so the
 * caller learns the size it needs).
 */
static u64 nd_call_copy_back(struct device *dev, void *buf,
			     const struct nd_cmd_pkg *req)
{
	struct nd_cmd_pkg *pkg = buf;
	u32 fw_size = pkg->nd_fw_size;

	memcpy(pkg, req, sizeof(*pkg));
	pkg->nd_fw_size = fw_size;
	if (fw_size > req->nd_size_out) {
		dev_dbg(dev, "call %llu.%llu: firmware answered %u bytes, %u returned\n",
			req->nd_family, req->nd_command, fw_size,
			req->nd_size_out);
		fw_size = req->nd_size_out;
	}
	return sizeof(*pkg) + (u64)req->nd_size_in + fw_size;
}

/**
 * nd_cmd_submit - run one ioctl command against a bus or a DIMM
 * @nvdimm_bus: the bus
 * @nvdimm: the DIMM, NULL for bus commands
 * @ioctl_cmd: the ioctl number
 * @arg: the user envelope
 * @read_only: the file was opened without write access
 *
 * Returns what the provider returned (0, or the number of output bytes
 * it did not fill) or a negative errno; 0 for ND_CMD_CALL, whose header
 * says in nd_fw_size how much output there is.
 */
long nd_cmd_submit(struct nvdimm_bus *nvdimm_bus, struct nvdimm *nvdimm,
		   unsigned int ioctl_cmd, void __user *arg, bool read_only)
{
	struct device *dev = nvdimm ? &nvdimm->dev : &nvdimm_bus->dev;
	unsigned long mask;
	unsigned int cmd = _IOC_NR(ioctl_cmd);
	const struct nd_cmd_layout *l;
	u8 hdr[sizeof(struct nd_cmd_pkg)] __aligned(8);
	u64 in_len, out_len, copy_len, unserved = 0;
	struct mutex *cfg_lock = NULL;
	u32 xfer_len = 0;
	const char *why;
	void *buf;
	int rc, cmd_rc = 0;

	if (_IOC_TYPE(ioctl_cmd) != ND_IOCTL)
		return -ENOTTY;
	down_read(&nvdimm_bus->alive_lock);
	rc = nd_provider_ready(nvdimm_bus);
	up_read(&nvdimm_bus->alive_lock);
	if (rc) {
		dev_dbg(dev, "command %u: %s\n", cmd, rc == -ENOTTY ?
			"provider has no command hook" : "bus going away");
		return rc;
	}
	l = nd_cmd_layout(nvdimm, cmd);
	mask = nvdimm ? nvdimm->desc.cmd_mask : nvdimm_bus->cmd_mask;
	if (!l || !test_bit(cmd, &mask)) {
		dev_dbg(dev, "command %u not supported\n", cmd);
		return -ENOTTY;
	}
	if (l->write && read_only) {
		dev_dbg(dev, "command %u needs a writable file\n", cmd);
		return -EPERM;
	}
	if (_IOC_SIZE(ioctl_cmd) < l->in_hdr) {
		dev_dbg(dev, "command %u: ioctl size %u short of header %u\n",
			cmd, _IOC_SIZE(ioctl_cmd), l->in_hdr);
		return -EINVAL;
	}
	if (copy_from_user(hdr, arg, l->in_hdr))
		return -EFAULT;
	rc = nd_cmd_sizes(l, hdr, &in_len, &out_len);
	if (rc) {
		dev_dbg(dev, "command %u: bad envelope\n", cmd);
		return rc;
	}
	if (l->var == ND_VAR_ARS_OUT) {
		u32 want;

		if (_IOC_SIZE(ioctl_cmd) < 8)
			return -EINVAL;
		if (get_user(want, (const u32 __user *)(arg + 4)))
			return -EFAULT;
		if (want < l->out_fixed || want > ND_IOCTL_MAX_BUFLEN) {
			dev_dbg(dev, "command %u: out_length %u out of [%u, %lu]\n",
				cmd, want, l->out_fixed, ND_IOCTL_MAX_BUFLEN);
			return -EINVAL;
		}
		out_len = want;
	}

	/*
	 * Label writes, and DIMM passthrough packages (which may be one:
	 * nd_call_allowed() checks "active" for those), are checked and
	 * issued under reconfig_lock.  Lock order: reconfig_lock, then
	 * alive_lock (as label.c).
	 */
	if (nvdimm && (cmd == ND_CMD_SET_CONFIG_DATA || cmd == ND_CMD_CALL)) {
		cfg_lock = &nvdimm_bus->reconfig_lock;
		mutex_lock(cfg_lock);
	}
	down_read(&nvdimm_bus->alive_lock);
	if (l->var == ND_VAR_PKG) {
		const struct nd_cmd_pkg *pkg = (void *)hdr;

		rc = nd_call_allowed(!!nvdimm, pkg->nd_family, pkg->nd_command,
				     nvdimm && atomic_read(&nvdimm->busy), &why);
		if (rc) {
			dev_dbg(dev, "call %llu.%llu refused (%s): %d\n",
				pkg->nd_family, pkg->nd_command, why, rc);
			goto out_unlock;
		}
	}
	if (nvdimm) {
		rc = nd_check_label_xfer(nvdimm_bus, nvdimm, cmd, hdr,
					 &xfer_len);
		if (rc)
			goto out_unlock;
		if (cmd == ND_CMD_GET_CONFIG_DATA) {
			unserved = out_len - 4 - xfer_len;
			out_len -= unserved;
		}
	}

	buf = kvzalloc(in_len + out_len, GFP_KERNEL);
	if (!buf) {
		rc = -ENOMEM;
		goto out_unlock;
	}
	if (copy_from_user(buf, arg, in_len)) {
		rc = -EFAULT;
		goto out_free;
	}
	/* the header must not change between validation and use */
	if (memcmp(buf, hdr, l->in_hdr)) {
		rc = -EINVAL;
		goto out_free;
	}

	if (unserved)	/* ask the firmware only for what exists */
		put_unaligned((u32)(out_len - 4), (u32 *)(buf + 4));
	if (l->var == ND_VAR_PKG)	/* output: the provider must fill it */
		((struct nd_cmd_pkg *)buf)->nd_fw_size = 0;
	rc = nd_call_provider(nvdimm_bus, nvdimm, cmd, buf, in_len + out_len,
			      &cmd_rc);
	if (rc < 0) {
		dev_dbg(dev, "command %u failed: %d\n", cmd, rc);
		goto out_free;
	}
	/* what userspace cleared is no longer bad (as the core's own clears) */
	if (!nvdimm && cmd == ND_CMD_CLEAR_ERROR && !cmd_rc) {
		const struct nd_cmd_clear_error *ce = buf;

		nvdimm_bus_account_cleared(nvdimm_bus, ce->address,
					   min(ce->cleared, ce->length));
	}
	if (l->var == ND_VAR_PKG) {
		copy_len = nd_call_copy_back(dev, buf, (void *)hdr);
		rc = 0;
	} else {
		memcpy(buf, hdr, l->in_hdr);
		copy_len = in_len + out_len;
		rc += unserved;
	}
	if (copy_to_user(arg, buf, copy_len))
		rc = -EFAULT;
out_free:
	kvfree(buf);
out_unlock:
	up_read(&nvdimm_bus->alive_lock);
	if (cfg_lock)
		mutex_unlock(cfg_lock);
	return rc;
}
