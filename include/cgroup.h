/* cgroup v1 memory controller: each memory cgroup keeps the swappiness it was
 * created with, so vm.swappiness changes only the root's (a known complaint
 * about systemd on v1). Optionally make the existing ones follow. */
#ifndef AUTOSWAPPINESS_CGROUP_H
#define AUTOSWAPPINESS_CGROUP_H

#include <stdbool.h>

#define CGROUP_V1_MEMORY "/sys/fs/cgroup/memory"

/* Returns true when a cgroup v1 memory hierarchy is mounted at root. */
bool cgroup_v1_present(const char *root);

/*
 * Writes value to memory.swappiness of every cgroup below root (not root
 * itself, which is vm.swappiness). Cost: one write per cgroup, on writes
 * only. Returns the number of cgroups set, or a negative errno from the first
 * failure (the rest are still tried); *ret_failed counts the failures.
 */
int cgroup_v1_follow(const char *root, int value, unsigned *ret_failed);

#endif
