// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-ars: raw Address Range Scrub and error-injection ioctls of a bus
 * (/dev/ndctlN), for bad input ndctl itself would not send.
 *
 *   nvt-ars cap    DEV ADDR LEN            ND_IOCTL_ARS_CAP
 *   nvt-ars start  DEV ADDR LEN [TYPE]     ND_IOCTL_ARS_START (TYPE 2)
 *   nvt-ars status DEV SIZE                ND_IOCTL_ARS_STATUS, SIZE-byte
 *                                          envelope (out_length = SIZE)
 *   nvt-ars clear  DEV ADDR LEN            ND_IOCTL_CLEAR_ERROR
 *   nvt-ars inject DEV ADDR LEN [OPTIONS]  ND_IOCTL_CALL, NFIT bus family,
 *                                          function 7 (ARS_INJECT_SET)
 *   nvt-ars uninject DEV ADDR LEN          function 8 (ARS_INJECT_CLEAR)
 *   nvt-ars injected DEV [ROOM]            function 9 (ARS_INJECT_GET),
 *                                          ROOM bytes of records (256)
 *
 * Numbers in C notation.  One line out, "rc=<ioctl return or -errno>"
 * then the fields of the answer; exit 0 (the caller judges).  Only the
 * uapi <linux/ndctl.h> definitions, and the injection payloads' layout
 * (6.1's NFIT error-injection functions).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/ndctl.h>

struct inj_set {
	uint64_t base;
	uint64_t length;
	uint8_t options;
	uint32_t status;
} __attribute__((packed));

struct inj_clr {
	uint64_t base;
	uint64_t length;
	uint32_t status;
} __attribute__((packed));

struct inj_stat {
	uint32_t status;
	uint32_t count;
	struct {
		uint64_t base;
		uint64_t length;
	} __attribute__((packed)) rec[];
} __attribute__((packed));

static uint64_t num(const char *s)
{
	return strtoull(s, NULL, 0);
}

static int do_ioctl(int fd, unsigned long req, void *buf)
{
	int rc = ioctl(fd, req, buf);

	return rc < 0 ? -errno : rc;
}

static int call(int fd, unsigned int func, const void *in, uint32_t in_len,
		uint32_t out_len, void *out)
{
	struct nd_cmd_pkg *pkg = calloc(1, sizeof(*pkg) + in_len + out_len);
	int rc;

	pkg->nd_family = NVDIMM_BUS_FAMILY_NFIT;
	pkg->nd_command = func;
	pkg->nd_size_in = in_len;
	pkg->nd_size_out = out_len;
	memcpy(pkg->nd_payload, in, in_len);
	rc = do_ioctl(fd, ND_IOCTL_CALL, pkg);
	memcpy(out, pkg->nd_payload + in_len, out_len);
	printf("rc=%d fw_size=%u ", rc, pkg->nd_fw_size);
	free(pkg);
	return rc;
}

int main(int argc, char **argv)
{
	const char *op;
	int fd, rc;

	if (argc < 3) {
		fprintf(stderr, "usage: nvt-ars cap|start|status|clear|inject|uninject|injected DEV ...\n");
		return 2;
	}
	op = argv[1];
	fd = open(argv[2], O_RDWR);
	if (fd < 0) {
		printf("rc=%d open\n", -errno);
		return 0;
	}
	if (!strcmp(op, "cap") && argc >= 5) {
		struct nd_cmd_ars_cap c = { .address = num(argv[3]),
					    .length = num(argv[4]) };

		rc = do_ioctl(fd, ND_IOCTL_ARS_CAP, &c);
		printf("rc=%d status=%#x max_ars_out=%u clear_err_unit=%u\n",
		       rc, c.status, c.max_ars_out, c.clear_err_unit);
	} else if (!strcmp(op, "start") && argc >= 5) {
		struct nd_cmd_ars_start s = { .address = num(argv[3]),
					      .length = num(argv[4]),
					      .type = argc > 5 ? num(argv[5]) :
						      ND_ARS_PERSISTENT };

		rc = do_ioctl(fd, ND_IOCTL_ARS_START, &s);
		printf("rc=%d status=%#x\n", rc, s.status);
	} else if (!strcmp(op, "status") && argc >= 4) {
		uint32_t size = num(argv[3]), i;
		struct nd_cmd_ars_status *s = calloc(1, size + 4096);

		s->out_length = size;
		rc = do_ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, ND_IOCTL,
				       ND_CMD_ARS_STATUS, sizeof(*s)), s);
		printf("rc=%d status=%#x out_length=%u num=%u flags=%#x restart=%#llx+%#llx",
		       rc, s->status, s->out_length, s->num_records, s->flags,
		       (unsigned long long)s->restart_address,
		       (unsigned long long)s->restart_length);
		for (i = 0; rc >= 0 && i < s->num_records &&
		     sizeof(*s) + (i + 1) * sizeof(s->records[0]) <= size; i++)
			printf(" %#llx+%#llx", (unsigned long long)s->records[i].err_address,
			       (unsigned long long)s->records[i].length);
		printf("\n");
		free(s);
	} else if (!strcmp(op, "clear") && argc >= 5) {
		struct nd_cmd_clear_error c = { .address = num(argv[3]),
						.length = num(argv[4]) };

		rc = do_ioctl(fd, ND_IOCTL_CLEAR_ERROR, &c);
		printf("rc=%d status=%#x cleared=%#llx\n", rc, c.status,
		       (unsigned long long)c.cleared);
	} else if (!strcmp(op, "inject") && argc >= 5) {
		struct inj_set s = { .base = num(argv[3]), .length = num(argv[4]),
				     .options = argc > 5 ? num(argv[5]) : 0 };
		uint32_t status = 0;

		call(fd, 7, &s, offsetof(struct inj_set, status), 4, &status);
		printf("status=%#x\n", status);
	} else if (!strcmp(op, "uninject") && argc >= 5) {
		struct inj_clr c = { .base = num(argv[3]), .length = num(argv[4]) };
		uint32_t status = 0;

		call(fd, 8, &c, offsetof(struct inj_clr, status), 4, &status);
		printf("status=%#x\n", status);
	} else if (!strcmp(op, "injected")) {
		uint32_t room = argc > 3 ? num(argv[3]) : 256, i;
		struct inj_stat *st = calloc(1, sizeof(*st) + room);

		rc = call(fd, 9, NULL, 0, sizeof(*st) + room, st);
		printf("status=%#x count=%u", st->status, st->count);
		for (i = 0; rc >= 0 && i < st->count &&
		     (i + 1) * sizeof(st->rec[0]) <= room; i++)
			printf(" %#llx+%#llx", (unsigned long long)st->rec[i].base,
			       (unsigned long long)st->rec[i].length);
		printf("\n");
		free(st);
	} else {
		fprintf(stderr, "nvt-ars: bad arguments\n");
		return 2;
	}
	return 0;
}
