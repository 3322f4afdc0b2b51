// SPDX-License-Identifier: GPL-2.0
/*
 * nfit_test: the mock firmware of firmware update and runtime activation
 * (docs/nfit_test.md "Firmware update", docs/firmware.md).
 *
 * Each DIMM has an image store of NT_FW_STORAGE bytes and a small state
 * machine, with the Intel DSM specification's status codes for what is
 * out of order:
 *
 *   idle --start--> receiving --finish--> verifying --(NT_FW_VERIFY_MS,
 *   seen by a finish query)--> staged; start from idle or staged (a new
 *   image replaces the staged one), abort (finish with ctrl_flags 1)
 *   from receiving back to idle.
 *
 *   start     while receiving or verifying: 0x10007 (busy)
 *   send      not receiving, or another context: 0x10007; length 0, over
 *             max_send_len or past the store (offset + length, summed in
 *             64 bits): 3 (invalid parameter)
 *   finish    not receiving, or another context: 0x10007; already
 *             verifying or staged: 0x20007 (done); an image with no
 *             bytes, shorter than NT_FW_MIN_IMAGE or with holes (bytes
 *             received short of its end): 0x30007 (bad image, back to
 *             idle); abort: 0x40007 (aborted, back to idle)
 *   query     another context: 0x10007; verifying: 0x20007 (busy);
 *             idle or receiving: 0x40007 (out of sequence); staged: 0
 *             with the staged version
 *
 * A staged image's version is 0x0200000000000000 | crc32 of the image;
 * the running version starts at 0x0100000000000000 | handle.  Arming is
 * allowed in any state; activation (bus function 2) takes every armed
 * DIMM: a staged image becomes the running one (result "success"),
 * otherwise the result is "not staged" (a DIMM that was not armed: "none");
 * the DIMMs disarm and the bus is
 * busy for NT_FWA_BUSY_MS.  Each armed DIMM adds a second to the
 * estimated activation time against a platform maximum of three, so four
 * armed DIMMs overflow.  The capability is FW quiesce + OS quiesce (6.1:
 * "quiesce"), or OS quiesce alone with nfit_test.fw_live=1 ("live").
 *
 * The updated version (Get Firmware Info) is the staged image's, 0 once
 * activated, as the specification has it.  6.1's mock keeps reporting
 * the last image it staged there whatever an activation did, and
 * ndctl's firmware-update.sh counts on that (activate_state is listed
 * only beside a nonzero next_version): topology=6.1 does the same
 * (@keep_updated).
 */
#include <linux/device.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/mutex.h>
#include <linux/jiffies.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <uapi/linux/ndctl.h>
#include "intel-firmware.h"
#include "nfit_test_fw.h"

#define NT_FW_STORAGE		SZ_256K
#define NT_FW_MAX_SEND		SZ_16K
#define NT_FW_MIN_IMAGE		64
#define NT_FW_QUERY_US		50000
#define NT_FW_MAX_QUERY_US	3000000
#define NT_FW_VERIFY_MS		100
#define NT_FW_FIS		0x0201
#define NT_FWA_BUSY_MS		500
#define NT_FWA_DIMM_US		1000000ULL
#define NT_FWA_MAX_US		3000000ULL

enum nt_fw_state {
	NT_FW_IDLE,
	NT_FW_RECEIVING,
	NT_FW_VERIFYING,
	NT_FW_STAGED,
};

/**
 * struct nt_fw_dimm - one DIMM's firmware
 * @state: enum nt_fw_state
 * @context: the current update's context (a new one at each start)
 * @image: the store, NT_FW_STORAGE bytes
 * @received: bytes received in this update (overlaps counted twice)
 * @end: highest offset + length received in this update
 * @size: bytes of the image being verified or staged
 * @verified: when verification completes (jiffies)
 * @run_version: the running firmware
 * @staged_version: the staged image's version (state staged)
 * @last_staged: the version of the last image staged (@keep_updated)
 * @armed: armed for activation
 * @result: the last activation's result (NFIT_INTEL_DIMM_FWA_*)
 * @updates: images staged
 * @activations: activations that ran the DIMM
 */
