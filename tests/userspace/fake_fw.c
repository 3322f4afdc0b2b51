// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Host-test stand-in for the Intel firmware-update DSMs (functions 12-16
 * through ND_IOCTL_CALL), called by fake_ioctl.c for any fd whose path P
 * has a sibling file "P.fw": the DIMM's update state lives there, so a
 * sequence may span several ndctl runs.  Rules as docs/firmware.md gives
 * for nfit_test's mock: start while an update is open 0x10007; send,
 * finish, query with another context 0x10007; a send of length 0, over
 * the maximum send length or past the storage 3; finish again 0x20007,
 * under 64 bytes 0x30007 (back to idle), abort 0x40007; query while
 * receiving 0x40007, while verifying 0x20007 (FAKE_FW_POLLS times, 1 by
 * default), then 0 and the staged version 0x02<<56 | bytes received.
 *
 * Environment: FAKE_FW_STORAGE (bytes, default 65536), FAKE_FW_FAIL
 * ("FUNC:STATUS": that function answers STATUS), FAKE_IOCTL_LOG (a
 * "fwFUNC" line per call).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/ioctl.h>
#include <linux/ndctl.h>

#include "fake_fw.h"

#define MAX_SEND	4096

enum { IDLE, RECEIVING, VERIFYING, STAGED };

struct fw_state {
	uint32_t state, context, received, polls;
	uint64_t run, next;
};

static unsigned long env_ul(const char *name, unsigned long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoul(v, NULL, 0) : def;
}

static void fw_log(unsigned int func)
{
	const char *p = getenv("FAKE_IOCTL_LOG");
	FILE *f;

	if (!p)
		return;
	f = fopen(p, "a");
	if (!f)
		return;
	fprintf(f, "fw%u\n", func);
	fclose(f);
}

static int fw_file(int fd)
{
	char link[64], path[PATH_MAX], fw[PATH_MAX + 8];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n < 0)
		return -1;
	path[n] = 0;
	snprintf(fw, sizeof(fw), "%s.fw", path);
	return open(fw, O_RDWR | O_CLOEXEC);
}

static void put32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* the firmware's answer to @func; the output goes to @out */
static uint32_t fw_do(struct fw_state *s, unsigned int func,
		const unsigned char *in, unsigned int in_len,
		unsigned char *out, unsigned int out_len)
{
	uint32_t storage = env_ul("FAKE_FW_STORAGE", 65536);
	uint32_t ctx, off, len;
	uint64_t v;

	switch (func) {
	case 12:
		if (out_len < 44)
			return 3;
		put32(out + 4, storage);
		put32(out + 8, MAX_SEND);
		put32(out + 12, 1000);		/* query interval, us */
		put32(out + 16, 100000);	/* max query time, us */
		memcpy(out + 28, &s->run, 8);
		v = s->state == STAGED ? s->next : 0;
		memcpy(out + 36, &v, 8);
		return 0;
	case 13:
		if (out_len < 8)
			return 3;
		if (s->state == RECEIVING || s->state == VERIFYING)
			return 0x10007;
		s->state = RECEIVING;
		s->context++;
		s->received = 0;
		put32(out + 4, s->context);
		return 0;
	case 14:
		if (in_len < 12)
			return 3;
		ctx = get32(in);
		off = get32(in + 4);
		len = get32(in + 8);
		if (s->state != RECEIVING || ctx != s->context)
			return 0x10007;
		if (!len || len > MAX_SEND || len != in_len - 12 ||
		    (uint64_t)off + len > storage)
			return 3;
		if (off + len > s->received)
			s->received = off + len;
		return 0;
	case 15:
		if (in_len < 8)
			return 3;
		ctx = get32(in + 4);
		if (ctx != s->context || s->state == IDLE)
			return 0x10007;
		if (s->state != RECEIVING)
			return 0x20007;
		if (in[0] & 1) {
			s->state = IDLE;
			return 0x40007;
		}
		if (s->received < 64) {
			s->state = IDLE;
			return 0x30007;
		}
		s->state = VERIFYING;
		s->polls = env_ul("FAKE_FW_POLLS", 1);
		return 0;
	case 16:
		if (in_len < 4 || out_len < 12)
			return 3;
		if (get32(in) != s->context || s->state == IDLE)
			return 0x10007;
		if (s->state == RECEIVING)
			return 0x40007;
		if (s->state == VERIFYING && s->polls) {
			s->polls--;
			return 0x20007;
		}
		s->state = STAGED;
		s->next = 2ULL << 56 | s->received;
		memcpy(out + 4, &s->next, 8);
		return 0;
	}
	return 1;
}

int fake_fw_call(int fd, unsigned long req, void *arg)
{
	struct nd_cmd_pkg *pkg = arg;
	struct fw_state s = { .run = 1ULL << 56 };
	unsigned int func, in, out;
	const char *fail;
	uint32_t st;
	int ffd;

	if (req != ND_IOCTL_CALL)
		return FAKE_FW_PASS;
	ffd = fw_file(fd);
	if (ffd < 0)
		return FAKE_FW_PASS;
	func = pkg->nd_command;
	in = pkg->nd_size_in;
	out = pkg->nd_size_out;
	fw_log(func);
	if (pkg->nd_family != NVDIMM_FAMILY_INTEL || out < 4 ||
	    (unsigned long long)in + out > (4U << 20)) {
		close(ffd);
		errno = EINVAL;
		return -1;
	}
	if (pread(ffd, &s, sizeof(s), 0) != (ssize_t)sizeof(s))
		s = (struct fw_state){ .run = 1ULL << 56 };
	memset(pkg->nd_payload + in, 0, out);
	st = fw_do(&s, func, (unsigned char *)pkg->nd_payload, in,
			(unsigned char *)pkg->nd_payload + in, out);
	fail = getenv("FAKE_FW_FAIL");
	if (fail && strtoul(fail, NULL, 0) == func && strchr(fail, ':'))
		st = strtoul(strchr(fail, ':') + 1, NULL, 0);
	put32((unsigned char *)pkg->nd_payload + in, st);
	if (pwrite(ffd, &s, sizeof(s), 0) != (ssize_t)sizeof(s)) {
		close(ffd);
		errno = EIO;
		return -1;
	}
	close(ffd);
	return 0;
}
