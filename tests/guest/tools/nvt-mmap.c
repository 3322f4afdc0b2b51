// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-mmap: a seeded pattern written and verified through mmap() on a file
 * (a DAX filesystem) or a device-dax character device (/dev/daxR.N).
 *
 *   nvt-mmap write  PATH OFF LEN SEED [--align N] [--sync] [--exact]
 *                   [--private] [--past-end]
 *   nvt-mmap verify PATH OFF LEN SEED [--align N] [--sync] [--exact]
 *                   [--private] [--past-end]
 *   nvt-mmap gen    OFF LEN SEED          the pattern of [OFF, OFF+LEN) to stdout
 *   nvt-mmap statx  PATH
 *
 * write: opens PATH read-write (a regular file is created, and extended
 * to OFF+LEN when shorter), maps it MAP_SHARED, stores the pattern in
 * [OFF, OFF+LEN), then msync(MS_SYNC)s the mapping of a file; a
 * device-dax file has no fsync (msync fails with EINVAL), so there the
 * written cache lines are flushed (clflush + sfence, as libpmem's
 * pmem_persist does).  verify: maps it read-only and compares; exit 1 on
 * the first mismatch, whose offset it prints.  gen prints the bytes write
 * would store (for write(2) through dd, or cmp against read(2)).
 * The 8-byte word at file offset 8k is a hash of (SEED, k): a page found
 * at another offset, or another generation's page, does not match.
 *
 * The mapping covers [OFF, OFF+LEN) rounded out to the page size, or to
 * the alignment of a device-dax device (its sysfs "align", or --align N),
 * which device_dax requires of every mapping.  --exact maps exactly
 * [OFF, OFF+LEN) (OFF page-aligned), to see an unaligned mapping refused.
 * --sync maps MAP_SHARED_VALIDATE | MAP_SYNC, which the kernel grants only
 * on a DAX mapping: refused (EOPNOTSUPP) elsewhere, reported as such,
 * exit 3.  --private maps MAP_PRIVATE (device_dax refuses it).
 * --past-end lets [OFF, OFF+LEN) run past the end of a character device
 * (its sysfs size), to see the pages there refused.  A SIGBUS while
 * touching the mapping is reported with the offset it hit, exit 4.
 *
 * statx: prints whether STATX_ATTR_DAX is set on PATH (statx(2) syscall);
 * exit 0 if set, 1 if not, 2 on error (or if the kernel does not report
 * the attribute at all).
 *
 * Numbers accept 0x prefixes and a K/M/G suffix.  Exit 2 on other errors.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/stat.h>

#ifndef STATX_ATTR_DAX
#define STATX_ATTR_DAX 0x00200000
#endif
#ifndef MAP_SHARED_VALIDATE
#define MAP_SHARED_VALIDATE 0x03
#endif
#ifndef MAP_SYNC
#define MAP_SYNC 0x80000
#endif

static const char *path;
static sigjmp_buf sigbus_env;

static void on_sigbus(int sig)
{
	(void)sig;
	siglongjmp(sigbus_env, 1);
}

static void die(const char *what)
{
	fprintf(stderr, "nvt-mmap: %s: %s: %s\n", path, what, strerror(errno));
	exit(2);
}

static void __attribute__((format(printf, 1, 2))) fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "nvt-mmap: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

static long long num(const char *s)
{
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 0);
	if (errno || end == s)
		fail("bad number '%s'", s);
	switch (*end) {
	case 'k': case 'K': v <<= 10; end++; break;
	case 'm': case 'M': v <<= 20; end++; break;
	case 'g': case 'G': v <<= 30; end++; break;
	}
	if (*end)
		fail("bad number '%s'", s);
	return v;
}

/* splitmix64 finalizer */
static uint64_t mix(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ULL;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
	return x ^ (x >> 31);
}

/* the pattern word at file offset 8 * k */
static uint64_t word(uint64_t seed, uint64_t k)
{
	return mix(mix(seed) ^ k);
}

/* byte at file offset pos (little-endian bytes of its word) */
static uint8_t pbyte(uint64_t seed, uint64_t pos)
{
	return word(seed, pos >> 3) >> (8 * (pos & 7));
}

