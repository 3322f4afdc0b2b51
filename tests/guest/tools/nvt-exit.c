// SPDX-License-Identifier: GPL-2.0
/*
 * nvt-exit CODE: end the VM through QEMU's isa-debug-exit device
 * (iobase 0xf4).  It writes 0x20 + CODE, so QEMU exits with status
 * ((0x20 + CODE) << 1) | 1 = 65 + 2 * CODE, which the host (vm/nvt.py,
 * EXIT_BASE) tells apart from QEMU's own exit status 1.
 * Falls back to reboot(RB_POWER_OFF) if the port write does not stop us.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	sync();
	if (ioperm(0xf4, 4, 1) == 0)
		outl(0x20 + (code & 0x3f), 0xf4);
	else
		perror("ioperm");
	sleep(1);
	reboot(RB_POWER_OFF);
	return 1;
}
