// SPDX-License-Identifier: GPL-2.0
/*
 * Passphrase security of Intel-family DIMMs (Intel DSM specification
 * v1.8, functions 19-28): libnvdimm's struct nvdimm_security_ops carried
 * out as ND_CMD_CALL packages through the bus's ndctl hook, so an ACPI
 * DIMM's _DSM and nfit_test's mock firmware answer alike.  Firmware
 * status codes become 6.1's errnos: a wrong passphrase -EINVAL, a
 * function the DIMM lacks -EOPNOTSUPP, a wrong state -EIO (change key,
 * unlock, freeze) or -ENXIO (disable, erase, overwrite), an overwrite
 * still running -EBUSY.
 */
#include <linux/module.h>
#include <linux/string.h>
#include <asm/smp.h>
#include "nfit.h"
#include "intel-security.h"

/* the package and its largest payload (two passphrases and a status) */
struct nfit_sec_call {
	struct nd_cmd_pkg pkg;
	u8 payload[2 * NFIT_INTEL_PASSPHRASE_LEN + sizeof(u32)];
} __packed;

/*
 * Run Intel function @func with @in_len bytes of @in; @out_len bytes of
 * answer go to @out.  Returns the ndctl hook's negative errno, or 0.
 */
static int nfit_sec_run(struct nvdimm *nvdimm, unsigned int func,
			const void *in, u32 in_len, void *out, u32 out_len)
{
	struct device *bus_dev = nvdimm_dev(nvdimm)->parent;
	struct nvdimm_bus_descriptor *nd_desc;
	struct nfit_sec_call call = {
		.pkg = {
			.nd_family = NFIT_FAMILY_INTEL,
			.nd_command = func,
			.nd_size_in = in_len,
			.nd_size_out = out_len,
		},
	};
	int cmd_rc, rc;

	if (WARN_ON(in_len + out_len > sizeof(call.payload)))
		return -EINVAL;
	nd_desc = to_nd_desc(to_nvdimm_bus(bus_dev));
	if (!nd_desc->ndctl)
		return -ENOTTY;
	memcpy(call.payload, in, in_len);
	rc = nd_desc->ndctl(nd_desc, nvdimm, ND_CMD_CALL, &call, sizeof(call),
			    &cmd_rc);
	/* the passphrases stay nowhere but in the key */
	memzero_explicit(call.payload, in_len);
	if (rc < 0) {
		dev_dbg(nvdimm_dev(nvdimm), "security function %u: %d\n",
			func, rc);
		return rc;
	}
	memcpy(out, call.payload + in_len, out_len);
	return 0;
}

static bool nfit_sec_has(struct nvdimm *nvdimm, unsigned int func)
{
	struct nfit_mem *nfit_mem = nvdimm_provider_data(nvdimm);

	return test_bit(func, &nfit_mem->dsm_mask);
}

static unsigned long nfit_sec_get_flags(struct nvdimm *nvdimm,
					enum nvdimm_passphrase_type ptype)
{
	struct nfit_intel_sec_state st = {};
	unsigned long flags = 0;

	if (!nfit_sec_has(nvdimm, NFIT_INTEL_GET_SECURITY_STATE) ||
	    nfit_sec_run(nvdimm, NFIT_INTEL_GET_SECURITY_STATE, NULL, 0, &st,
			 sizeof(st)) || st.status) {
		dev_dbg(nvdimm_dev(nvdimm), "security state unavailable (status %#x)\n",
			st.status);
		return 0;
	}
	if (ptype == NVDIMM_MASTER) {
		if (st.extended_state & NFIT_INTEL_SEC_ESTATE_ENABLED)
			__set_bit(NVDIMM_SECURITY_UNLOCKED, &flags);
		else
			__set_bit(NVDIMM_SECURITY_DISABLED, &flags);
		if (st.extended_state & NFIT_INTEL_SEC_ESTATE_PLIMIT)
			__set_bit(NVDIMM_SECURITY_FROZEN, &flags);
		return flags;
	}
	if (st.state & NFIT_INTEL_SEC_STATE_UNSUPPORTED)
		return 0;
	if (!(st.state & NFIT_INTEL_SEC_STATE_ENABLED))
		__set_bit(NVDIMM_SECURITY_DISABLED, &flags);
	else if (st.state & NFIT_INTEL_SEC_STATE_LOCKED)
		__set_bit(NVDIMM_SECURITY_LOCKED, &flags);
	else
		__set_bit(NVDIMM_SECURITY_UNLOCKED, &flags);
	if (st.state & (NFIT_INTEL_SEC_STATE_FROZEN | NFIT_INTEL_SEC_STATE_PLIMIT))
		__set_bit(NVDIMM_SECURITY_FROZEN, &flags);
	return flags;
}

/* a status word alone; @wrong_state is what a wrong state costs */
static int nfit_sec_status(struct nvdimm *nvdimm, unsigned int func,
			   u32 status, int wrong_state)
{
	if (!status)
		return 0;
	dev_dbg(nvdimm_dev(nvdimm), "security function %u: status %#x\n", func,
		status);
	switch (status) {
	case NFIT_INTEL_STATUS_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	case NFIT_INTEL_STATUS_INVALID_PASS:
		return -EINVAL;
	default:
		return wrong_state;
	}
}

