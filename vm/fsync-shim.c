// SPDX-License-Identifier: GPL-2.0
/*
 * fsync-shim: LD_PRELOADed into QEMU by the harness (platform "legacy").
 * QEMU answers a virtio-pmem flush request by fsync()ing the device's
 * backing file; this shim makes those fsyncs visible to, and failable
 * by, the guest through its /out share (NVT_FSYNC_DIR, the host side):
 *
 *   NVT_FSYNC_DIR/fsync-count  the number of fsyncs of the backing file
 *                              so far, rewritten after each one
 *   NVT_FSYNC_DIR/fsync-fail   while it exists, such an fsync fails with
 *                              EIO without syncing (a host whose disk
 *                              failed or filled up)
 *
 * Only descriptors whose path contains NVT_FSYNC_MATCH are affected;
 * every other fsync (QEMU's own, 9p's) goes to libc untouched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long count;

static int matches(int fd)
{
	const char *m = getenv("NVT_FSYNC_MATCH");
	char link[64], path[PATH_MAX];
	ssize_t n;

	if (!m || !*m || !getenv("NVT_FSYNC_DIR"))
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return 0;
	path[n] = 0;
	return strstr(path, m) != NULL;
}

static int note(int (*real)(int), int fd)
{
	char p[PATH_MAX];
	FILE *f;
	int rc;

	snprintf(p, sizeof(p), "%s/fsync-fail", getenv("NVT_FSYNC_DIR"));
	if (access(p, F_OK) == 0) {
		errno = EIO;
		return -1;
	}
	rc = real(fd);
	if (rc)
		return rc;
	pthread_mutex_lock(&lock);
	count++;
	snprintf(p, sizeof(p), "%s/fsync-count", getenv("NVT_FSYNC_DIR"));
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%lu\n", count);
		fclose(f);
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

int fsync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
	return matches(fd) ? note(real, fd) : real(fd);
}

int fdatasync(int fd)
{
	static int (*real)(int);

	if (!real)
		real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
	return matches(fd) ? note(real, fd) : real(fd);
}
