/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef _FAKE_FW_H_
#define _FAKE_FW_H_

/* fake_fw.c's answer to ND_IOCTL_CALL, or FAKE_FW_PASS: not its call */
#define FAKE_FW_PASS	(-2)
int fake_fw_call(int fd, unsigned long req, void *arg);

#endif