/* a function taking @n passphrases, answering a status word */
static int nfit_sec_pass(struct nvdimm *nvdimm, unsigned int func,
			 const struct nvdimm_key_data *a,
			 const struct nvdimm_key_data *b, int wrong_state)
{
	u8 in[2 * NFIT_INTEL_PASSPHRASE_LEN];
	u32 in_len = 0, status = 0;
	int rc;

	if (!nfit_sec_has(nvdimm, func))
		return -EOPNOTSUPP;
	if (a) {
		memcpy(in, a->data, NFIT_INTEL_PASSPHRASE_LEN);
		in_len += NFIT_INTEL_PASSPHRASE_LEN;
	}
	if (b) {
		memcpy(in + in_len, b->data, NFIT_INTEL_PASSPHRASE_LEN);
		in_len += NFIT_INTEL_PASSPHRASE_LEN;
	}
	rc = nfit_sec_run(nvdimm, func, in, in_len, &status, sizeof(status));
	memzero_explicit(in, sizeof(in));
	if (rc)
		return rc;
	return nfit_sec_status(nvdimm, func, status, wrong_state);
}

/* the media changed under the CPU's caches (as 6.1: x86 only) */
static void nfit_sec_invalidate(void)
{
	wbinvd_on_all_cpus();
}

static int nfit_sec_freeze(struct nvdimm *nvdimm)
{
	return nfit_sec_pass(nvdimm, NFIT_INTEL_FREEZE_LOCK, NULL, NULL, -EIO);
}

static int nfit_sec_change_key(struct nvdimm *nvdimm,
			       const struct nvdimm_key_data *old,
			       const struct nvdimm_key_data *new,
			       enum nvdimm_passphrase_type ptype)
{
	return nfit_sec_pass(nvdimm, ptype == NVDIMM_MASTER ?
			     NFIT_INTEL_SET_MASTER_PASSPHRASE :
			     NFIT_INTEL_SET_PASSPHRASE, old, new, -EIO);
}

static int nfit_sec_unlock(struct nvdimm *nvdimm,
			   const struct nvdimm_key_data *key)
{
	int rc = nfit_sec_pass(nvdimm, NFIT_INTEL_UNLOCK_UNIT, key, NULL, -EIO);

	if (!rc)
		nfit_sec_invalidate();
	return rc;
}

static int nfit_sec_disable(struct nvdimm *nvdimm,
			    const struct nvdimm_key_data *key)
{
	return nfit_sec_pass(nvdimm, NFIT_INTEL_DISABLE_PASSPHRASE, key, NULL,
			     -ENXIO);
}

static int nfit_sec_erase(struct nvdimm *nvdimm,
			  const struct nvdimm_key_data *key,
			  enum nvdimm_passphrase_type ptype)
{
	int rc;

	/* no dirty line of the old media may land after the erase */
	nfit_sec_invalidate();
	rc = nfit_sec_pass(nvdimm, ptype == NVDIMM_MASTER ?
			   NFIT_INTEL_MASTER_SECURE_ERASE :
			   NFIT_INTEL_SECURE_ERASE, key, NULL, -ENXIO);
	nfit_sec_invalidate();
	return rc;
}

static int nfit_sec_overwrite(struct nvdimm *nvdimm,
			      const struct nvdimm_key_data *key)
{
	u32 status = 0;
	int rc;

	if (!nfit_sec_has(nvdimm, NFIT_INTEL_OVERWRITE))
		return -EOPNOTSUPP;
	nfit_sec_invalidate();
	rc = nfit_sec_run(nvdimm, NFIT_INTEL_OVERWRITE, key->data,
			  NFIT_INTEL_PASSPHRASE_LEN, &status, sizeof(status));
	if (rc)
		return rc;
	if (status == NFIT_INTEL_STATUS_OVERWRITE_UNSUPPORTED)
		return -EOPNOTSUPP;
	return nfit_sec_status(nvdimm, NFIT_INTEL_OVERWRITE, status, -ENXIO);
}

static int nfit_sec_query_overwrite(struct nvdimm *nvdimm)
{
	u32 status = 0;
	int rc;

	if (!nfit_sec_has(nvdimm, NFIT_INTEL_QUERY_OVERWRITE))
		return -EOPNOTSUPP;
	rc = nfit_sec_run(nvdimm, NFIT_INTEL_QUERY_OVERWRITE, NULL, 0, &status,
			  sizeof(status));
	if (rc)
		return rc;
	if (status == NFIT_INTEL_STATUS_OQUERY_INPROGRESS)
		return -EBUSY;
	if (status) {
		dev_dbg(nvdimm_dev(nvdimm), "query overwrite: status %#x\n",
			status);
		return -ENXIO;
	}
	nfit_sec_invalidate();
	return 0;
}

static const struct nvdimm_security_ops nfit_intel_security_ops = {
	.get_flags = nfit_sec_get_flags,
	.freeze = nfit_sec_freeze,
	.change_key = nfit_sec_change_key,
	.unlock = nfit_sec_unlock,
	.disable = nfit_sec_disable,
	.erase = nfit_sec_erase,
	.overwrite = nfit_sec_overwrite,
	.query_overwrite = nfit_sec_query_overwrite,
};

/**
 * nfit_intel_security_ops_of - the security ops of a DIMM, or NULL
 * @nfit_mem: an Intel-family DIMM whose _DSM functions are known
 *
 * A DIMM that reports Get Security State gets the ops; what else it
 * lacks answers -EOPNOTSUPP.  QEMU's DIMMs (label functions only) get
 * none, and so no "security" attribute, as on 6.1.
 */
const struct nvdimm_security_ops *nfit_intel_security_ops_of(struct nfit_mem *nfit_mem)
{
	if (nfit_mem->family != NFIT_FAMILY_INTEL ||
	    !test_bit(NFIT_INTEL_GET_SECURITY_STATE, &nfit_mem->dsm_mask))
		return NULL;
	return &nfit_intel_security_ops;
}
