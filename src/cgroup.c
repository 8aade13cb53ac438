/* nftw() and struct FTW are XSI: */
#define _XOPEN_SOURCE 700

#include "cgroup.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool
cgroup_v1_present(const char *root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/memory.swappiness", root);
	return access(path, F_OK) == 0;
}

/* nftw has no user data: the walk is not reentrant, and only the daemon's
 * single thread uses it. */
static struct {
	char value[8];
	int first_err;
	unsigned set, failed;
} walk;

static int
visit(const char *dir, const struct stat *st, int type, struct FTW *ftw)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	(void)st;
	if (type != FTW_D || ftw->level == 0)
		return 0;
	if (snprintf(path, sizeof(path), "%s/memory.swappiness", dir) >= (int)sizeof(path))
		return 0;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : write(fd, walk.value, strlen(walk.value));
	if (n < 0) {
		if (walk.first_err == 0)
			walk.first_err = -errno;
		walk.failed++;
	} else {
		walk.set++;
	}
	if (fd >= 0)
		close(fd);
	return 0;
}

int
cgroup_v1_follow(const char *root, int value, unsigned *ret_failed)
{
	snprintf(walk.value, sizeof(walk.value), "%d\n", value);
	walk.first_err = 0;
	walk.set = walk.failed = 0;
	/* FTW_PHYS: never follow a link out of the hierarchy; 16 fds at most. */
	if (nftw(root, visit, 16, FTW_PHYS) < 0)
		return -errno;
	*ret_failed = walk.failed;
	return walk.first_err < 0 ? walk.first_err : (int)walk.set;
}
