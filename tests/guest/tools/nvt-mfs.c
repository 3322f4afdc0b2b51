// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-mfs: file and device I/O for the media-error tests on filesystems
 * (tests/guest/media-fs.sh, docs/media-errors.md).
 *
 *   nvt-mfs fiemap FILE              "PHYS LEN" of the file's first extent
 *                                     (bytes from the device's start)
 *   nvt-mfs read FILE OFF LEN [-d]   read(2) [O_DIRECT]: "ok BYTE" (the
 *                                     first byte, hex) or the errno's name
 *   nvt-mfs write FILE OFF LEN BYTE [-d]
 *                                     pwrite(2) of LEN bytes of BYTE, then
 *                                     fsync: "ok" or the errno's name (of
 *                                     the pwrite or of the fsync)
 *   nvt-mfs mmap FILE OFF LEN        a MAP_SHARED read-only mapping, every
 *                                     byte read: "ok BYTE", "SIGBUS" when a
 *                                     load faults, or the errno's name of
 *                                     the mmap
 *   nvt-mfs find FILE STRING         byte offsets of 512-byte blocks that
 *                                     start with STRING, one a line
 *   nvt-mfs e2bb DEV                 the ext2/3/4 bad-blocks inode's
 *                                     direct blocks on DEV, or "none"
 *
 * OFF and LEN accept 0x prefixes and a K/M suffix.  Exit 0 when the
 * operation did what was asked, 1 when it failed as printed, 2 on usage
 * errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/fiemap.h>
#include <linux/fs.h>

static void usage(void)
{
	fprintf(stderr, "usage: nvt-mfs fiemap|read|write|mmap|find|e2bb ... (see the source)\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		usage();
	switch (*end) {
	case 'K': case 'k': v <<= 10; end++; break;
	case 'M': case 'm': v <<= 20; end++; break;
	}
	if (*end)
		usage();
	return v;
}

static const char *ename(int e)
{
	switch (e) {
	case EIO: return "EIO";
	case EINVAL: return "EINVAL";
	case ENXIO: return "ENXIO";
	case EFAULT: return "EFAULT";
	case ENOSPC: return "ENOSPC";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case EROFS: return "EROFS";
	case EBADMSG: return "EBADMSG";
	case EHWPOISON: return "EHWPOISON";
	}
	return strerror(e);
}

static void *buffer(size_t len)
{
	void *p;

	if (posix_memalign(&p, 4096, len ? len : 1)) {
		perror("posix_memalign");
		exit(2);
	}
	return p;
}

static int open_or_die(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0) {
		printf("open: %s\n", ename(errno));
		exit(1);
	}
	return fd;
}

static int do_fiemap(const char *path)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe[1];
	} m;
	int fd = open_or_die(path, O_RDONLY);

	memset(&m, 0, sizeof(m));
	m.fm.fm_start = 0;
	m.fm.fm_length = ~0ULL;
	m.fm.fm_flags = FIEMAP_FLAG_SYNC;
	m.fm.fm_extent_count = 1;
	if (ioctl(fd, FS_IOC_FIEMAP, &m.fm) < 0) {
		printf("fiemap: %s\n", ename(errno));
		return 1;
	}
	if (m.fm.fm_mapped_extents < 1 || m.fe[0].fe_logical != 0) {
		printf("fiemap: no extent at offset 0\n");
		return 1;
	}
	printf("%llu %llu\n", (unsigned long long)m.fe[0].fe_physical,
	       (unsigned long long)m.fe[0].fe_length);
	return 0;
}

/* a pread/pwrite's result: 0 when all of @len moved, else printed, 1 */
static int io_failed(ssize_t n, size_t len)
{
	if (n < 0) {
		printf("%s\n", ename(errno));
		return 1;
	}
	if ((size_t)n != len) {
		printf("short %zd\n", n);
		return 1;
	}
	return 0;
}

static int do_read(const char *path, uint64_t off, size_t len, int direct)
{
	int fd = open_or_die(path, O_RDONLY | (direct ? O_DIRECT : 0));
	unsigned char *buf = buffer(len);

	if (io_failed(pread(fd, buf, len, off), len))
		return 1;
	printf("ok %02x\n", len ? buf[0] : 0);
	return 0;
}

