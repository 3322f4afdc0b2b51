// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DIMM commands: label storage area access through /dev/nmemN
 * (ND_IOCTL_GET_CONFIG_SIZE / GET_CONFIG_DATA / SET_CONFIG_DATA, chunked by
 * max_xfer), and label index initialisation (media-formats §2).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <asm/byteorder.h>

#include "private.h"
#include "label-format.h"

/* the kernel caps an ioctl envelope at 4 MiB; stay far below */
#define ND_XFER_CAP (128 * 1024)

static struct ndctl_ctx *cmd_ctx(struct ndctl_cmd *cmd)
{
	return cmd->dimm->bus->ctx;
}

static struct ndctl_cmd *cmd_alloc(struct ndctl_dimm *dimm, int type)
{
	struct ndctl_cmd *cmd = calloc(1, sizeof(*cmd));

	if (!cmd)
		return NULL;
	cmd->dimm = dimm;
	cmd->refcount = 1;
	cmd->type = type;
	cmd->status = -EAGAIN;
	return cmd;
}

NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_size(struct ndctl_dimm *dimm)
{
	if (!dimm)
		return NULL;
	if (!ndctl_dimm_is_cmd_supported(dimm, ND_CMD_GET_CONFIG_SIZE)) {
		err(dimm->bus->ctx, "%s: no label area (get_size not supported)",
				dimm->devname);
		return NULL;
	}
	return cmd_alloc(dimm, ND_CMD_GET_CONFIG_SIZE);
}

NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_read(struct ndctl_cmd *cfg_size)
{
	struct ndctl_cmd *cmd;

	if (!cfg_size || cfg_size->type != ND_CMD_GET_CONFIG_SIZE
			|| cfg_size->status != 0 || !cfg_size->config_size) {
		if (cfg_size)
			err(cmd_ctx(cfg_size), "cfg_read needs a completed cfg_size");
		return NULL;
	}
	if (!ndctl_dimm_is_cmd_supported(cfg_size->dimm, ND_CMD_GET_CONFIG_DATA)) {
		err(cmd_ctx(cfg_size), "%s: get_data not supported",
				cfg_size->dimm->devname);
		return NULL;
	}
	cmd = cmd_alloc(cfg_size->dimm, ND_CMD_GET_CONFIG_DATA);
	if (!cmd)
		return NULL;
	cmd->config_size = cfg_size->config_size;
	cmd->max_xfer = cfg_size->max_xfer;
	cmd->offset = 0;
	cmd->len = cmd->config_size;
	cmd->data = calloc(1, cmd->config_size);
	if (!cmd->data) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

/* a write command for the whole area, zero-filled, range [0, size) */
static struct ndctl_cmd *cfg_write_alloc(struct ndctl_dimm *dimm,
		unsigned int config_size, unsigned int max_xfer)
{
	struct ndctl_cmd *cmd;

	if (!ndctl_dimm_is_cmd_supported(dimm, ND_CMD_SET_CONFIG_DATA)) {
		err(dimm->bus->ctx, "%s: set_data not supported", dimm->devname);
		errno = EOPNOTSUPP;
		return NULL;
	}
	cmd = cmd_alloc(dimm, ND_CMD_SET_CONFIG_DATA);
	if (!cmd)
		return NULL;
	cmd->config_size = config_size;
	cmd->max_xfer = max_xfer;
	cmd->offset = 0;
	cmd->len = config_size;
	cmd->data = calloc(1, config_size);
	if (!cmd->data) {
		free(cmd);
		return NULL;
	}
	return cmd;
}

/*
 * Read-modify-write: the write works on the completed read's own buffer
 * (upstream's contract), over the same range; an unsubmitted or failed
 * read would write zeroes.  Sharing it means that what the write sends
 * is always the last read plus every byte set since, through this write
 * or another one built on the same read: a copy taken here went stale
 * when the read was submitted again, and a second write built on the
 * read sent the copy's old bytes over the first write's.
 */
NDCTL_EXPORT struct ndctl_cmd *ndctl_dimm_cmd_new_cfg_write(struct ndctl_cmd *cfg_read)
{
	struct ndctl_cmd *cmd;

	if (!cfg_read || cfg_read->type != ND_CMD_GET_CONFIG_DATA
			|| cfg_read->status != 0) {
		if (cfg_read)
			err(cmd_ctx(cfg_read), "cfg_write needs a completed cfg_read (status %d)",
					cfg_read->status);
		errno = EINVAL;
		return NULL;
	}
	if (!ndctl_dimm_is_cmd_supported(cfg_read->dimm, ND_CMD_SET_CONFIG_DATA)) {
		err(cmd_ctx(cfg_read), "%s: set_data not supported",
				cfg_read->dimm->devname);
		errno = EOPNOTSUPP;
		return NULL;
	}
	cmd = cmd_alloc(cfg_read->dimm, ND_CMD_SET_CONFIG_DATA);
	if (!cmd)
		return NULL;
	cmd->config_size = cfg_read->config_size;
	cmd->max_xfer = cfg_read->max_xfer;
	cmd->offset = cfg_read->offset;
	cmd->len = cfg_read->len;
	cmd->data = cfg_read->data;
	cmd->source = ndctl_cmd_ref(cfg_read);
	return cmd;
}

/* a cfg_write built on a cfg_read uses the read's buffer */
static bool cmd_owns_data(struct ndctl_cmd *cmd)
{
	return !cmd->source || cmd->data != cmd->source->data;
}

NDCTL_EXPORT struct ndctl_cmd *ndctl_cmd_ref(struct ndctl_cmd *cmd)
{
	if (cmd)
		cmd->refcount++;
	return cmd;
}

NDCTL_EXPORT void ndctl_cmd_unref(struct ndctl_cmd *cmd)
{
	if (!cmd || --cmd->refcount > 0)
		return;
	if (cmd_owns_data(cmd))
		free(cmd->data);
	free(cmd->buf);
	ndctl_cmd_unref(cmd->source);
	free(cmd);
}

NDCTL_EXPORT int ndctl_cmd_get_type(struct ndctl_cmd *cmd)
{
	return cmd ? cmd->type : 0;
}

NDCTL_EXPORT int ndctl_cmd_get_status(struct ndctl_cmd *cmd)
{
	return cmd ? cmd->status : -EINVAL;
}

NDCTL_EXPORT unsigned int ndctl_cmd_get_firmware_status(struct ndctl_cmd *cmd)
{
	return cmd ? cmd->fw_status : UINT_MAX;
}

NDCTL_EXPORT int ndctl_cmd_cfg_set_range(struct ndctl_cmd *cmd,
		unsigned int offset, unsigned int len)
{
	if (!cmd || (cmd->type != ND_CMD_GET_CONFIG_DATA
				&& cmd->type != ND_CMD_SET_CONFIG_DATA))
		return -EINVAL;
	if (offset > cmd->config_size || len > cmd->config_size - offset) {
		err(cmd_ctx(cmd), "%s: range %#x+%#x outside the %#x byte label area",
				cmd->dimm->devname, offset, len, cmd->config_size);
		return -EINVAL;
	}
	cmd->offset = offset;
	cmd->len = len;
	return 0;
}

/* open /dev/nmemN and check it is the char device sysfs describes (§1.7) */
static int dimm_open(struct ndctl_dimm *dimm)
{
	struct ndctl_ctx *ctx = dimm->bus->ctx;
	char path[PATH_MAX];
	struct stat st;
	int fd, rc;

	rc = nd_path(path, sizeof(path), ctx->dev_root, dimm->devname);
	if (rc)
		return rc;
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		err(ctx, "%s: cannot open %s: %s", dimm->devname, path,
				strerror(errno));
		return rc;
	}
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)
			|| major(st.st_rdev) != dimm->major
			|| minor(st.st_rdev) != dimm->minor) {
		err(ctx, "%s: %s is not char device %u:%u", dimm->devname, path,
				dimm->major, dimm->minor);
		close(fd);
		return -ENXIO;
	}
	return fd;
}