struct nt_fw_dimm {
	enum nt_fw_state state;
	u32 context;
	u8 *image;
	u32 received;
	u32 end;
	u32 size;
	unsigned long verified;
	u64 run_version;
	u64 staged_version;
	u64 last_staged;
	bool armed;
	u16 result;
	u64 updates;
	u64 activations;
};

struct nt_fw {
	struct mutex lock; /* everything below */
	unsigned int nr_dimms;
	bool live;
	bool keep_updated;
	unsigned long busy_until;
	bool busy;
	struct nt_fw_dimm dimm[];
};

static void nt_fw_free(void *data)
{
	struct nt_fw *fw = data;
	unsigned int i;

	for (i = 0; i < fw->nr_dimms; i++)
		vfree(fw->dimm[i].image);
	kfree(fw);
}

/**
 * nt_fw_create - the firmware of a mock bus with @nr_dimms DIMMs
 * @dev: the mock bus's device (the store goes with it)
 * @nr_dimms: DIMMs
 * @live: report the "live" capability (OS quiesce only)
 * @keep_updated: 6.1's mock: the last image staged stays the updated
 *	version after its activation
 *
 * Returns the firmware or NULL.
 */
struct nt_fw *nt_fw_create(struct device *dev, unsigned int nr_dimms,
			   bool live, bool keep_updated)
{
	struct nt_fw *fw;
	unsigned int i;

	fw = kzalloc(struct_size(fw, dimm, nr_dimms), GFP_KERNEL);
	if (!fw)
		return NULL;
	mutex_init(&fw->lock);
	fw->nr_dimms = nr_dimms;
	fw->live = live;
	fw->keep_updated = keep_updated;
	for (i = 0; i < nr_dimms; i++) {
		fw->dimm[i].image = vzalloc(NT_FW_STORAGE);
		fw->dimm[i].run_version = 0x0100000000000000ULL | i;
		if (!fw->dimm[i].image) {
			nt_fw_free(fw);
			return NULL;
		}
	}
	if (devm_add_action_or_reset(dev, nt_fw_free, fw))
		return NULL;
	return fw;
}

/* verification ends when its time has come (seen by whoever looks) */
static void nt_fw_settle(struct nt_fw_dimm *d)
{
	if (d->state == NT_FW_VERIFYING && time_after_eq(jiffies, d->verified)) {
		d->state = NT_FW_STAGED;
		d->staged_version = 0x0200000000000000ULL |
			crc32_le(~0U, d->image, d->size);
		d->last_staged = d->staged_version;
		d->updates++;
	}
}

static void nt_fw_get_info(struct nt_fw *fw, struct nt_fw_dimm *d,
			   void *out)
{
	struct nfit_intel_fw_info *info = out;
	u64 updated = 0;

	if (d->state == NT_FW_STAGED)
		updated = d->staged_version;
	else if (fw->keep_updated)
		updated = d->last_staged;

	*info = (struct nfit_intel_fw_info) {
		.storage_size = NT_FW_STORAGE,
		.max_send_len = NT_FW_MAX_SEND,
		.query_interval = NT_FW_QUERY_US,
		.max_query_time = NT_FW_MAX_QUERY_US,
		.fis_version = NT_FW_FIS,
		.run_version = d->run_version,
		.updated_version = updated,
	};
}

static u32 nt_fw_start(struct nt_fw_dimm *d, struct nfit_intel_fw_start *st)
{
	if (d->state == NT_FW_RECEIVING || d->state == NT_FW_VERIFYING)
		return NFIT_INTEL_ST_FW_BUSY_CTX;
	d->state = NT_FW_RECEIVING;
	d->context++;
	d->received = 0;
	d->end = 0;
	d->staged_version = 0;
	st->context = d->context;
	return 0;
}

static u32 nt_fw_send(struct device *dev, struct nt_fw_dimm *d,
		      const struct nfit_intel_fw_send *snd, u32 data_len)
{
	u32 end;

	if (d->state != NT_FW_RECEIVING || snd->context != d->context) {
		dev_dbg(dev, "fw send: no update with context %#x\n", snd->context);
		return NFIT_INTEL_ST_FW_BUSY_CTX;
	}
	if (!snd->length || snd->length > NT_FW_MAX_SEND ||
	    snd->length > data_len ||
	    check_add_overflow(snd->offset, snd->length, &end) ||
	    end > NT_FW_STORAGE) {
		dev_dbg(dev, "fw send: [%#x, +%#x) (%u bytes sent) refused\n",
			snd->offset, snd->length, data_len);
		return NFIT_INTEL_ST_INVALID_PARAM;
	}
	memcpy(d->image + snd->offset, snd->data, snd->length);
	d->received = min_t(u64, (u64)d->received + snd->length, U32_MAX);
	d->end = max(d->end, end);
	return 0;
}