/* a sysfs attribute of a character device as a number; -1 if absent */
static long long chr_attr(dev_t rdev, const char *attr)
{
	char p[128], buf[64];
	FILE *f;

	snprintf(p, sizeof(p), "/sys/dev/char/%u:%u/%s",
		 major(rdev), minor(rdev), attr);
	f = fopen(p, "r");
	if (!f) {
		/* /sys/bus/dax/devices/daxR.N/ */
		const char *b = strrchr(path, '/');

		snprintf(p, sizeof(p), "/sys/bus/dax/devices/%s/%s",
			 b ? b + 1 : path, attr);
		f = fopen(p, "r");
		if (!f)
			return -1;
	}
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return strtoll(buf, NULL, 0);
}

/* write back the CPU cache lines of [p, p+len) (device-dax: no msync) */
static void flush_lines(const uint8_t *p, long long len)
{
#if defined(__x86_64__) || defined(__i386__)
	uintptr_t a = (uintptr_t)p & ~(uintptr_t)63, end = (uintptr_t)p + len;

	for (; a < end; a += 64)
		__builtin_ia32_clflush((const void *)a);
	__builtin_ia32_sfence();
#else
	(void)p;
	(void)len;
	__sync_synchronize();
#endif
}

static int do_gen(long long off, long long len, uint64_t seed)
{
	static uint8_t buf[1 << 16];
	long long done, i;

	for (done = 0; done < len; done += sizeof(buf)) {
		long long n = len - done < (long long)sizeof(buf) ?
			len - done : (long long)sizeof(buf);

		for (i = 0; i < n; i++)
			buf[i] = pbyte(seed, off + done + i);
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			die("stdout");
	}
	return fflush(stdout) ? 2 : 0;
}

static int do_statx(void)
{
	struct statx stx;

	memset(&stx, 0, sizeof(stx));
	if (syscall(SYS_statx, AT_FDCWD, path, 0, STATX_BASIC_STATS, &stx))
		die("statx");
	if (!(stx.stx_attributes_mask & STATX_ATTR_DAX)) {
		printf("%s: the kernel does not report STATX_ATTR_DAX "
		       "(attributes_mask %#llx)\n", path,
		       (unsigned long long)stx.stx_attributes_mask);
		return 2;
	}
	printf("%s: dax=%d (stx_attributes %#llx)\n", path,
	       !!(stx.stx_attributes & STATX_ATTR_DAX),
	       (unsigned long long)stx.stx_attributes);
	return stx.stx_attributes & STATX_ATTR_DAX ? 0 : 1;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: nvt-mmap write|verify PATH OFF LEN SEED [--align N] [--sync] [--exact]\n"
		"                [--private] [--past-end]\n"
		"       nvt-mmap gen OFF LEN SEED\n"
		"       nvt-mmap statx PATH\n");
	exit(2);
}

