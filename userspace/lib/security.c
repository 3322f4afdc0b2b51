// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * DIMM passphrase security through the kernel's nmemN/security and
 * nmemN/frozen attributes (6.1's ABI, docs/security.md).  The library
 * only sends commands naming keys by serial; creating and keeping the
 * keys is the command line's (ndctl/security.c), as in ndctl 76.1.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "private.h"

/* re-read nmemN/security (it changes under the cached context) */
NDCTL_EXPORT const char *ndctl_dimm_refresh_security(struct ndctl_dimm *dimm)
{
	char buf[ND_ATTR_MAX];

	if (!dimm)
		return NULL;
	dimm->security[0] = 0;
	if (nd_read_attr(dimm->bus->ctx, dimm->path, "security", buf) == 0 &&
	    strlen(buf) < sizeof(dimm->security))
		strcpy(dimm->security, buf);
	return dimm->security[0] ? dimm->security : NULL;
}

NDCTL_EXPORT int ndctl_dimm_security_is_frozen(struct ndctl_dimm *dimm)
{
	unsigned int v;

	if (!dimm || nd_read_uint(dimm->bus->ctx, dimm->path, "frozen", &v))
		return 0;
	return v == 1;
}

/*
 * Write "@op[ @a[ @b]]" (@nargs key ids) to nmemN/security; 0 or -errno.
 */
static int sec_cmd(struct ndctl_dimm *dimm, const char *op, int nargs, long a,
		long b)
{
	char buf[64];
	int rc;

	if (!dimm)
		return -EINVAL;
	if (a < 0 || b < 0)
		return -EINVAL;
	if (nargs == 2)
		snprintf(buf, sizeof(buf), "%s %ld %ld", op, a, b);
	else if (nargs == 1)
		snprintf(buf, sizeof(buf), "%s %ld", op, a);
	else
		snprintf(buf, sizeof(buf), "%s", op);
	rc = nd_write_attr(dimm->bus->ctx, dimm->path, "security", buf);
	dbg(dimm->bus->ctx, "%s: security '%.*s': %d", dimm->devname,
			(int)strcspn(buf, " "), buf, rc);
	ndctl_dimm_refresh_security(dimm);
	return rc;
}

NDCTL_EXPORT int ndctl_dimm_update_passphrase(struct ndctl_dimm *dimm,
		long ckey, long nkey)
{
	return sec_cmd(dimm, "update", 2, ckey, nkey);
}

NDCTL_EXPORT int ndctl_dimm_update_master_passphrase(struct ndctl_dimm *dimm,
		long ckey, long nkey)
{
	return sec_cmd(dimm, "master_update", 2, ckey, nkey);
}

NDCTL_EXPORT int ndctl_dimm_disable_passphrase(struct ndctl_dimm *dimm,
		long key)
{
	return sec_cmd(dimm, "disable", 1, key, 0);
}

/*
 * "disable_master": a kernel after 6.1 only; 6.1's (and ours) refuse the
 * word with -EINVAL (76.1's LIBNDCTL_28 symbol)
 */
NDCTL_EXPORT int ndctl_dimm_disable_master_passphrase(struct ndctl_dimm *dimm,
		long key)
{
	return sec_cmd(dimm, "disable_master", 1, key, 0);
}

NDCTL_EXPORT int ndctl_dimm_freeze_security(struct ndctl_dimm *dimm)
{
	return sec_cmd(dimm, "freeze", 0, 0, 0);
}

NDCTL_EXPORT int ndctl_dimm_secure_erase(struct ndctl_dimm *dimm, long key)
{
	return sec_cmd(dimm, "erase", 1, key, 0);
}

NDCTL_EXPORT int ndctl_dimm_master_secure_erase(struct ndctl_dimm *dimm,
		long key)
{
	return sec_cmd(dimm, "master_erase", 1, key, 0);
}

NDCTL_EXPORT int ndctl_dimm_overwrite(struct ndctl_dimm *dimm, long key)
{
	return sec_cmd(dimm, "overwrite", 1, key, 0);
}

/*
 * Wait until nmemN/security stops reading "overwrite": the kernel
 * notifies the attribute when the overwrite ends; a poll also wakes
 * every second in case the notification was missed.  Returns 1 when an
 * overwrite was waited for, 0 when none ran, or -errno.
 */
NDCTL_EXPORT int ndctl_dimm_wait_overwrite(struct ndctl_dimm *dimm)
{
	char path[PATH_MAX], buf[ND_ATTR_MAX];
	struct pollfd pfd;
	int fd, rc, waited = 0;
	ssize_t n;

	if (!dimm)
		return -EINVAL;
	rc = nd_path(path, sizeof(path), dimm->path, "security");
	if (rc)
		return rc;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	for (;;) {
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n < 0) {
			rc = -errno;
			break;
		}
		buf[n] = 0;
		if (strncmp(buf, "overwrite", 9)) {
			rc = waited;
			break;
		}
		waited = 1;
		pfd.fd = fd;
		pfd.events = POLLPRI | POLLERR;
		pfd.revents = 0;
		if (poll(&pfd, 1, 1000) < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
	}
	close(fd);
	ndctl_dimm_refresh_security(dimm);
	return rc;
}
