// SPDX-License-Identifier: LGPL-2.1-or-later
/* sysfs attribute access with the conventions of sysfs-abi §1 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/ndctl.h>

#include "private.h"

char *nd_strdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

/* dir + "/" + name into out; -ENAMETOOLONG instead of truncating */
int nd_path(char *out, size_t len, const char *dir, const char *name)
{
	int n = snprintf(out, len, "%s/%s", dir, name);

	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * One read() of at most ND_ATTR_MAX bytes; a value that fills the buffer is
 * a failure (-EFBIG).  Exactly one trailing newline is stripped.
 */
int nd_read_file(struct ndctl_ctx *ctx, const char *path, char *buf)
{
	ssize_t n;
	size_t l;
	int fd;

	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int rc = -errno;

		dbg(ctx, "open %s: %s", path, strerror(errno));
		return rc;
	}
	n = read(fd, buf, ND_ATTR_MAX);
	if (n < 0) {
		int rc = -errno;

		dbg(ctx, "read %s: %s", path, strerror(errno));
		close(fd);
		return rc;
	}
	close(fd);
	if (n >= ND_ATTR_MAX) {
		buf[0] = '\0';
		dbg(ctx, "%s: value of %d bytes or more", path, ND_ATTR_MAX);
		return -EFBIG;
	}
	buf[n] = '\0';
	l = strlen(buf);
	if (l && buf[l - 1] == '\n')
		buf[l - 1] = '\0';
	return 0;
}

int nd_read_attr(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		char *buf)
{
	char path[PATH_MAX];
	int rc = nd_path(path, sizeof(path), dir, attr);

	if (rc) {
		buf[0] = '\0';
		dbg(ctx, "%s/%s: path too long", dir, attr);
		return rc;
	}
	return nd_read_file(ctx, path, buf);
}

/* writes strlen(val) + 1 bytes: the NUL is part of the write (§1.2) */
int nd_write_attr(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		const char *val)
{
	char path[PATH_MAX];
	size_t len = strlen(val) + 1;
	ssize_t n;
	int fd, rc;

	rc = nd_path(path, sizeof(path), dir, attr);
	if (rc) {
		err(ctx, "%s/%s: path too long", dir, attr);
		return rc;
	}
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0) {
		rc = -errno;
		dbg(ctx, "open %s: %s", path, strerror(errno));
		return rc;
	}
	n = write(fd, val, len);
	if (n < 0) {
		rc = -errno;
		dbg(ctx, "write %s: %s", path, strerror(errno));
	} else if ((size_t)n < len) {
		rc = -EIO;
		dbg(ctx, "write %s: short write %zd of %zu", path, n, len);
	}
	close(fd);
	return rc;
}

/* decimal or 0x hex; nothing but whitespace may follow */
int nd_parse_ull(const char *s, unsigned long long *val)
{
	char *end;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 0);
	if (errno)
		return -ERANGE;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	return 0;
}

int nd_parse_uint(const char *s, unsigned int *val)
{
	unsigned long long v;
	int rc = nd_parse_ull(s, &v);

	if (rc)
		return rc;
	if (v > UINT_MAX)
		return -ERANGE;
	*val = v;
	return 0;
}

int nd_parse_int(const char *s, int *val)
{
	char *end;
	long v;

	if (!s)
		return -EINVAL;
	while (isspace((unsigned char)*s))
		s++;
	if (!isdigit((unsigned char)*s) && *s != '-')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 0);
	if (errno || v < INT_MIN || v > INT_MAX)
		return -ERANGE;
	while (isspace((unsigned char)*end))
		end++;
	if (*end || end == s)
		return -EINVAL;
	*val = v;
	return 0;
}

int nd_read_ull(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		unsigned long long *val)
{
	char buf[ND_ATTR_MAX];
	int rc = nd_read_attr(ctx, dir, attr, buf);

	if (rc)
		return rc;
	rc = nd_parse_ull(buf, val);
	if (rc)
		dbg(ctx, "%s/%s: not a number: '%.40s'", dir, attr, buf);
	return rc;
}

int nd_read_uint(struct ndctl_ctx *ctx, const char *dir, const char *attr,
		unsigned int *val)
{
	unsigned long long v;
	int rc = nd_read_ull(ctx, dir, attr, &v);

	if (rc)
		return rc;
	if (v > UINT_MAX)
		return -ERANGE;
	*val = v;
	return 0;
}