static int submit_cfg_size(struct ndctl_cmd *cmd, int fd)
{
	struct nd_cmd_get_config_size s;
	int rc;

	memset(&s, 0, sizeof(s));
	rc = ioctl(fd, ND_IOCTL_GET_CONFIG_SIZE, &s);
	if (rc < 0) {
		rc = -errno;
		err(cmd_ctx(cmd), "%s: get_size failed: %s", cmd->dimm->devname,
				strerror(errno));
		cmd->status = rc;
		return rc;
	}
	cmd->fw_status = s.status;
	if (rc > 0 || s.status) {
		err(cmd_ctx(cmd), "%s: get_size incomplete (rc %d, status %#x)",
				cmd->dimm->devname, rc, s.status);
		cmd->status = rc > 0 ? rc : 1;
		return -EIO;
	}
	if (!s.config_size || !s.max_xfer) {
		err(cmd_ctx(cmd), "%s: label area size %u, max transfer %u",
				cmd->dimm->devname, s.config_size, s.max_xfer);
		cmd->status = -ENXIO;
		return -ENXIO;
	}
	cmd->config_size = s.config_size;
	cmd->max_xfer = s.max_xfer;
	cmd->status = 0;
	return 0;
}

static int submit_cfg_read(struct ndctl_cmd *cmd, int fd)
{
	unsigned int xfer = cmd->max_xfer < ND_XFER_CAP ? cmd->max_xfer : ND_XFER_CAP;
	struct nd_cmd_get_config_data_hdr *hdr;
	unsigned int off, end = cmd->offset + cmd->len;
	int rc = 0;

	hdr = malloc(sizeof(*hdr) + xfer);
	if (!hdr)
		return -ENOMEM;
	for (off = cmd->offset; off < end; off += xfer) {
		unsigned int len = end - off < xfer ? end - off : xfer;

		memset(hdr, 0, sizeof(*hdr));
		hdr->in_offset = off;
		hdr->in_length = len;
		rc = ioctl(fd, ND_IOCTL_GET_CONFIG_DATA, hdr);
		if (rc < 0) {
			rc = -errno;
			err(cmd_ctx(cmd), "%s: get_data at %#x failed: %s",
					cmd->dimm->devname, off, strerror(errno));
			cmd->status = rc;
			break;
		}
		cmd->fw_status = hdr->status;
		if (rc > 0 || hdr->status) {
			err(cmd_ctx(cmd), "%s: get_data at %#x+%#x short (rc %d, status %#x)",
					cmd->dimm->devname, off, len, rc, hdr->status);
			cmd->status = end - off - (rc > 0 && (unsigned)rc < len ? len - rc : 0);
			if (cmd->status <= 0)
				cmd->status = 1;
			rc = -EIO;
			break;
		}
		memcpy(cmd->data + off, hdr->out_buf, len);
	}
	if (rc == 0)
		cmd->status = 0;
	free(hdr);
	return rc;
}

static int submit_cfg_write(struct ndctl_cmd *cmd, int fd)
{
	unsigned int xfer = cmd->max_xfer < ND_XFER_CAP ? cmd->max_xfer : ND_XFER_CAP;
	struct nd_cmd_set_config_hdr *hdr;
	unsigned int off, end = cmd->offset + cmd->len;
	int rc = 0;

	hdr = malloc(sizeof(*hdr) + xfer + sizeof(uint32_t));
	if (!hdr)
		return -ENOMEM;
	for (off = cmd->offset; off < end; off += xfer) {
		unsigned int len = end - off < xfer ? end - off : xfer;
		uint32_t status;

		hdr->in_offset = off;
		hdr->in_length = len;
		memcpy(hdr->in_buf, cmd->data + off, len);
		memset(hdr->in_buf + len, 0, sizeof(status));
		rc = ioctl(fd, ND_IOCTL_SET_CONFIG_DATA, hdr);
		if (rc < 0) {
			rc = -errno;
			err(cmd_ctx(cmd), "%s: set_data at %#x failed: %s",
					cmd->dimm->devname, off, strerror(errno));
			cmd->status = rc;
			break;
		}
		memcpy(&status, hdr->in_buf + len, sizeof(status));
		cmd->fw_status = status;
		if (rc > 0 || status) {
			err(cmd_ctx(cmd), "%s: set_data at %#x+%#x failed (rc %d, status %#x)",
					cmd->dimm->devname, off, len, rc, status);
			cmd->status = end - off;
			rc = -EIO;
			break;
		}
	}
	if (rc == 0)
		cmd->status = 0;
	free(hdr);
	return rc;
}

