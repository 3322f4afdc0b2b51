/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The health functions of the Intel DSM family (NVDIMM_FAMILY_INTEL), as
 * the Intel DSM specification and 6.1 number and lay them out.  They
 * reach the firmware through ND_CMD_CALL; each payload is the function's
 * input fields followed by its output fields, which start with the
 * firmware status word.
 */
#ifndef __NFIT_INTEL_SMART_H__
#define __NFIT_INTEL_SMART_H__

#include <linux/types.h>

/* Intel family function numbers (nd_cmd_pkg.nd_command) */
#define ND_INTEL_SMART			1
#define ND_INTEL_SMART_THRESHOLD	2
#define ND_INTEL_ENABLE_LSS_STATUS	10
#define ND_INTEL_SMART_SET_THRESHOLD	17
#define ND_INTEL_SMART_INJECT		18

/* the health functions, as dsm_mask bits */
#define ND_INTEL_SMART_FUNCS	(BIT(ND_INTEL_SMART) |			\
				 BIT(ND_INTEL_SMART_THRESHOLD) |	\
				 BIT(ND_INTEL_ENABLE_LSS_STATUS) |	\
				 BIT(ND_INTEL_SMART_SET_THRESHOLD) |	\
				 BIT(ND_INTEL_SMART_INJECT))

/* nd_intel_smart.flags: which fields are valid */
#define ND_INTEL_SMART_HEALTH_VALID		BIT(0)
#define ND_INTEL_SMART_SPARES_VALID		BIT(1)
#define ND_INTEL_SMART_USED_VALID		BIT(2)
#define ND_INTEL_SMART_MTEMP_VALID		BIT(3)
#define ND_INTEL_SMART_CTEMP_VALID		BIT(4)
#define ND_INTEL_SMART_SHUTDOWN_COUNT_VALID	BIT(5)
#define ND_INTEL_SMART_AIT_STATUS_VALID		BIT(6)
#define ND_INTEL_SMART_PTEMP_VALID		BIT(7)
#define ND_INTEL_SMART_ALARM_VALID		BIT(9)
#define ND_INTEL_SMART_SHUTDOWN_VALID		BIT(10)
#define ND_INTEL_SMART_VENDOR_VALID		BIT(11)

/* alarm_flags / alarm_control */
#define ND_INTEL_SMART_SPARE_TRIP		BIT(0)
#define ND_INTEL_SMART_TEMP_TRIP		BIT(1)
#define ND_INTEL_SMART_CTEMP_TRIP		BIT(2)

/* health */
#define ND_INTEL_SMART_NON_CRITICAL_HEALTH	BIT(0)
#define ND_INTEL_SMART_CRITICAL_HEALTH		BIT(1)
#define ND_INTEL_SMART_FATAL_HEALTH		BIT(2)

/* nd_intel_smart_inject.flags */
#define ND_INTEL_SMART_INJECT_MTEMP		BIT(0)
#define ND_INTEL_SMART_INJECT_SPARE		BIT(1)
#define ND_INTEL_SMART_INJECT_FATAL		BIT(2)
#define ND_INTEL_SMART_INJECT_SHUTDOWN		BIT(3)

/* ACPI notification on a DIMM's device: its health changed */
#define NFIT_NOTIFY_DIMM_HEALTH			0x81

/* SMART: no input; status + 128 bytes (temperatures in 1/16 C) */
struct nd_intel_smart {
	u32 status;
	u32 flags;
	u8 reserved0[4];
	u8 health;
	u8 spares;
	u8 life_used;
	u8 alarm_flags;
	u16 media_temperature;
	u16 ctrl_temperature;
	u32 shutdown_count;
	u8 ait_status;
	u16 pmic_temperature;
	u8 reserved1[8];
	u8 shutdown_state;
	u32 vendor_size;
	u8 vendor_data[92];
} __packed;

/* SMART threshold: no input; status + 8 bytes */
struct nd_intel_smart_threshold {
	u32 status;
	u16 alarm_control;
	u8 spares;
	u16 media_temperature;
	u16 ctrl_temperature;
	u8 reserved[1];
} __packed;

/* SMART set threshold: 7 bytes in, status out */
struct nd_intel_smart_set_threshold {
	u16 alarm_control;
	u8 spares;
	u16 media_temperature;
	u16 ctrl_temperature;
	u32 status;
} __packed;

/* SMART inject: 15 bytes in, status out */
struct nd_intel_smart_inject {
	u64 flags;
	u8 mtemp_enable;
	u16 media_temperature;
	u8 spare_enable;
	u8 spares;
	u8 fatal_enable;
	u8 unsafe_shutdown_enable;
	u32 status;
} __packed;

/* enable latch system shutdown status: 1 byte in, status out */
struct nd_intel_lss {
	u8 enable;
	u32 status;
} __packed;

#endif /* __NFIT_INTEL_SMART_H__ */
