// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host-test stand-in for the DIMM label ioctls.  Linked into a test build
 * of ndctl (or LD_PRELOADed into another binary), it answers
 * ND_IOCTL_GET_CONFIG_SIZE / GET_CONFIG_DATA / SET_CONFIG_DATA for any fd
 * whose path P has a sibling file "P.lsa" (the label area image), and
 * passes every other ioctl to the kernel.  The fake /dev/nmemN nodes are
 * char devices 1:3 (/dev/null's numbers), so a pass-through is harmless.
 *
 * Environment: FAKE_MAX_XFER (default 4076, QEMU's non-divisor value),
 * FAKE_IOCTL_LOG (append "cmd offset length" lines), FAKE_FW_STATUS
 * (non-zero: every data command reports this firmware status).
 * ND_IOCTL_CALL of the firmware-update functions: fake_fw.c.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/ndctl.h>

#include "fake_fw.h"

static void log_req(const char *what, unsigned int off, unsigned int len)
{
	const char *p = getenv("FAKE_IOCTL_LOG");
	FILE *f;

	if (!p)
		return;
	f = fopen(p, "a");
	if (!f)
		return;
	fprintf(f, "%s %u %u\n", what, off, len);
	fclose(f);
}

static int lsa_fd(int fd)
{
	char link[64], path[PATH_MAX], lsa[PATH_MAX + 8];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0)
		return -1;
	path[n] = '\0';
	snprintf(lsa, sizeof(lsa), "%s.lsa", path);
	return open(lsa, O_RDWR | O_CLOEXEC);
}

static unsigned int env_uint(const char *name, unsigned int def)
{
	const char *v = getenv(name);

	return v && *v ? (unsigned int)strtoul(v, NULL, 0) : def;
}

static int fake(int lfd, unsigned int req, void *arg)
{
	unsigned int max_xfer = env_uint("FAKE_MAX_XFER", 4076);
	unsigned int fw = env_uint("FAKE_FW_STATUS", 0);
	struct stat st;

	if (fstat(lfd, &st) < 0)
		return -1;
	if (req == ND_IOCTL_GET_CONFIG_SIZE) {
		struct nd_cmd_get_config_size *s = arg;

		log_req("size", 0, 0);
		s->status = 0;
		s->config_size = st.st_size;
		s->max_xfer = max_xfer;
		return 0;
	}
	if (req == ND_IOCTL_GET_CONFIG_DATA) {
		struct nd_cmd_get_config_data_hdr *h = arg;

		log_req("get", h->in_offset, h->in_length);
		if (h->in_length > max_xfer) {
			errno = EINVAL;
			return -1;
		}
		if (fw || (unsigned long long)h->in_offset + h->in_length
				> (unsigned long long)st.st_size) {
			h->status = fw ? fw : 3;
			return 0;
		}
		if (pread(lfd, h->out_buf, h->in_length, h->in_offset)
				!= (ssize_t)h->in_length)
			return -1;
		h->status = 0;
		return 0;
	}
	if (req == ND_IOCTL_SET_CONFIG_DATA) {
		struct nd_cmd_set_config_hdr *h = arg;
		unsigned int status = 0;

		log_req("set", h->in_offset, h->in_length);
		if (h->in_length > max_xfer) {
			errno = EINVAL;
			return -1;
		}
		if (fw || (unsigned long long)h->in_offset + h->in_length
				> (unsigned long long)st.st_size)
			status = fw ? fw : 3;
		else if (pwrite(lfd, h->in_buf, h->in_length, h->in_offset)
				!= (ssize_t)h->in_length)
			return -1;
		memcpy(h->in_buf + h->in_length, &status, sizeof(status));
		return 0;
	}
	log_req("other", (unsigned int)req, 0);
	errno = ENOTTY;
	return -1;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int lfd, rc, e;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	/* the firmware-update DSMs: fake_fw.c, for DIMMs with a P.fw file */
	rc = fake_fw_call(fd, req, arg);
	if (rc != FAKE_FW_PASS)
		return rc;
	lfd = lsa_fd(fd);
	if (lfd < 0)
		return syscall(SYS_ioctl, fd, req, arg);
	rc = fake(lfd, (unsigned int)req, arg);
	e = errno;
	close(lfd);
	errno = e;
	return rc;
}
