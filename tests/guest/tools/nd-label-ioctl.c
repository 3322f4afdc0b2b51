// SPDX-License-Identifier: GPL-2.0
/*
 * nd-label-ioctl: drive the label (config data) ioctls of /dev/nmemN, and
 * the passthrough ND_IOCTL_CALL of a DIMM or a bus (/dev/ndctlN).
 *
 *   nd-label-ioctl size  DEV                 GET_CONFIG_SIZE
 *   nd-label-ioctl read  DEV FILE            whole area -> FILE, max_xfer chunks
 *   nd-label-ioctl write DEV FILE            FILE -> whole area, max_xfer chunks
 *   nd-label-ioctl get   DEV OFF LEN [BUF]   one raw GET_CONFIG_DATA
 *   nd-label-ioctl set   DEV OFF LEN [BUF]   one raw SET_CONFIG_DATA
 *   nd-label-ioctl flags DEV                 DIMM_FLAGS
 *   nd-label-ioctl call  DEV FAMILY FUNC IN OUT [ro|reserved]
 *                                            one ND_IOCTL_CALL (below)
 *
 * Raw calls place the envelope at the end of a mapping that is followed by
 * an inaccessible guard page.  BUF is the size of that user buffer in bytes
 * (default: exactly the envelope the header describes, or one page when
 * that is over 64 MiB), so BUF smaller than the envelope is a genuinely
 * short user buffer.  Raw calls print one line:
 *   rc=<ioctl return or -errno> err=<ERRNO name or 0> status=<fw status>
 * and exit 0 (the caller judges the result).
 *
 * call: the envelope (struct nd_cmd_pkg, IN input bytes, OUT output
 * bytes) ends at the guard page too, so a kernel that copies back more
 * than the envelope faults.  Sent: input byte i = 0x30 + i, every output
 * byte 0xa5, nd_fw_size 0xdeadbeef (an output field); "ro" opens DEV
 * read-only, "reserved" sets a reserved word.  One line:
 *   rc=<ret|-errno> err=<ERRNO|0> fw_size=<nd_fw_size> hdr=<same|changed>
 *   in=<same|changed> filled=<N> kept=<M>
 * hdr: family, command, sizes, reserved words as sent; filled: leading
 * output bytes that are nfit_test's answer (byte i = FUNC + i); kept:
 * output bytes after those still 0xa5 (untouched).
 *
 * Uses only the uapi <linux/ndctl.h> definitions.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ndctl.h>

static const char *errname(int e)
{
	switch (e) {
	case 0: return "0";
	case EINVAL: return "EINVAL";
	case EFAULT: return "EFAULT";
	case ENXIO: return "ENXIO";
	case ENOTTY: return "ENOTTY";
	case EBUSY: return "EBUSY";
	case EPERM: return "EPERM";
	case EIO: return "EIO";
	case ENOMEM: return "ENOMEM";
	case EACCES: return "EACCES";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ERANGE: return "ERANGE";
	case E2BIG: return "E2BIG";
	default: return "E?";
	}
}

static void die(const char *what)
{
	fprintf(stderr, "nd-label-ioctl: %s: %s\n", what, strerror(errno));
	exit(2);
}

static int open_dev_mode(const char *path, int mode)
{
	int fd = open(path, mode);

	if (fd < 0)
		die(path);
	return fd;
}

static int open_dev(const char *path)
{
	return open_dev_mode(path, O_RDWR);
}

static int get_size(int fd, struct nd_cmd_get_config_size *sz)
{
	memset(sz, 0, sizeof(*sz));
	return ioctl(fd, ND_IOCTL_GET_CONFIG_SIZE, sz);
}

/* buffer of len bytes that ends exactly at an inaccessible guard page */
static void *guarded(size_t len)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t span = (len + pg - 1) / pg * pg;
	char *p;

	p = mmap(NULL, span + pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		die("mmap");
	if (mprotect(p + span, pg, PROT_NONE))
		die("mprotect");
	return p + span - len;
}

static int cmd_size(const char *dev)
{
	struct nd_cmd_get_config_size sz;
	int fd = open_dev(dev), rc;

	rc = get_size(fd, &sz);
	printf("rc=%d err=%s status=%u config_size=%u max_xfer=%u\n",
	       rc < 0 ? -errno : rc, rc < 0 ? errname(errno) : "0",
	       sz.status, sz.config_size, sz.max_xfer);
	return rc == 0 ? 0 : 1;
}

