// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-poke: write VALUE into FILE as fast as possible, over and over,
 * until STOPFILE exists; a missing FILE is simply tried again.  For
 * racing attribute writes against the creation of the device that owns
 * them (the write lands in the window between the attribute appearing in
 * sysfs and the device's probe).
 *
 *   nvt-poke STOPFILE VALUE FILE...
 *
 * Prints "writes=N" (writes that reached an existing file) at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	unsigned long writes = 0, rounds = 0;
	size_t len;
	int i, fd;

	if (argc < 4) {
		fprintf(stderr, "usage: nvt-poke STOPFILE VALUE FILE...\n");
		return 2;
	}
	len = strlen(argv[2]);
	for (;;) {
		if (!(++rounds & 1023) && access(argv[1], F_OK) == 0)
			break;
		for (i = 3; i < argc; i++) {
			fd = open(argv[i], O_WRONLY);
			if (fd < 0)
				continue;
			if (write(fd, argv[2], len) >= 0 || errno != ENOENT)
				writes++;
			close(fd);
		}
	}
	printf("writes=%lu\n", writes);
	return 0;
}
