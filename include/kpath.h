/* Every path the kernel owns, in one place: tests stand fake files in their
 * place with bind mounts in a private mount namespace. libproc2 reads
 * /proc/meminfo and /proc/vmstat itself, at these same fixed paths. */
#ifndef AUTOSWAPPINESS_KPATH_H
#define AUTOSWAPPINESS_KPATH_H

#define KPATH_MEMINFO "/proc/meminfo"
#define KPATH_VMSTAT "/proc/vmstat"
#define KPATH_PSI_MEMORY "/proc/pressure/memory"
#define KPATH_SWAPPINESS "/proc/sys/vm/swappiness"
#define KPATH_SWAPS "/proc/swaps"
#define KPATH_ZSWAP_ENABLED "/sys/module/zswap/parameters/enabled"

#endif
