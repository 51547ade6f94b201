package confine

const auditArch = 0xC0000102 // AUDIT_ARCH_LOONGARCH64
