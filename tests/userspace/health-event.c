// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ndctl-health-event: which DIMMs' health events userspace sees, through
 * ndctl_dimm_get_health_eventfd() of a libndctl named on the command line
 * (guest tool of tests/guest/dimm-notify.sh; built into
 * build/guest-tools/).
 *
 *   ndctl-health-event LIBRARY FENCE TRIGGER...
 *	dlopen()s LIBRARY (ours: /opt/ours/lib/libndctl.so.1, Debian's
 *	76.1: libndctl.so.6), opens every DIMM's health event file as
 *	ndctl monitor does (the fd ndctl_dimm_get_health_eventfd() gives,
 *	read once so that only a later notification counts), reads each
 *	TRIGGER file in order (a read that makes firmware raise a
 *	notification), then waits up to 10 s for the DIMM named FENCE
 *	("nmemN") to be notified (POLLPRI, what monitor waits for) and
 *	prints one "nmemN event|none" line per DIMM, in the library's
 *	order, then "wait MS" (how long the fence took).  FENCE "-": no
 *	fence, the DIMMs are polled for 2 s.  The notifications of one
 *	source are delivered in order, so a trigger that notifies the fence
 *	last shows, once the fence is seen, everything the triggers before
 *	it raised.
 *
 * The program uses 76.1's names only, so that the same binary runs
 * against both libraries.  Exit 0; 1 when the library, a symbol, a
 * DIMM's event fd or a trigger is missing, or the fence was not notified
 * (message on stderr); 2 usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dl-ndctl.h"

#define MAX_DIMMS 64
#define FENCE_MS 10000
#define NO_FENCE_MS 2000

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int trigger(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return -1;
	}
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0) {
		fprintf(stderr, "%s: read: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int (*eventfd)(struct ndctl_dimm *dimm);
	struct pollfd pfd[MAX_DIMMS];
	const char *name[MAX_DIMMS];
	int seen[MAX_DIMMS] = { 0 };
	int n = 0, fence = -1, i, rc = 0;
	long long t0, left;
	struct ndctl_dimm *dimm;
	struct ndctl_bus *bus;
	struct ndctl_ctx *ctx;
	char buf[256];
	struct dl_ndctl l;

	if (argc < 3) {
		fprintf(stderr, "usage: %s LIBRARY FENCE|- TRIGGER...\n",
			argv[0]);
		return 2;
	}
	if (dl_ndctl_open(&l, argv[1]))
		return 1;
	*(void **)&eventfd = dlsym(l.h, "ndctl_dimm_get_health_eventfd");
	if (!eventfd) {
		fprintf(stderr, "%s: no ndctl_dimm_get_health_eventfd\n",
			argv[1]);
		return 1;
	}
	if (l.new_ctx(&ctx)) {
		fprintf(stderr, "%s: ndctl_new failed\n", argv[1]);
		return 1;
	}
	dl_ndctl_foreach_dimm(&l, ctx, bus, dimm) {
		if (n == MAX_DIMMS)
			continue;
		name[n] = l.dimm_name(dimm);
		pfd[n].fd = eventfd(dimm);
		pfd[n].events = POLLPRI;
		if (pfd[n].fd < 0 ||
		    pread(pfd[n].fd, buf, sizeof(buf), 0) < 0) {
			fprintf(stderr, "%s: no health event fd (%d)\n",
				name[n], pfd[n].fd);
			rc = 1;
			pfd[n].fd = -1;
		}
		if (!strcmp(name[n], argv[2]))
			fence = n;
		n++;
	}
	if (strcmp(argv[2], "-") && fence < 0) {
		fprintf(stderr, "%s: no such DIMM\n", argv[2]);
		rc = 1;
	}
	for (i = 3; i < argc; i++)
		if (trigger(argv[i]))
			rc = 1;
	t0 = now_ms();
	for (;;) {
		left = t0 + (fence < 0 ? NO_FENCE_MS : FENCE_MS) - now_ms();
		if (left < 0 || (fence >= 0 && seen[fence]))
			left = 0;
		if (poll(pfd, n, left) < 0 && errno != EINTR) {
			perror("poll");
			rc = 1;
			break;
		}
		for (i = 0; i < n; i++)
			if (pfd[i].revents & (POLLPRI | POLLERR)) {
				seen[i] = 1;
				/* as monitor: read again, wait for the next */
				pread(pfd[i].fd, buf, sizeof(buf), 0);
			}
		if (!left)
			break;
	}
	for (i = 0; i < n; i++)
		printf("%s %s\n", name[i], seen[i] ? "event" : "none");
	printf("wait %lld\n", now_ms() - t0);
	if (fence >= 0 && !seen[fence]) {
		fprintf(stderr, "%s: not notified within %d ms\n", argv[2],
			FENCE_MS);
		rc = 1;
	}
	l.unref(ctx);
	return rc;
}