int main(int argc, char **argv)
{
	long long off, len, align = 0, size, moff, mlen, i;
	int wr, sync = 0, exact = 0, private = 0, past = 0, fd, flags, prot;
	volatile long long at = -1;
	long long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t seed;
	struct stat st;
	uint8_t *map, *p;

	if (argc == 3 && !strcmp(argv[1], "statx")) {
		path = argv[2];
		return do_statx();
	}
	if (argc == 5 && !strcmp(argv[1], "gen")) {
		path = "gen";
		off = num(argv[2]);
		len = num(argv[3]);
		if (off < 0 || len <= 0)
			fail("bad range %lld+%lld", off, len);
		return do_gen(off, len, (uint64_t)num(argv[4]));
	}
	if (argc < 6)
		usage();
	if (!strcmp(argv[1], "write"))
		wr = 1;
	else if (!strcmp(argv[1], "verify"))
		wr = 0;
	else
		usage();
	path = argv[2];
	off = num(argv[3]);
	len = num(argv[4]);
	seed = (uint64_t)num(argv[5]);
	for (i = 6; i < argc; i++) {
		if (!strcmp(argv[i], "--sync"))
			sync = 1;
		else if (!strcmp(argv[i], "--exact"))
			exact = 1;
		else if (!strcmp(argv[i], "--private"))
			private = 1;
		else if (!strcmp(argv[i], "--past-end"))
			past = 1;
		else if (!strcmp(argv[i], "--align") && i + 1 < argc)
			align = num(argv[++i]);
		else
			usage();
	}
	if (off < 0 || len <= 0)
		fail("bad range %lld+%lld", off, len);

	fd = open(path, wr ? O_RDWR | O_CREAT : O_RDONLY, 0644);
	if (fd < 0)
		die("open");
	if (fstat(fd, &st))
		die("fstat");
	if (S_ISCHR(st.st_mode)) {
		size = chr_attr(st.st_rdev, "size");
		if (!align)
			align = chr_attr(st.st_rdev, "align");
		if (size < 0 || align <= 0)
			fail("character device without sysfs size/align "
			     "(size %lld, align %lld): pass --align", size, align);
	} else if (S_ISREG(st.st_mode)) {
		size = st.st_size;
		if (wr && size < off + len) {
			if (ftruncate(fd, off + len))
				die("ftruncate");
			size = off + len;
		}
	} else {
		fail("not a regular file or character device");
	}
	if (align <= 0)
		align = pagesz;
	if (align % pagesz)
		fail("align %lld is not a multiple of the page size %lld",
		     align, pagesz);
	if (off + len > size && !(past && S_ISCHR(st.st_mode)))
		fail("range ends at %lld, beyond the end (%lld bytes)",
		     off + len, size);

	if (exact) {
		if (off % pagesz)
			fail("--exact needs a page-aligned offset, not %lld", off);
		moff = off;
		mlen = len;
	} else {
		moff = off / align * align;
		mlen = (off + len + align - 1) / align * align - moff;
	}
	prot = PROT_READ | (wr ? PROT_WRITE : 0);
	flags = sync ? MAP_SHARED_VALIDATE | MAP_SYNC :
		private ? MAP_PRIVATE : MAP_SHARED;
	map = mmap(NULL, mlen, prot, flags, fd, moff);
	if (map == MAP_FAILED) {
		int e = errno;

		if (sync && e == EOPNOTSUPP) {
			fprintf(stderr, "nvt-mmap: %s: MAP_SYNC refused (%s): "
				"not a DAX mapping\n", path, strerror(e));
			return 3;
		}
		fprintf(stderr, "nvt-mmap: %s: mmap(%lld bytes at %lld, %s) "
			"failed: %s\n", path, mlen, moff,
			sync ? "MAP_SHARED_VALIDATE|MAP_SYNC" :
			private ? "MAP_PRIVATE" : "MAP_SHARED",
			strerror(e));
		return 2;
	}
	p = map + (off - moff);
	if (sigsetjmp(sigbus_env, 1)) {
		printf("%s: SIGBUS at offset %lld\n", path, off + at);
		return 4;
	}
	signal(SIGBUS, on_sigbus);

	if (wr) {
		/* the first byte of every page first: where a SIGBUS hits */
		for (i = 0; i < len; i += pagesz - ((off + i) % pagesz)) {
			at = i;
			p[i] = pbyte(seed, off + i);
		}
		at = -1;
		for (i = 0; i < len && ((off + i) & 7); i++)
			p[i] = pbyte(seed, off + i);
		for (; i + 8 <= len; i += 8) {
			uint64_t v = word(seed, (off + i) >> 3);

			memcpy(p + i, &v, 8);
		}
		for (; i < len; i++)
			p[i] = pbyte(seed, off + i);
		if (S_ISCHR(st.st_mode))
			flush_lines(p, len);
		else if (msync(map, mlen, MS_SYNC))
			die("msync");
	} else {
		long long bad = 0, first = -1;
		volatile uint8_t sink;

		for (i = 0; i < len; i += pagesz - ((off + i) % pagesz)) {
			at = i;
			sink = p[i];
		}
		(void)sink;
		at = -1;
		for (i = 0; i < len; i++) {
			if (p[i] != pbyte(seed, off + i)) {
				if (first < 0)
					first = i;
				bad++;
			}
		}
		if (first >= 0) {
			printf("%s: mismatch at offset %lld: got %#04x want %#04x "
			       "(%lld of %lld bytes differ)\n", path, off + first,
			       p[first], pbyte(seed, off + first), bad, len);
			return 1;
		}
	}
	if (munmap(map, mlen))
		die("munmap");
	if (close(fd))
		die("close");
	printf("%s: %s %lld bytes at %lld, seed %" PRIu64 " (mapping %lld+%lld%s)\n",
	       path, wr ? "wrote" : "verified", len, off, seed, moff, mlen,
	       sync ? ", MAP_SYNC" : "");
	return 0;
}