NDCTL_EXPORT int ndctl_cmd_submit(struct ndctl_cmd *cmd)
{
	int fd, rc;

	if (!cmd)
		return -EINVAL;
	if (!cmd->dimm)
		return nd_bus_cmd_submit(cmd);
	fd = dimm_open(cmd->dimm);
	if (fd < 0) {
		cmd->status = fd;
		return fd;
	}
	switch (cmd->type) {
	case ND_CMD_GET_CONFIG_SIZE:
		rc = submit_cfg_size(cmd, fd);
		break;
	case ND_CMD_GET_CONFIG_DATA:
		rc = submit_cfg_read(cmd, fd);
		break;
	case ND_CMD_SET_CONFIG_DATA:
		rc = submit_cfg_write(cmd, fd);
		break;
	case ND_CMD_CALL:
		rc = nd_dimm_call_submit(cmd, fd);
		break;
	default:
		rc = -EOPNOTSUPP;
	}
	close(fd);
	return rc;
}

NDCTL_EXPORT unsigned int ndctl_cmd_cfg_size_get_size(struct ndctl_cmd *cfg_size)
{
	if (!cfg_size || cfg_size->type != ND_CMD_GET_CONFIG_SIZE
			|| cfg_size->status != 0)
		return 0;
	return cfg_size->config_size;
}

NDCTL_EXPORT unsigned int ndctl_cmd_cfg_size_get_max_xfer(struct ndctl_cmd *cfg_size)
{
	if (!cfg_size || cfg_size->type != ND_CMD_GET_CONFIG_SIZE
			|| cfg_size->status != 0)
		return 0;
	return cfg_size->max_xfer;
}

NDCTL_EXPORT ssize_t ndctl_cmd_cfg_read_get_data(struct ndctl_cmd *cfg_read,
		void *buf, unsigned int len, unsigned int offset)
{
	if (!cfg_read || !buf || cfg_read->type != ND_CMD_GET_CONFIG_DATA)
		return -EINVAL;
	if (cfg_read->status != 0)
		return cfg_read->status < 0 ? cfg_read->status : -EIO;
	if (offset > cfg_read->config_size || len > cfg_read->config_size - offset)
		return -EINVAL;
	memcpy(buf, cfg_read->data + offset, len);
	return len;
}

NDCTL_EXPORT ssize_t ndctl_cmd_cfg_write_set_data(struct ndctl_cmd *cfg_write,
		void *buf, unsigned int len, unsigned int offset)
{
	if (!cfg_write || !buf || cfg_write->type != ND_CMD_SET_CONFIG_DATA)
		return -EINVAL;
	if (offset > cfg_write->config_size || len > cfg_write->config_size - offset)
		return -EINVAL;
	memcpy(cfg_write->data + offset, buf, len);
	return len;
}

NDCTL_EXPORT ssize_t ndctl_cmd_cfg_write_zero_data(struct ndctl_cmd *cfg_write)
{
	if (!cfg_write || cfg_write->type != ND_CMD_SET_CONFIG_DATA)
		return -EINVAL;
	memset(cfg_write->data, 0, cfg_write->config_size);
	return cfg_write->config_size;
}