static u32 nt_fw_finish(struct device *dev, struct nt_fw_dimm *d,
			const struct nfit_intel_fw_finish *fin)
{
	if ((d->state == NT_FW_VERIFYING || d->state == NT_FW_STAGED) &&
	    fin->context == d->context)
		return NFIT_INTEL_ST_FW_DONE_BUSY;
	if (d->state != NT_FW_RECEIVING || fin->context != d->context) {
		dev_dbg(dev, "fw finish: no update with context %#x\n",
			fin->context);
		return NFIT_INTEL_ST_FW_BUSY_CTX;
	}
	if (fin->ctrl_flags == NFIT_INTEL_FW_ABORT) {
		d->state = NT_FW_IDLE;
		return NFIT_INTEL_ST_FW_ABORT_SEQ;
	}
	if (fin->ctrl_flags != NFIT_INTEL_FW_FINISH)
		return NFIT_INTEL_ST_INVALID_PARAM;
	if (d->end < NT_FW_MIN_IMAGE || d->received < d->end) {
		dev_dbg(dev, "fw finish: bad image: %u bytes received, ends at %u\n",
			d->received, d->end);
		d->state = NT_FW_IDLE;
		return NFIT_INTEL_ST_FW_BAD;
	}
	d->size = d->end;
	d->state = NT_FW_VERIFYING;
	d->verified = jiffies + msecs_to_jiffies(NT_FW_VERIFY_MS);
	return 0;
}

static u32 nt_fw_query(struct nt_fw_dimm *d, struct nfit_intel_fw_query *q)
{
	q->updated_fw_rev = 0;
	if (q->context != d->context)
		return NFIT_INTEL_ST_FW_BUSY_CTX;
	nt_fw_settle(d);
	switch (d->state) {
	case NT_FW_VERIFYING:
		return NFIT_INTEL_ST_FW_DONE_BUSY;
	case NT_FW_STAGED:
		q->updated_fw_rev = d->staged_version;
		return 0;
	default:
		return NFIT_INTEL_ST_FW_ABORT_SEQ;
	}
}

static bool nt_fwa_busy(struct nt_fw *fw)
{
	if (fw->busy && time_after_eq(jiffies, fw->busy_until))
		fw->busy = false;
	return fw->busy;
}

static unsigned int nt_fwa_armed(struct nt_fw *fw)
{
	unsigned int i, n = 0;

	for (i = 0; i < fw->nr_dimms; i++)
		n += fw->dimm[i].armed;
	return n;
}

static void nt_fwa_dimminfo(struct nt_fw *fw, struct nt_fw_dimm *d,
			    struct nfit_intel_fwa_dimminfo *info)
{
	memset(info, 0, sizeof(*info));
	if (nt_fwa_busy(fw))
		info->state = NFIT_INTEL_FWA_BUSY;
	else
		info->state = d->armed ? NFIT_INTEL_FWA_ARMED : NFIT_INTEL_FWA_IDLE;
	info->result = d->result;
}

/*
 * Check a package against the sizes a function needs: exactly @in input
 * bytes (send data: at least), at least @out output bytes.  The output,
 * status first, follows the input.  NULL if bad.
 */
static void *nt_fw_payload(struct device *dev, void *buf, unsigned int buf_len,
			   u32 in, u32 out)
{
	struct nd_cmd_pkg *pkg = buf;
	bool var_in = pkg->nd_family == NVDIMM_FAMILY_INTEL &&
		pkg->nd_command == NFIT_INTEL_FW_SEND_DATA;

	if (buf_len < sizeof(*pkg) ||
	    (u64)pkg->nd_size_in + pkg->nd_size_out > buf_len - sizeof(*pkg) ||
	    pkg->nd_size_in < in || (!var_in && pkg->nd_size_in != in) ||
	    pkg->nd_size_out < out) {
		dev_dbg(dev, "fw call %llu: sizes in %u out %u, need %u and %u\n",
			pkg->nd_command, pkg->nd_size_in, pkg->nd_size_out,
			in, out);
		return NULL;
	}
	pkg->nd_fw_size = out;
	return pkg->nd_payload;
}

