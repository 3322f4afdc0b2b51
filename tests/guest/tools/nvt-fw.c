// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-fw: the Intel DSM firmware-update functions of a DIMM, one call per
 * run, through ND_IOCTL_CALL on /dev/nmemN (docs/firmware.md):
 *
 *   nvt-fw DEV info                      function 12
 *   nvt-fw DEV start                     function 13
 *   nvt-fw DEV send CTX OFF LEN [DATA]   function 14: LEN claimed, DATA
 *                                        bytes sent (default LEN), byte
 *                                        i = (OFF + i) & 0xff
 *   nvt-fw DEV finish CTX [abort]        function 15
 *   nvt-fw DEV query CTX                 function 16
 *   nvt-fw DEV short FUNC                FUNC with one output byte only
 *
 * One line: rc=<ret|-errno> err=<ERRNO|0> status=<hex> and the answer's
 * fields (info: storage max_send run next; start: context; query: rev).
 * Exit 0 (the caller judges the result), 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/ndctl.h>

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case ENOTTY: return "ENOTTY";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENXIO: return "ENXIO";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case ENOMEM: return "ENOMEM";
	case EFAULT: return "EFAULT";
	default: return "other";
	}
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, 4);
}

int main(int argc, char **argv)
{
	uint32_t in = 0, out, func, i, ctx = 0, off = 0, len = 0, data = 0;
	struct nd_cmd_pkg *pkg;
	uint8_t *pl, *o;
	int fd, rc, err;

	if (argc < 3)
		goto usage;
	if (!strcmp(argv[2], "info")) {
		func = 12;
		out = 44;
	} else if (!strcmp(argv[2], "start")) {
		func = 13;
		out = 8;
	} else if (!strcmp(argv[2], "send") && (argc == 6 || argc == 7)) {
		func = 14;
		ctx = strtoul(argv[3], NULL, 0);
		off = strtoul(argv[4], NULL, 0);
		len = strtoul(argv[5], NULL, 0);
		data = argc == 7 ? strtoul(argv[6], NULL, 0) : len;
		if (data > (1u << 20))
			goto usage;
		in = 12 + data;
		out = 4;
	} else if (!strcmp(argv[2], "finish") && (argc == 4 || argc == 5)) {
		func = 15;
		ctx = strtoul(argv[3], NULL, 0);
		in = 8;
		out = 4;
	} else if (!strcmp(argv[2], "query") && argc == 4) {
		func = 16;
		ctx = strtoul(argv[3], NULL, 0);
		in = 4;
		out = 12;
	} else if (!strcmp(argv[2], "short") && argc == 4) {
		func = strtoul(argv[3], NULL, 0);
		out = 1;
	} else {
		goto usage;
	}
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 2;
	}
	pkg = calloc(1, sizeof(*pkg) + in + out);
	if (!pkg)
		return 2;
	pkg->nd_family = NVDIMM_FAMILY_INTEL;
	pkg->nd_command = func;
	pkg->nd_size_in = in;
	pkg->nd_size_out = out;
	pl = (uint8_t *)pkg->nd_payload;
	switch (func) {
	case 14:
		put32(pl, ctx);
		put32(pl + 4, off);
		put32(pl + 8, len);
		for (i = 0; i < data; i++)
			pl[12 + i] = (uint8_t)(off + i);
		break;
	case 15:
		pl[0] = argc == 5 && !strcmp(argv[4], "abort");
		put32(pl + 4, ctx);
		break;
	case 16:
		put32(pl, ctx);
		break;
	}
	rc = ioctl(fd, ND_IOCTL_CALL, pkg);
	err = rc < 0 ? errno : 0;
	o = pl + in;
	printf("rc=%d err=%s", rc < 0 ? -err : rc, errname(err));
	if (rc == 0 && out >= 4 && pkg->nd_fw_size >= 4) {
		printf(" status=0x%x", get32(o));
		if (func == 12)
			printf(" storage=%u max_send=%u run=0x%llx next=0x%llx",
			       get32(o + 4), get32(o + 8),
			       (unsigned long long)get64(o + 28),
			       (unsigned long long)get64(o + 36));
		else if (func == 13)
			printf(" context=%u", get32(o + 4));
		else if (func == 16)
			printf(" rev=0x%llx", (unsigned long long)get64(o + 4));
	}
	printf("\n");
	return 0;
usage:
	fprintf(stderr, "usage: nvt-fw DEV info|start|send CTX OFF LEN [DATA]|finish CTX [abort]|query CTX|short FUNC\n");
	return 2;
}