/* ------------------------------------------------------------------ */
/* convenience                                                         */

NDCTL_EXPORT int ndctl_dimm_get_config_size(struct ndctl_dimm *dimm,
		unsigned int *size, unsigned int *max_xfer)
{
	struct ndctl_cmd *cmd = ndctl_dimm_cmd_new_cfg_size(dimm);
	int rc;

	if (!cmd)
		return dimm ? -EOPNOTSUPP : -EINVAL;
	rc = ndctl_cmd_submit(cmd);
	if (rc == 0) {
		if (size)
			*size = cmd->config_size;
		if (max_xfer)
			*max_xfer = cmd->max_xfer;
	}
	ndctl_cmd_unref(cmd);
	return rc;
}

/* a cfg_read command for [offset, offset+len) (or the whole area), submitted */
static struct ndctl_cmd *read_range(struct ndctl_dimm *dimm, bool whole,
		unsigned int offset, unsigned int len, int *rcp)
{
	struct ndctl_cmd *size, *rd;
	int rc;

	size = ndctl_dimm_cmd_new_cfg_size(dimm);
	if (!size) {
		*rcp = -EOPNOTSUPP;
		return NULL;
	}
	rc = ndctl_cmd_submit(size);
	if (rc) {
		ndctl_cmd_unref(size);
		*rcp = rc;
		return NULL;
	}
	rd = ndctl_dimm_cmd_new_cfg_read(size);
	ndctl_cmd_unref(size);
	if (!rd) {
		*rcp = -ENOMEM;
		return NULL;
	}
	if (whole) {
		offset = 0;
		len = rd->config_size;
	}
	/* bounded by the area, overflow-safe: -EINVAL, nothing read */
	rc = ndctl_cmd_cfg_set_range(rd, offset, len);
	if (!rc)
		rc = ndctl_cmd_submit(rd);
	if (rc) {
		ndctl_cmd_unref(rd);
		*rcp = rc;
		return NULL;
	}
	*rcp = 0;
	return rd;
}

NDCTL_EXPORT int ndctl_dimm_read_label_area(struct ndctl_dimm *dimm, void *buf,
		unsigned int offset, unsigned int len)
{
	struct ndctl_cmd *rd;
	int rc;

	if (!dimm || !buf)
		return -EINVAL;
	rd = read_range(dimm, false, offset, len, &rc);
	if (!rd)
		return rc;
	memcpy(buf, rd->data + offset, len);
	ndctl_cmd_unref(rd);
	return 0;
}

static int dimm_idle_check(struct ndctl_dimm *dimm)
{
	if (ndctl_dimm_is_active(dimm)) {
		err(dimm->bus->ctx, "%s: active, disable the regions that use it",
				dimm->devname);
		return -EBUSY;
	}
	return 0;
}

/* the kernel caches labels when the DIMM binds: re-read them */
static int dimm_rebind(struct ndctl_dimm *dimm)
{
	int rc;

	if (!ndctl_dimm_is_enabled(dimm))
		return 0;
	rc = nd_unbind(dimm->bus->ctx, dimm->path, dimm->devname);
	if (rc)
		return rc;
	return ndctl_dimm_enable(dimm);
}

/* write [offset, offset+len) (or the whole area) from buf, or zeroes */
static int write_range(struct ndctl_dimm *dimm, const void *buf, bool whole,
		unsigned int offset, unsigned int len)
{
	struct ndctl_cmd *size, *wr;
	int rc;

	size = ndctl_dimm_cmd_new_cfg_size(dimm);
	if (!size)
		return -EOPNOTSUPP;
	rc = ndctl_cmd_submit(size);
	if (rc) {
		ndctl_cmd_unref(size);
		return rc;
	}
	wr = cfg_write_alloc(dimm, size->config_size, size->max_xfer);
	ndctl_cmd_unref(size);
	if (!wr)
		return -EOPNOTSUPP;
	if (whole) {
		offset = 0;
		len = wr->config_size;
	}
	/* bounded by the area, overflow-safe: -EINVAL, nothing written */
	rc = ndctl_cmd_cfg_set_range(wr, offset, len);
	if (!rc) {
		if (buf)
			memcpy(wr->data + offset, buf, len);
		rc = ndctl_cmd_submit(wr);
	}
	ndctl_cmd_unref(wr);
	return rc;
}

