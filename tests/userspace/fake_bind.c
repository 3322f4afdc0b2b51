// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host-test stand-in for driver binding on a fake sysfs tree.  Linked into
 * ndctl-fakeio, and active only when FAKE_BIND is set: a write of DEVNAME
 * to .../bus/nd/drivers/DRV/bind makes DEVNAME's "driver" link point at
 * DRV (EBUSY if it has one), a write to .../unbind removes the link.  The
 * device directory is looked up under $NDCTL_SYSFS_ROOT/devices.  Nothing
 * else a kernel does on bind (seeds, block devices, DIMM state) happens.
 * With FAKE_BIND_RACE also set, a bind that would succeed binds the device
 * and fails with EBUSY: what the kernel answers when the driver's module,
 * just loaded, bound the device while registering (dax_pmem on the first
 * devdax namespace of a boot), before the write.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char found[PATH_MAX];
static char wanted[NAME_MAX + 1];

static int find_dev(const char *path, const struct stat *st, int flag,
		struct FTW *f)
{
	if (flag == FTW_D && !strcmp(path + f->base, wanted)) {
		snprintf(found, sizeof(found), "%s", path);
		return 1;
	}
	return 0;
}

/* 0: not a bind/unbind file (write it); 1: emulated; -1: failed (errno) */
static int fake_bind(int fd, const char *buf, size_t len)
{
	char link[64], path[PATH_MAX], devs[PATH_MAX], drvlink[PATH_MAX + 8];
	const char *root = getenv("NDCTL_SYSFS_ROOT"), *base;
	char *drv;
	ssize_t n;
	bool bind;

	if (!getenv("FAKE_BIND") || !root)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return 0;
	path[n] = '\0';
	base = strrchr(path, '/');
	if (!base || !strstr(path, "/bus/nd/drivers/"))
		return 0;
	if (!strcmp(base, "/bind"))
		bind = true;
	else if (!strcmp(base, "/unbind"))
		bind = false;
	else
		return 0;
	path[base - path] = '\0';	/* the driver's directory */
	drv = path;
	len = strnlen(buf, len);
	while (len && buf[len - 1] == '\n')
		len--;
	if (!len || len > NAME_MAX) {
		errno = EINVAL;
		return -1;
	}
	memcpy(wanted, buf, len);
	wanted[len] = '\0';
	found[0] = '\0';
	snprintf(devs, sizeof(devs), "%s/devices", root);
	nftw(devs, find_dev, 16, FTW_PHYS);
	if (!found[0]) {
		errno = ENODEV;
		return -1;
	}
	snprintf(drvlink, sizeof(drvlink), "%s/driver", found);
	if (bind) {
		if (symlink(drv, drvlink) < 0) {
			errno = errno == EEXIST ? EBUSY : errno;
			return -1;
		}
		if (getenv("FAKE_BIND_RACE")) {
			errno = EBUSY;
			return -1;
		}
	} else if (unlink(drvlink) < 0) {
		errno = ENODEV;
		return -1;
	}
	return 1;
}

ssize_t write(int fd, const void *buf, size_t len)
{
	int rc = fake_bind(fd, buf, len);

	if (rc > 0)
		return len;
	if (rc < 0)
		return -1;
	return syscall(SYS_write, fd, buf, len);
}