/**
 * nt_fw_dimm_call - a DIMM's ND_CMD_CALL of the firmware functions
 * @fw: the bus's firmware (NULL: none)
 * @idx: the DIMM
 * @dev: its nmemN, for messages
 * @buf: the package
 * @buf_len: its envelope
 *
 * Returns -ENOTTY for a function this file does not answer, -EINVAL for
 * a package too small for the function's payload, else the output bytes
 * left unfilled (0).
 */
int nt_fw_dimm_call(struct nt_fw *fw, unsigned int idx, struct device *dev,
		    void *buf, unsigned int buf_len)
{
	struct nd_cmd_pkg *pkg = buf;
	struct nt_fw_dimm *d;
	u32 in = 0, out, status;
	void *p;

	if (!fw || idx >= fw->nr_dimms || buf_len < sizeof(*pkg) ||
	    pkg->nd_family != NVDIMM_FAMILY_INTEL)
		return -ENOTTY;
	switch (pkg->nd_command) {
	case NFIT_INTEL_FW_GET_INFO:
		out = sizeof(struct nfit_intel_fw_info);
		break;
	case NFIT_INTEL_FW_START_UPDATE:
		out = sizeof(struct nfit_intel_fw_start);
		break;
	case NFIT_INTEL_FW_SEND_DATA:
		in = sizeof(struct nfit_intel_fw_send);
		out = sizeof(u32);
		break;
	case NFIT_INTEL_FW_FINISH_UPDATE:
		in = offsetof(struct nfit_intel_fw_finish, status);
		out = sizeof(u32);
		break;
	case NFIT_INTEL_FW_FINISH_QUERY:
		in = offsetof(struct nfit_intel_fw_query, status);
		out = sizeof(struct nfit_intel_fw_query) - in;
		break;
	case NFIT_INTEL_FWA_DIMMINFO:
		out = sizeof(struct nfit_intel_fwa_dimminfo);
		break;
	case NFIT_INTEL_FWA_ARM:
		in = 1;
		out = sizeof(u32);
		break;
	default:
		return -ENOTTY;
	}
	p = nt_fw_payload(dev, buf, buf_len, in, out);
	if (!p)
		return -EINVAL;
	d = &fw->dimm[idx];
	mutex_lock(&fw->lock);
	nt_fw_settle(d);
	switch (pkg->nd_command) {
	case NFIT_INTEL_FW_GET_INFO:
		nt_fw_get_info(fw, d, p);
		status = 0;
		break;
	case NFIT_INTEL_FW_START_UPDATE:
		status = nt_fw_start(d, p);
		break;
	case NFIT_INTEL_FW_SEND_DATA:
		status = nt_fw_send(dev, d, p, pkg->nd_size_in - in);
		break;
	case NFIT_INTEL_FW_FINISH_UPDATE:
		status = nt_fw_finish(dev, d, p);
		break;
	case NFIT_INTEL_FW_FINISH_QUERY:
		status = nt_fw_query(d, p);
		break;
	case NFIT_INTEL_FWA_DIMMINFO:
		nt_fwa_dimminfo(fw, d, p);
		status = 0;
		break;
	default: /* NFIT_INTEL_FWA_ARM */
		status = 0;
		if (*(u8 *)p > 1)
			status = NFIT_INTEL_ST_INVALID_PARAM;
		else
			d->armed = *(u8 *)p;
		break;
	}
	mutex_unlock(&fw->lock);
	/* the status word: the first output word */
	memcpy(p + pkg->nd_size_in, &status, sizeof(status));
	if (status)
		dev_dbg(dev, "fw call %llu: status %#x\n", pkg->nd_command, status);
	return pkg->nd_size_out - out;
}

