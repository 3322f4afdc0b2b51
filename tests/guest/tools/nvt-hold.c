// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-hold DEVICE READYFILE: hold DEVICE open with O_EXCL (as a mounted
 * filesystem does) until killed.  READYFILE is created once the device is
 * held, so a script can wait for it.  Exit 1 if the open fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int fd, r;

	if (argc != 3) {
		fprintf(stderr, "usage: nvt-hold DEVICE READYFILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY | O_EXCL);
	if (fd < 0) {
		fprintf(stderr, "nvt-hold: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	r = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (r < 0) {
		fprintf(stderr, "nvt-hold: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	close(r);
	for (;;)
		pause();
	return 0;
}
