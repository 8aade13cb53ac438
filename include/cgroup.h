/* cgroup v1 memory controller: each memory cgroup keeps the swappiness it was
 * created with, so vm.swappiness changes only the root's (a known complaint
 * about systemd on v1). Optionally make the existing ones follow. */
#ifndef AUTOSWAPPINESS_CGROUP_H
#define AUTOSWAPPINESS_CGROUP_H

#include <limits.h>
#include <stdbool.h>

#define CGROUP_V1_MEMORY "/sys/fs/cgroup/memory"

/* Returns true when a cgroup v1 memory hierarchy is mounted at root. */
bool cgroup_v1_present(const char *root);

/* What one walk did. */
struct cgroup_move {
	unsigned moved;	 /* held from, now hold to */
	unsigned kept;	 /* held another value: set on purpose, left alone */
	unsigned failed; /* could not be read, written or walked into */
	int first_err;	 /* negative errno of the first failure, 0 when none */
	bool first_too_deep;	   /* that failure is CGROUP_WALK_MAX_DEPTH, not first_err's */
	char first_path[PATH_MAX]; /* the file or directory it concerns */
};

/* The deepest the walk goes below root. Each level holds one directory fd;
 * real hierarchies are a few levels deep (systemd's slices and scopes: 3 to 5,
 * a container runtime's: a few more). A directory deeper down is a failure. */
#define CGROUP_WALK_MAX_DEPTH 64

/*
 * Writes to into memory.swappiness of every cgroup below root (not root itself,
 * which is vm.swappiness) that holds from, and leaves the others alone: a cgroup
 * that holds another value was set so on purpose (a container with
 * memory-swappiness=0, a service pinned to 1). The walk opens directories only
 * (O_DIRECTORY|O_NOFOLLOW: a symbolic link is never followed out of the
 * hierarchy), reads one file per cgroup with O_NOFOLLOW|O_NONBLOCK and accepts
 * only regular files. Cost: one read per cgroup, and one write per cgroup that
 * follows. Returns 0 and fills *ret (failures are counted there, the rest are
 * still tried), or a negative errno when root itself cannot be walked.
 */
int cgroup_v1_move(const char *root, int from, int to, struct cgroup_move *ret);

/*
 * Makes the cgroups below root that follow the knob (they hold *value: what
 * they were last set to, or what the knob held when the daemon took charge)
 * hold to, with cgroup_v1_move, and then sets *value to to; when root cannot
 * be walked nothing moved and *value stays. Failures are logged once until
 * they change (*err holds the last, 0 after a clean walk); *m the last walk.
 */
void cgroup_v1_follow(const char *root, int *value, int to, struct cgroup_move *m, int *err);

#endif