static int cmd_flags(const char *dev)
{
	struct nd_cmd_dimm_flags fl;
	int fd = open_dev(dev), rc;

	memset(&fl, 0xa5, sizeof(fl));
	rc = ioctl(fd, ND_IOCTL_DIMM_FLAGS, &fl);
	printf("rc=%d err=%s status=%#x flags=%#x\n", rc < 0 ? -errno : rc,
	       rc < 0 ? errname(errno) : "0", fl.status, fl.flags);
	return 0;
}

static int xfer_all(const char *dev, const char *file, int do_write)
{
	struct nd_cmd_get_config_size sz;
	int fd = open_dev(dev), ffd, rc;
	uint8_t *area, *buf;
	uint32_t off;

	rc = get_size(fd, &sz);
	if (rc || sz.status || !sz.config_size || !sz.max_xfer) {
		fprintf(stderr, "GET_CONFIG_SIZE rc=%d status=%u size=%u max_xfer=%u\n",
			rc < 0 ? -errno : rc, sz.status, sz.config_size, sz.max_xfer);
		return 1;
	}
	area = calloc(1, sz.config_size);
	buf = calloc(1, sizeof(struct nd_cmd_set_config_hdr) + sz.max_xfer + 4 +
			sizeof(struct nd_cmd_get_config_data_hdr));
	if (!area || !buf)
		die("calloc");

	if (do_write) {
		ssize_t n;

		ffd = open(file, O_RDONLY);
		if (ffd < 0)
			die(file);
		n = read(ffd, area, sz.config_size);
		if (n != (ssize_t)sz.config_size) {
			fprintf(stderr, "%s: need %u bytes, got %zd\n", file,
				sz.config_size, n);
			return 1;
		}
		close(ffd);
	}

	for (off = 0; off < sz.config_size; off += sz.max_xfer) {
		uint32_t len = sz.config_size - off;

		if (len > sz.max_xfer)
			len = sz.max_xfer;
		if (do_write) {
			struct nd_cmd_set_config_hdr *h = (void *)buf;
			uint32_t status;

			h->in_offset = off;
			h->in_length = len;
			memcpy(h->in_buf, area + off, len);
			memset(h->in_buf + len, 0xff, 4);
			rc = ioctl(fd, ND_IOCTL_SET_CONFIG_DATA, h);
			memcpy(&status, h->in_buf + len, 4);
			if (rc || status) {
				fprintf(stderr, "SET_CONFIG_DATA off=%u len=%u rc=%d (%s) status=%u\n",
					off, len, rc < 0 ? -errno : rc,
					rc < 0 ? errname(errno) : "0", status);
				return 1;
			}
		} else {
			struct nd_cmd_get_config_data_hdr *h = (void *)buf;

			h->in_offset = off;
			h->in_length = len;
			h->status = 0xffffffff;
			rc = ioctl(fd, ND_IOCTL_GET_CONFIG_DATA, h);
			if (rc || h->status) {
				fprintf(stderr, "GET_CONFIG_DATA off=%u len=%u rc=%d (%s) status=%u\n",
					off, len, rc < 0 ? -errno : rc,
					rc < 0 ? errname(errno) : "0", h->status);
				return 1;
			}
			memcpy(area + off, h->out_buf, len);
		}
	}

	if (!do_write) {
		ffd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (ffd < 0)
			die(file);
		if (write(ffd, area, sz.config_size) != (ssize_t)sz.config_size)
			die("write");
		close(ffd);
	}
	printf("%s %u bytes in %u-byte chunks\n", do_write ? "wrote" : "read",
	       sz.config_size, sz.max_xfer);
	return 0;
}

static int cmd_raw(const char *dev, int set, uint32_t off, uint32_t len,
		   const char *bufarg)
{
	int fd = open_dev(dev), rc, err;
	uint64_t need, buflen;
	uint32_t status = 0;
	uint8_t *p;

	if (set)	/* header, data, status word after the data */
		need = sizeof(struct nd_cmd_set_config_hdr) + (uint64_t)len + 4;
	else		/* header incl. status, data */
		need = sizeof(struct nd_cmd_get_config_data_hdr) + (uint64_t)len;
	buflen = bufarg ? strtoull(bufarg, NULL, 0) : need;
	/*
	 * Envelopes too large to allocate here (in_length near 4 GiB) get a
	 * one-page buffer: a kernel that copies anyway faults on the guard
	 * page instead of reading past our heap.
	 */
	if (!bufarg && need > (64u << 20))
		buflen = 4096;
	if (buflen < 12)
		buflen = 12;	/* the fixed header is always there */
	if (buflen > (64u << 20)) {
		fprintf(stderr, "buffer too large for this tool\n");
		return 2;
	}
	p = guarded(buflen);
	memset(p, 0xa5, buflen);
	if (set) {
		struct nd_cmd_set_config_hdr *h = (void *)p;

		h->in_offset = off;
		h->in_length = len;
		rc = ioctl(fd, ND_IOCTL_SET_CONFIG_DATA, h);
		err = errno;
		if (need <= buflen)
			memcpy(&status, p + need - 4, 4);
		else
			status = 0xa5a5a5a5;	/* not observable */
	} else {
		struct nd_cmd_get_config_data_hdr *h = (void *)p;

		h->in_offset = off;
		h->in_length = len;
		h->status = 0xa5a5a5a5;
		rc = ioctl(fd, ND_IOCTL_GET_CONFIG_DATA, h);
		err = errno;
		status = h->status;
	}
	printf("rc=%d err=%s status=%#x\n", rc < 0 ? -err : rc,
	       rc < 0 ? errname(err) : "0", status);
	return 0;
}

