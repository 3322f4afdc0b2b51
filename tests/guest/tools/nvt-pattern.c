// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-pattern: seeded pseudorandom data on a block device or file.
 *
 *   nvt-pattern gen    SEED LEN              pattern to stdout
 *   nvt-pattern write  DEV OFF LEN SEED      pwrite pattern at OFF, fsync
 *   nvt-pattern wsync  DEV OFF LEN SEED      the same with O_DIRECT|O_DSYNC
 *                                            (FUA writes on a block device)
 *   nvt-pattern verify DEV OFF LEN SEED      compare; exit 1 on mismatch
 *   nvt-pattern sum    DEV OFF LEN           print FNV-1a 64 checksum of range
 *
 * The stream depends only on SEED and the byte position within the range,
 * so a later boot can regenerate and verify it.  Numbers accept 0x prefixes
 * and a K/M/G suffix; a negative OFF counts from the end of the device.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (1u << 20)

static uint64_t rng_state;

static uint64_t next64(void)
{
	/* xorshift64* */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static void seed(uint64_t s)
{
	rng_state = s * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
	if (!rng_state)
		rng_state = 1;
}

static void fill(uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t v = next64();

		memcpy(buf + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = next64();

		memcpy(buf + i, &v, len - i);
	}
}

static long long num(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 0);

	switch (*end) {
	case 'k': case 'K': v <<= 10; break;
	case 'm': case 'M': v <<= 20; break;
	case 'g': case 'G': v <<= 30; break;
	}
	return v;
}

static void die(const char *what)
{
	fprintf(stderr, "nvt-pattern: %s: %s\n", what, strerror(errno));
	exit(2);
}

static uint64_t dev_size(int fd)
{
	struct stat st;
	uint64_t sz = 0;

	if (fstat(fd, &st))
		die("fstat");
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, &sz))
			die("BLKGETSIZE64");
		return sz;
	}
	return st.st_size;
}

int main(int argc, char **argv)
{
	/* aligned for O_DIRECT (wsync) */
	static uint8_t buf[CHUNK] __attribute__((aligned(4096)));
	static uint8_t want[CHUNK] __attribute__((aligned(4096)));
	const char *op = argc > 1 ? argv[1] : "";
	long long off, len, done;
	int fd;

	if (!strcmp(op, "gen") && argc == 4) {
		seed(num(argv[2]));
		for (len = num(argv[3]); len > 0; len -= CHUNK) {
			size_t n = len < CHUNK ? len : CHUNK;

			fill(buf, n);
			if (fwrite(buf, 1, n, stdout) != n)
				die("stdout");
		}
		return 0;
	}

	if (!((!strcmp(op, "write") || !strcmp(op, "wsync") ||
	       !strcmp(op, "verify")) && argc == 6) &&
	    !(!strcmp(op, "sum") && argc == 5)) {
		fprintf(stderr, "usage: nvt-pattern gen SEED LEN | write DEV OFF LEN SEED |\n"
				"       wsync DEV OFF LEN SEED | verify DEV OFF LEN SEED |\n"
				"       sum DEV OFF LEN\n");
		return 2;
	}

	fd = open(argv[2], op[0] != 'w' ? O_RDONLY :
		  op[1] == 's' ? O_RDWR | O_DIRECT | O_DSYNC : O_RDWR);
	if (fd < 0)
		die(argv[2]);
	off = num(argv[3]);
	len = num(argv[4]);
	if (off < 0)
		off += dev_size(fd);
	if (off < 0 || len <= 0 || (uint64_t)(off + len) > dev_size(fd)) {
		fprintf(stderr, "nvt-pattern: range %lld+%lld outside %s (%" PRIu64 " bytes)\n",
			off, len, argv[2], dev_size(fd));
		return 2;
	}

	if (!strcmp(op, "sum")) {
		uint64_t h = 0xcbf29ce484222325ULL;

		for (done = 0; done < len; done += CHUNK) {
			size_t n = len - done < CHUNK ? len - done : CHUNK, i;

			if (pread(fd, buf, n, off + done) != (ssize_t)n)
				die("pread");
			for (i = 0; i < n; i++)
				h = (h ^ buf[i]) * 0x100000001b3ULL;
		}
		printf("%016" PRIx64 "\n", h);
		return 0;
	}

	seed(num(argv[5]));
	for (done = 0; done < len; done += CHUNK) {
		size_t n = len - done < CHUNK ? len - done : CHUNK, i;

		fill(want, n);
		if (op[0] == 'w') {
			if (pwrite(fd, want, n, off + done) != (ssize_t)n)
				die("pwrite");
			continue;
		}
		if (pread(fd, buf, n, off + done) != (ssize_t)n)
			die("pread");
		if (memcmp(buf, want, n)) {
			for (i = 0; i < n && buf[i] == want[i]; i++)
				;
			printf("mismatch at %lld: got %#04x want %#04x\n",
			       off + done + (long long)i, buf[i], want[i]);
			return 1;
		}
	}
	if (op[0] == 'w' && fsync(fd))
		die("fsync");
	printf("%s %lld bytes at %lld ok\n", op[0] == 'w' ? "wrote" : "verified",
	       len, off);
	return 0;
}