NDCTL_EXPORT int ndctl_dimm_write_label_area(struct ndctl_dimm *dimm,
		const void *buf, unsigned int offset, unsigned int len)
{
	int rc;

	if (!dimm || !buf)
		return -EINVAL;
	rc = dimm_idle_check(dimm);
	if (rc)
		return rc;
	return write_range(dimm, buf, false, offset, len);
}

NDCTL_EXPORT int ndctl_dimm_zero_labels(struct ndctl_dimm *dimm)
{
	int rc;

	if (!dimm)
		return -EINVAL;
	if (!ndctl_dimm_has_labels_support(dimm)) {
		err(dimm->bus->ctx, "%s: no label commands", dimm->devname);
		return -EOPNOTSUPP;
	}
	rc = dimm_idle_check(dimm);
	if (rc)
		return rc;
	rc = write_range(dimm, NULL, true, 0, 0);
	if (rc)
		return rc;
	return dimm_rebind(dimm);
}

/* ------------------------------------------------------------------ */
/* label index blocks: kernel/nvdimm/label-format.c (media-formats §2)  */

NDCTL_EXPORT int ndctl_dimm_get_label_version(struct ndctl_dimm *dimm)
{
	struct ndctl_cmd *rd;
	struct nd_lsa lsa;
	int rc;

	if (!dimm)
		return -EINVAL;
	rd = read_range(dimm, true, 0, 0, &rc);
	if (!rd)
		return rc;
	lsa.area = rd->data;
	lsa.size = rd->config_size;
	rc = 0;
	if (nd_lsa_validate(&lsa) >= 0)
		rc = 10 + le16_to_cpu(nd_lsa_index(&lsa, lsa.cur)->minor);
	ndctl_cmd_unref(rd);
	return rc;
}

NDCTL_EXPORT int ndctl_dimm_init_labels(struct ndctl_dimm *dimm,
		enum ndctl_label_version v)
{
	unsigned int config_size, max_xfer, lsize, isize, nslot;
	struct ndctl_ctx *ctx;
	struct nd_lsa lsa;
	int rc;

	if (!dimm)
		return -EINVAL;
	ctx = dimm->bus->ctx;
	if (v == NDCTL_LABEL_V1_1) {
		lsize = ND_LSA_LABEL_V11;
	} else if (v == NDCTL_LABEL_V1_2) {
		lsize = ND_LSA_LABEL_V12;
	} else {
		err(ctx, "%s: unknown label version %d", dimm->devname, v);
		return -EINVAL;
	}
	rc = dimm_idle_check(dimm);
	if (rc)
		return rc;
	rc = ndctl_dimm_get_config_size(dimm, &config_size, &max_xfer);
	if (rc)
		return rc;
	/* ndctl's layout for both versions: the modern formula */
	isize = nd_lsa_index_size(config_size, lsize);
	if (!isize) {
		err(ctx, "%s: label area of %u bytes too small", dimm->devname,
				config_size);
		return -ENOSPC;
	}
	nslot = nd_lsa_nslot(config_size, lsize);
	lsa.area = calloc(1, config_size);
	if (!lsa.area)
		return -ENOMEM;
	lsa.size = config_size;
	rc = nd_lsa_init_layout(&lsa, isize, lsize, nslot);
	if (!rc)
		rc = write_range(dimm, lsa.area, false, 0, 2 * isize);
	free(lsa.area);
	if (rc)
		return rc;
	info(ctx, "%s: v1.%d index, %u slots of %u bytes", dimm->devname,
			lsize == ND_LSA_LABEL_V12 ? 2 : 1, nslot, lsize);
	return dimm_rebind(dimm);
}