#define CALL_FILL 0xa5

static int cmd_call(char **argv, const char *opt)
{
	uint32_t in = strtoul(argv[3], NULL, 0), out = strtoul(argv[4], NULL, 0);
	uint32_t i, filled, kept;
	struct nd_cmd_pkg *pkg, sent;
	int fd, rc, err, hdr_same, in_same = 1;
	uint8_t *o;

	if (in > (16u << 20) || out > (16u << 20)) {
		fprintf(stderr, "sizes too large for this tool\n");
		return 2;
	}
	fd = open_dev_mode(argv[0], strcmp(opt, "ro") ? O_RDWR : O_RDONLY);
	pkg = guarded(sizeof(*pkg) + in + out);
	memset(pkg, 0, sizeof(*pkg));
	pkg->nd_family = strtoull(argv[1], NULL, 0);
	pkg->nd_command = strtoull(argv[2], NULL, 0);
	pkg->nd_size_in = in;
	pkg->nd_size_out = out;
	if (!strcmp(opt, "reserved"))
		pkg->nd_reserved2[0] = 1;
	pkg->nd_fw_size = 0xdeadbeef;
	for (i = 0; i < in; i++)
		pkg->nd_payload[i] = 0x30 + i;
	memset(pkg->nd_payload + in, CALL_FILL, out);
	sent = *pkg;

	rc = ioctl(fd, ND_IOCTL_CALL, pkg);
	err = rc < 0 ? errno : 0;

	hdr_same = pkg->nd_family == sent.nd_family &&
		pkg->nd_command == sent.nd_command &&
		pkg->nd_size_in == sent.nd_size_in &&
		pkg->nd_size_out == sent.nd_size_out &&
		!memcmp(pkg->nd_reserved2, sent.nd_reserved2,
			sizeof(sent.nd_reserved2));
	for (i = 0; i < in; i++)
		if (pkg->nd_payload[i] != (uint8_t)(0x30 + i))
			in_same = 0;
	o = pkg->nd_payload + in;
	for (filled = 0; filled < out; filled++)
		if (o[filled] != (uint8_t)(sent.nd_command + filled))
			break;
	for (kept = 0, i = filled; i < out; i++)
		if (o[i] == CALL_FILL)
			kept++;
	printf("rc=%d err=%s fw_size=%u hdr=%s in=%s filled=%u kept=%u\n",
	       rc < 0 ? -err : rc, errname(err), pkg->nd_fw_size,
	       hdr_same ? "same" : "changed", in_same ? "same" : "changed",
	       filled, kept);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "size"))
		return cmd_size(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "flags"))
		return cmd_flags(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "read"))
		return xfer_all(argv[2], argv[3], 0);
	if (argc == 4 && !strcmp(argv[1], "write"))
		return xfer_all(argv[2], argv[3], 1);
	if ((argc == 5 || argc == 6) &&
	    (!strcmp(argv[1], "get") || !strcmp(argv[1], "set")))
		return cmd_raw(argv[2], argv[1][0] == 's',
			       strtoul(argv[3], NULL, 0), strtoul(argv[4], NULL, 0),
			       argc == 6 ? argv[5] : NULL);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "call"))
		return cmd_call(argv + 2, argc == 8 ? argv[7] : "");
	fprintf(stderr,
		"usage: nd-label-ioctl size DEV | read DEV FILE | write DEV FILE |\n"
		"       get DEV OFF LEN [BUFLEN] | set DEV OFF LEN [BUFLEN] |\n"
		"       flags DEV | call DEV FAMILY FUNC IN OUT [ro|reserved]\n");
	return 2;
}