static int do_write(const char *path, uint64_t off, size_t len, int byte,
		    int direct)
{
	int fd = open_or_die(path, O_WRONLY | (direct ? O_DIRECT : 0));
	unsigned char *buf = buffer(len);

	memset(buf, byte, len);
	if (io_failed(pwrite(fd, buf, len, off), len))
		return 1;
	if (fsync(fd) < 0) {
		printf("fsync %s\n", ename(errno));
		return 1;
	}
	printf("ok\n");
	return 0;
}

static sigjmp_buf fault_jmp;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(fault_jmp, 1);
}

static int do_mmap(const char *path, uint64_t off, size_t len)
{
	int fd = open_or_die(path, O_RDONLY);
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t base = off & ~(uint64_t)(pg - 1);
	size_t maplen = len + (off - base);
	struct sigaction sa;
	volatile unsigned char *p;
	unsigned char first = 0, sum = 0;
	size_t i;

	p = mmap(NULL, maplen, PROT_READ, MAP_SHARED, fd, base);
	if (p == MAP_FAILED) {
		printf("mmap %s\n", ename(errno));
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigbus;
	sigaction(SIGBUS, &sa, NULL);
	if (sigsetjmp(fault_jmp, 1)) {
		printf("SIGBUS\n");
		return 1;
	}
	for (i = 0; i < len; i++)
		sum += p[off - base + i];
	first = p[off - base];
	(void)sum;
	printf("ok %02x\n", first);
	return 0;
}

static int do_find(const char *path, const char *s)
{
	int fd = open_or_die(path, O_RDONLY);
	size_t sl = strlen(s), chunk = 1 << 20;
	unsigned char *buf = buffer(chunk);
	uint64_t off = 0;
	ssize_t n;
	size_t i;

	if (!sl || sl > 512)
		usage();
	while ((n = pread(fd, buf, chunk, off)) > 0) {
		for (i = 0; i + sl <= (size_t)n; i += 512)
			if (!memcmp(buf + i, s, sl))
				printf("%" PRIu64 "\n", off + i);
		off += n;
	}
	if (n < 0) {
		printf("read at %" PRIu64 ": %s\n", off, ename(errno));
		return 1;
	}
	return 0;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

/* the bad-blocks inode (inode 1, block-mapped) of group 0's inode table */
static int do_e2bb(const char *dev)
{
	int fd = open_or_die(dev, O_RDONLY);
	unsigned char sb[1024], gd[64], ino[256];
	uint64_t bs, table, gdoff;
	uint32_t incompat, n = 0, i;
	uint16_t isize;

	if (pread(fd, sb, sizeof(sb), 1024) != sizeof(sb) ||
	    le16(sb + 0x38) != 0xef53) {
		printf("no ext2/3/4 superblock\n");
		return 1;
	}
	bs = 1024ULL << le32(sb + 0x18);
	isize = le16(sb + 0x58);
	incompat = le32(sb + 0x60);
	gdoff = bs == 1024 ? 2048 : bs;
	if (isize < 128 || isize > sizeof(ino) ||
	    pread(fd, gd, sizeof(gd), gdoff) != sizeof(gd)) {
		printf("bad superblock or group descriptor\n");
		return 1;
	}
	table = le32(gd + 8);
	if ((incompat & 0x80) && le16(sb + 0xfe) >= 64)	/* 64bit */
		table |= (uint64_t)le32(gd + 0x28) << 32;
	if (pread(fd, ino, isize, table * bs) != isize) {
		printf("inode table unreadable\n");
		return 1;
	}
	/* i_block[0..11]: the direct blocks */
	for (i = 0; i < 12; i++) {
		uint32_t b = le32(ino + 0x28 + 4 * i);

		if (b) {
			printf("%s%u", n ? " " : "", b);
			n++;
		}
	}
	printf("%s\n", n ? "" : "none");
	return 0;
}

int main(int argc, char **argv)
{
	int direct = argc > 1 && !strcmp(argv[argc - 1], "-d");

	if (direct)
		argc--;
	if (argc == 3 && !strcmp(argv[1], "fiemap"))
		return do_fiemap(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "read"))
		return do_read(argv[2], num(argv[3]), num(argv[4]), direct);
	if (argc == 6 && !strcmp(argv[1], "write"))
		return do_write(argv[2], num(argv[3]), num(argv[4]),
				(int)num(argv[5]), direct);
	if (argc == 5 && !strcmp(argv[1], "mmap"))
		return do_mmap(argv[2], num(argv[3]), num(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "find"))
		return do_find(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "e2bb"))
		return do_e2bb(argv[2]);
	usage();
	return 2;
}
