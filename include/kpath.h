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
#define KPATH_CMDLINE "/proc/cmdline"
/* The multi-gen LRU's switch (lru.h), and the kernel's release as uname(2)
 * gives it (a file, so that tests can stand another release in its place). */
#define KPATH_LRU_GEN_ENABLED "/sys/kernel/mm/lru_gen/enabled"
#define KPATH_OSRELEASE "/proc/sys/kernel/osrelease"

/* Files of other tools that set vm.swappiness (coexist_scan.c reads them; the
 * integration tests put overlays and bind mounts in their place).
 * systemd-sysctl's directories in its order of precedence (sysctl.d(5)), the
 * file `sysctl --system` reads after them, and tuned's active profile with the
 * directories it looks for profiles in: tuned 2.23 and later keep them in
 * profiles/, earlier ones directly in /etc/tuned and /usr/lib/tuned; the
 * administrator's in /etc win. */
#define KPATH_SYSCTL_DIRS { "/etc/sysctl.d", "/run/sysctl.d", "/usr/local/lib/sysctl.d", "/usr/lib/sysctl.d", "/lib/sysctl.d" }
#define KPATH_SYSCTL_CONF "/etc/sysctl.conf"
#define KPATH_TUNED_ACTIVE "/etc/tuned/active_profile"
#define KPATH_TUNED_DIRS { "/etc/tuned/profiles", "/etc/tuned", "/usr/lib/tuned/profiles", "/usr/lib/tuned" }

#endif