static u32 nt_fwa_activate(struct nt_fw *fw)
{
	unsigned int i;

	if (nt_fwa_busy(fw))
		return NFIT_INTEL_BUS_FWA_ST_BUSY;
	if (!nt_fwa_armed(fw))
		return NFIT_INTEL_BUS_FWA_ST_NOARM;
	for (i = 0; i < fw->nr_dimms; i++) {
		struct nt_fw_dimm *d = &fw->dimm[i];

		if (!d->armed) {
			/* its result is the last activation's: it had none */
			d->result = NFIT_INTEL_DIMM_FWA_NONE;
			continue;
		}
		nt_fw_settle(d);
		if (d->state == NT_FW_STAGED) {
			d->run_version = d->staged_version;
			d->staged_version = 0;
			d->state = NT_FW_IDLE;
			d->result = NFIT_INTEL_DIMM_FWA_SUCCESS;
			d->activations++;
		} else {
			d->result = NFIT_INTEL_DIMM_FWA_NOTSTAGED;
		}
		d->armed = false;
	}
	fw->busy = true;
	fw->busy_until = jiffies + msecs_to_jiffies(NT_FWA_BUSY_MS);
	return 0;
}

/**
 * nt_fw_bus_call - the bus's ND_CMD_CALL of the Intel bus family
 * @fw: the bus's firmware (NULL: none)
 * @dev: the mock bus's device, for messages
 * @buf: the package
 * @buf_len: its envelope
 *
 * Returns -ENOTTY for what this file does not answer, -EINVAL for a
 * package too small, else the output bytes left unfilled (0).
 */
int nt_fw_bus_call(struct nt_fw *fw, struct device *dev, void *buf,
		   unsigned int buf_len)
{
	struct nd_cmd_pkg *pkg = buf;
	struct nfit_intel_bus_fwa_info *info;
	u32 status, armed;
	u8 *p;

	if (!fw || buf_len < sizeof(*pkg) ||
	    pkg->nd_family != NVDIMM_BUS_FAMILY_INTEL)
		return -ENOTTY;
	if (pkg->nd_command == NFIT_INTEL_BUS_FWA_BUSINFO) {
		info = nt_fw_payload(dev, buf, buf_len, 0, sizeof(*info));
		if (!info)
			return -EINVAL;
		mutex_lock(&fw->lock);
		armed = nt_fwa_armed(fw);
		*info = (struct nfit_intel_bus_fwa_info) {
			.state = nt_fwa_busy(fw) ? NFIT_INTEL_FWA_BUSY :
				armed ? NFIT_INTEL_FWA_ARMED : NFIT_INTEL_FWA_IDLE,
			.capability = fw->live ? NFIT_INTEL_BUS_FWA_CAP_OSQUIESCE :
				NFIT_INTEL_BUS_FWA_CAP_FWQUIESCE |
				NFIT_INTEL_BUS_FWA_CAP_OSQUIESCE,
			.activate_tmo = armed * NT_FWA_DIMM_US,
			.cpu_quiesce_tmo = armed * NT_FWA_DIMM_US,
			.io_quiesce_tmo = armed * NT_FWA_DIMM_US,
			.max_quiesce_tmo = NT_FWA_MAX_US,
		};
		mutex_unlock(&fw->lock);
		return pkg->nd_size_out - sizeof(*info);
	}
	if (pkg->nd_command != NFIT_INTEL_BUS_FWA_ACTIVATE)
		return -ENOTTY;
	p = nt_fw_payload(dev, buf, buf_len, 1, sizeof(u32));
	if (!p)
		return -EINVAL;
	mutex_lock(&fw->lock);
	status = p[0] > NFIT_INTEL_BUS_FWA_OS_IDLE ?
		NFIT_INTEL_ST_INVALID_PARAM : nt_fwa_activate(fw);
	mutex_unlock(&fw->lock);
	memcpy(p + 1, &status, sizeof(status));
	dev_dbg(dev, "firmware activation (iodev_state %u): status %#x\n",
		p[0], status);
	return pkg->nd_size_out - sizeof(u32);
}

/**
 * nt_fw_debugfs - a DIMM's counters in its debugfs directory
 * @fw: the bus's firmware (NULL: none)
 * @idx: the DIMM
 * @dir: its directory
 */
void nt_fw_debugfs(struct nt_fw *fw, unsigned int idx, struct dentry *dir)
{
	if (!fw || idx >= fw->nr_dimms)
		return;
	debugfs_create_u64("fw_updates", 0400, dir, &fw->dimm[idx].updates);
	debugfs_create_u64("fw_activations", 0400, dir,
			   &fw->dimm[idx].activations);
}