/* "<prefix><decimal>" exactly, e.g. nmem12 */
int nd_parse_devname_id(const char *name, const char *prefix,
		unsigned int *id)
{
	size_t pl = strlen(prefix);
	unsigned long long v = 0;
	const char *p;

	if (strncmp(name, prefix, pl) != 0)
		return -EINVAL;
	p = name + pl;
	if (!*p || strlen(p) > 10)
		return -EINVAL;
	for (; *p; p++) {
		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		v = v * 10 + (*p - '0');
	}
	if (v > INT_MAX)
		return -ERANGE;
	*id = v;
	return 0;
}

/* "<prefix><region_id>.<n>", the region id must be the parent's (§1.4) */
int nd_parse_child_id(const char *name, const char *prefix,
		unsigned int region_id, unsigned int *id)
{
	char want[64];
	int n = snprintf(want, sizeof(want), "%s%u.", prefix, region_id);

	if (n < 0 || (size_t)n >= sizeof(want))
		return -EINVAL;
	if (strncmp(name, want, n) != 0)
		return -EINVAL;
	return nd_parse_devname_id(name + n, "", id);
}

/* "512 [4096] \n"-style lists: every token ends with a space (§1.3) */
int nd_parse_sector_sizes(const char *buf, struct sector_sizes *ss)
{
	const char *p = buf;

	memset(ss, 0, sizeof(*ss));
	while (*p) {
		const char *sp = strchr(p, ' ');
		char tok[32];
		size_t tl;
		bool cur = false;
		unsigned int v;

		if (!sp)
			break;	/* last token without trailing space: ignored */
		tl = sp - p;
		if (tl == 0) {
			p = sp + 1;
			continue;
		}
		if (tl >= sizeof(tok))
			return -EINVAL;
		memcpy(tok, p, tl);
		tok[tl] = '\0';
		if (tok[0] == '[' && tl > 2 && tok[tl - 1] == ']') {
			cur = true;
			memmove(tok, tok + 1, tl - 2);
			tok[tl - 2] = '\0';
		}
		if (nd_parse_uint(tok, &v) || v == 0)
			return -EINVAL;
		if (ss->num >= ND_SECTOR_SIZES_MAX)
			return -E2BIG;
		ss->sizes[ss->num++] = v;
		if (cur)
			ss->current = v;
		p = sp + 1;
	}
	return 0;
}

static const char *const bus_cmd_names[] = {
	[ND_CMD_ARS_CAP] = "ars_cap",
	[ND_CMD_ARS_START] = "ars_start",
	[ND_CMD_ARS_STATUS] = "ars_status",
	[ND_CMD_CLEAR_ERROR] = "clear_error",
	[ND_CMD_CALL] = "cmd_call",
};

static const char *const dimm_cmd_names[] = {
	[ND_CMD_SMART] = "smart",
	[ND_CMD_SMART_THRESHOLD] = "smart_thresh",
	[ND_CMD_DIMM_FLAGS] = "flags",
	[ND_CMD_GET_CONFIG_SIZE] = "get_size",
	[ND_CMD_GET_CONFIG_DATA] = "get_data",
	[ND_CMD_SET_CONFIG_DATA] = "set_data",
	[ND_CMD_VENDOR_EFFECT_LOG_SIZE] = "effect_size",
	[ND_CMD_VENDOR_EFFECT_LOG] = "effect_log",
	[ND_CMD_VENDOR] = "vendor",
	[ND_CMD_CALL] = "cmd_call",
};

const char *nd_cmd_name(int cmd, bool dimm)
{
	const char *const *t = dimm ? dimm_cmd_names : bus_cmd_names;
	int n = dimm ? (int)(sizeof(dimm_cmd_names) / sizeof(char *))
		: (int)(sizeof(bus_cmd_names) / sizeof(char *));

	if (cmd < 0 || cmd >= n)
		return NULL;
	return t[cmd];
}

