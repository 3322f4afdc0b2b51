/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nfit_test's Address Range Scrub firmware (nfit_test_ars.c): the bus
 * commands ARS_CAP/START/STATUS and CLEAR_ERROR and the error-injection
 * functions, answered from the DIMMs' poison bitmaps (nfit_test.c).
 */
#ifndef __NFIT_TEST_ARS_H__
#define __NFIT_TEST_ARS_H__

#include <linux/types.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/atomic.h>
#include <uapi/linux/ndctl.h>

struct acpi_nfit_desc;
struct dentry;
struct device;

#define NT_ARS_MAX_RANGES	2
#define NT_ARS_MAX_WAYS		4
/* most records one scrub keeps (max_ars_out can be raised to it) */
#define NT_ARS_MAX_RECORDS	256

/**
 * struct nt_ars_range - one persistent-memory range, as the media sees it
 * @spa: its (fake) system-physical start
 * @size: its length
 * @dpa: first DPA of each member's part
 * @ways: members, interleaved in lines of @ileave bytes
 * @poison: each member's poison bitmap (a bit per @line bytes of DPA)
 * @handle: each member's NFIT device handle
 */
struct nt_ars_range {
	u64 spa;
	u64 size;
	u64 dpa;
	unsigned int ways;
	unsigned long *poison[NT_ARS_MAX_WAYS];
	u32 handle[NT_ARS_MAX_WAYS];
};

/**
 * struct nt_ars - the ARS firmware of one mock bus
 * @dev: where it logs (the platform device)
 * @acpi_desc: the bus, for the notification an injection may ask for
 * @poison_lock: nfit_test's lock of the poison bitmaps
 * @poisoned: nfit_test's count of poisoned lines
 * @line: poison granularity (bytes of DPA per bit)
 * @ileave: interleave line of the ranges
 * @dpa_size: bits in each poison bitmap times @line
 * @nr: ranges in @r
 * @r: the ranges
 * @lock: protects the scrub state below
 * @started: a scrub was started (its results are below)
 * @deadline: jiffies when the started scrub completes
 * @addr: the range it scrubs
 * @len: its length
 * @ext: its extended status once complete (0, or 3: stopped early)
 * @restart_addr: with @ext 3, where to go on
 * @restart_len: its length
 * @nrec: records found
 * @rec: the records
 * @delay_ms: knob: how long a scrub takes
 * @max_ars_out: knob: ARS Cap's max_ars_out (256, as the v4.2 mock)
 * @clear_unit: knob: ARS Cap's clear_err_unit
 * @corrupt: knob: NT_ARS_CORRUPT_* lie in every ARS Status
 * @caps: ARS Cap calls
 * @starts: ARS Start calls that started a scrub
 * @busy: ARS Start calls refused while one ran
 * @statuses: ARS Status calls
 * @scrubs: scrubs reported complete by ARS Status (each once)
 * @clears: Clear Error calls that cleared
 * @injects: injections (set) that poisoned
 * @refused: calls answered with status "invalid input"
 * @reported: the current scrub was reported complete
 */
struct nt_ars {
	struct device *dev;
	struct acpi_nfit_desc *acpi_desc;
	spinlock_t *poison_lock; /* nfit_test's, of the bitmaps */
	atomic_long_t *poisoned;
	u32 line;
	u32 ileave;
	u64 dpa_size;
	unsigned int nr;
	struct nt_ars_range r[NT_ARS_MAX_RANGES];
	struct mutex lock; /* the scrub state and counters */
	bool started;
	unsigned long deadline;
	u64 addr;
	u64 len;
	u16 ext;
	u64 restart_addr;
	u64 restart_len;
	u32 nrec;
	struct nd_ars_record rec[NT_ARS_MAX_RECORDS];
	u32 delay_ms;
	u32 max_ars_out;
	u32 clear_unit;
	u32 corrupt;
	u64 caps;
	u64 starts;
	u64 busy;
	u64 statuses;
	u64 scrubs;
	u64 clears;
	u64 injects;
	u64 refused;
	bool reported;
};

/* nt_ars.corrupt: what every ARS Status answer lies about */
enum {
	NT_ARS_CORRUPT_NONE,
	NT_ARS_CORRUPT_NUM,		/* num_records 0xffffffff */
	NT_ARS_CORRUPT_OUT_LEN,		/* out_length past the buffer */
	NT_ARS_CORRUPT_OUTSIDE,		/* one more record past the range */
	NT_ARS_CORRUPT_WRAP,		/* one more record that wraps */
	NT_ARS_CORRUPT_RESTART,		/* stopped early, restart past the range */
	NT_ARS_CORRUPT_BUSY,		/* never completes */
	NT_ARS_CORRUPT_NR,
};

void nt_ars_init(struct nt_ars *a);
int nt_ars_ctl(struct nt_ars *a, unsigned int cmd, void *buf,
	       unsigned int buf_len, int *cmd_rc);
int nt_ars_call(struct nt_ars *a, void *buf, unsigned int buf_len);
void nt_ars_debugfs(struct nt_ars *a, struct dentry *dir);

#endif /* __NFIT_TEST_ARS_H__ */
