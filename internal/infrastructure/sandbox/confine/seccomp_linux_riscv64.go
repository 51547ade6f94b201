package confine

const auditArch = 0xC00000F3 // AUDIT_ARCH_RISCV64