/* only tokens followed by a space count, like both ndctl versions */
unsigned long long nd_parse_cmd_mask(const char *buf, bool dimm)
{
	unsigned long long mask = 0;
	const char *p = buf;

	while (*p) {
		const char *sp = strchr(p, ' ');
		size_t tl;
		int i;

		if (!sp)
			break;
		tl = sp - p;
		for (i = 0; i < 64 && tl; i++) {
			const char *name = nd_cmd_name(i, dimm);

			if (name && strlen(name) == tl && !strncmp(name, p, tl))
				mask |= 1ULL << i;
			if (!name && i > ND_CMD_CALL)
				break;
		}
		p = sp + 1;
	}
	return mask;
}

/* enabled <=> a "driver" symlink in the device directory (§1.5) */
int nd_is_bound(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	if (nd_path(path, sizeof(path), dir, "driver"))
		return 0;
	if (lstat(path, &st) < 0)
		return 0;
	return S_ISLNK(st.st_mode) ? 1 : 0;
}

/* the single entry of <dir>/block, 0 on success */
int nd_single_block_device(const char *dir, char *out, size_t len)
{
	char path[PATH_MAX];
	struct dirent *de;
	int count = 0;
	DIR *d;

	out[0] = '\0';
	if (nd_path(path, sizeof(path), dir, "block"))
		return -ENAMETOOLONG;
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		count++;
		if (count == 1 && strlen(de->d_name) < len)
			strcpy(out, de->d_name);
	}
	closedir(d);
	if (count != 1 || !out[0]) {
		out[0] = '\0';
		return -ENXIO;
	}
	return 0;
}

/* nd_bind()'s error line: no driver took @devname (its modalias named) */
void nd_bind_failed(struct ndctl_ctx *ctx, const char *dir, const char *devname)
{
	char alias[ND_ATTR_MAX];

	if (nd_read_attr(ctx, dir, "modalias", alias))
		alias[0] = '\0';
	err(ctx, "%s: no driver could bind it%s%s%s", devname,
			alias[0] ? " (modalias " : "", alias,
			alias[0] ? ")" : "");
}

int nd_bind(struct ndctl_ctx *ctx, const char *dir, const char *devname)
{
	int rc = nd_bind_quiet(ctx, dir, devname);

	if (rc)
		nd_bind_failed(ctx, dir, devname);
	return rc;
}

/*
 * Offer @devname to each driver of the nd bus until one binds it: 0 if
 * it ends up bound, else -ENXIO (nothing logged: a namespace a btt
 * claimed at probe is no error)
 */
int nd_bind_quiet(struct ndctl_ctx *ctx, const char *dir, const char *devname)
{
	char drvdir[PATH_MAX], path[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int rc;

	rc = nd_path(drvdir, sizeof(drvdir), ctx->sysfs_root, "bus/nd/drivers");
	if (rc)
		return rc;
	d = opendir(drvdir);
	if (!d) {
		rc = -errno;
		err(ctx, "%s: cannot open %s: %s", devname, drvdir,
				strerror(errno));
		return rc;
	}
	rc = -ENXIO;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (nd_path(path, sizeof(path), drvdir, de->d_name))
			continue;
		if (nd_write_attr(ctx, path, "bind", devname) == 0) {
			dbg(ctx, "%s: bound by driver %s", devname, de->d_name);
			rc = 0;
			break;
		}
	}
	closedir(d);
	/*
	 * Bound is what counts, as for 76.1 (its enable checks is_enabled
	 * after the bind): the module load_module_for() just inserted binds
	 * every matching device while its driver registers (dax_pmem on the
	 * first devdax namespace), and then each write above fails (EBUSY)
	 * on a device that is bound all the same.
	 */
	if (rc && nd_is_bound(dir)) {
		dbg(ctx, "%s: bound when its driver registered", devname);
		rc = 0;
	}
	if (rc == 0 && !nd_is_bound(dir))
		rc = -ENXIO;
	return rc;
}

int nd_unbind(struct ndctl_ctx *ctx, const char *dir, const char *devname)
{
	char path[PATH_MAX];
	int rc;

	if (!nd_is_bound(dir))
		return 0;
	rc = nd_path(path, sizeof(path), dir, "driver");
	if (rc)
		return rc;
	rc = nd_write_attr(ctx, path, "unbind", devname);
	if (rc) {
		err(ctx, "%s: unbind failed: %s", devname, strerror(-rc));
		return rc;
	}
	if (nd_is_bound(dir)) {
		err(ctx, "%s: still bound after unbind", devname);
		return -EBUSY;
	}
	return 0;
}
