// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-dio: one O_DIRECT read or write (zeros) of LEN bytes at OFF.
 *
 *   nvt-dio read  FILE OFF LEN
 *   nvt-dio write FILE OFF LEN
 *
 * Prints "ok", or the errno's name ("EIO", "EINVAL", ...) and exits 1.
 * busybox dd's iflag/oflag=direct fall back to buffered I/O when the
 * kernel refuses its unaligned buffer (EINVAL), which turns a 512-byte
 * write into a read-modify-write of the whole page: this buffer is
 * page-aligned, so the request reaches the driver as asked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char buf[1 << 20] __attribute__((aligned(4096)));

static const char *ename(int e)
{
	switch (e) {
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	case ENXIO: return "ENXIO";
	case ENOSPC: return "ENOSPC";
	case EROFS: return "EROFS";
	case EPERM: return "EPERM";
	case EBADMSG: return "EBADMSG";
	case EHWPOISON: return "EHWPOISON";
	default: return strerror(e);
	}
}

int main(int argc, char **argv)
{
	long long off, len;
	ssize_t n;
	int wr, fd;

	if (argc != 5 || (strcmp(argv[1], "read") && strcmp(argv[1], "write"))) {
		fprintf(stderr, "usage: nvt-dio read|write FILE OFF LEN\n");
		return 2;
	}
	wr = argv[1][0] == 'w';
	off = strtoll(argv[3], NULL, 0);
	len = strtoll(argv[4], NULL, 0);
	if (off < 0 || len <= 0 || len > (long long)sizeof(buf)) {
		fprintf(stderr, "nvt-dio: bad OFF/LEN\n");
		return 2;
	}
	fd = open(argv[2], (wr ? O_WRONLY : O_RDONLY) | O_DIRECT);
	if (fd < 0) {
		printf("open:%s\n", ename(errno));
		return 1;
	}
	n = wr ? pwrite(fd, buf, len, off) : pread(fd, buf, len, off);
	if (n < 0) {
		printf("%s\n", ename(errno));
		return 1;
	}
	if (n != len) {
		printf("short:%zd\n", n);
		return 1;
	}
	printf("ok\n");
	return 0;
}
