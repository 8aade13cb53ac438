#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "journal.h"
#include "parse.h"

bool
cgroup_v1_present(const char *root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/memory.swappiness", root);
	return access(path, F_OK) == 0;
}

struct walk {
	int from, to;
	char path[PATH_MAX]; /* of the directory being walked, for messages */
	struct cgroup_move *m;
};

static void
fail(struct walk *w, const char *name, int err)
{
	struct cgroup_move *m = w->m;

	/* Removed during the walk (a container that ended): its files go with it
	 * (ENOENT, or ENODEV from a removed cgroup's open file). Nothing to follow. */
	if (err == -ENOENT || err == -ENODEV)
		return;
	if (m->first_err == 0) {
		m->first_err = err;
		/* For the message alone: a path cut at PATH_MAX ends in "..." to say so. */
		if (snprintf(m->first_path, sizeof(m->first_path), "%s/%s", w->path, name) >=
		    (int)sizeof(m->first_path))
			memcpy(m->first_path + sizeof(m->first_path) - 4, "...", 4);
	}
	m->failed++;
}

/* Reads memory.swappiness in the cgroup dirfd and, when it holds w->from,
 * writes w->to there. */
static void
move_one(struct walk *w, int dirfd)
{
	static const char name[] = "memory.swappiness";
	char buf[16];
	struct stat st;
	ssize_t n;
	long v;
	int fd, len, r = 0;

	/* O_NONBLOCK: a FIFO put there must not stop the daemon (on cgroupfs this
	 * is a regular file, and the flag changes nothing). */
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fail(w, name, -errno);
		return;
	}
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else if ((n = pread(fd, buf, sizeof(buf) - 1, 0)) < 0)
		r = -errno;
	else {
		buf[n] = '\0';
		if (parse_long(buf, 0, CONFIG_SWAPPINESS_MAX, &v) < 0)
			r = -EINVAL;
	}
	close(fd);
	if (r < 0) {
		fail(w, name, r);
		return;
	}
	if (v != w->from) {
		w->m->kept++;
		return;
	}
	/* O_TRUNC matters only for the regular files that tests stand in place of
	 * the cgroup's; cgroupfs takes each write whole. */
	fd = openat(dirfd, name, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		fail(w, name, -errno);
		return;
	}
	len = snprintf(buf, sizeof(buf), "%d\n", w->to);
	n = write(fd, buf, (size_t)len);
	r = n < 0 ? -errno : n != len ? -EIO : 0;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r < 0)
		fail(w, name, r);
	else
		w->m->moved++;
}

/* Moves every cgroup below the directory fd (which this takes over) at w->path. */
static void
walk_dir(struct walk *w, int fd, unsigned depth)
{
	struct dirent *e;
	size_t len = strlen(w->path);
	DIR *dir;

	dir = fdopendir(fd);
	if (!dir) {
		fail(w, ".", -errno);
		close(fd);
		return;
	}
	for (;;) {
		int child;

		errno = 0;
		e = readdir(dir);
		if (!e) {
			if (errno)
				fail(w, ".", -errno);
			break;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		/* Directories only: the type comes with the entry, so the control
		 * files of each cgroup are never looked at. */
		if (e->d_type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(dir), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				fail(w, e->d_name, -errno);
				continue;
			}
			if (!S_ISDIR(st.st_mode))
				continue;
		} else if (e->d_type != DT_DIR) {
			continue;
		}
		child = openat(dirfd(dir), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (child < 0) {
			fail(w, e->d_name, -errno);
			continue;
		}
		if (snprintf(w->path + len, sizeof(w->path) - len, "/%s", e->d_name) >= (int)(sizeof(w->path) - len)) {
			w->path[len] = '\0';
			fail(w, e->d_name, -ENAMETOOLONG);
			close(child);
			continue;
		}
		move_one(w, child);
		if (depth + 1 < CGROUP_WALK_MAX_DEPTH) {
			walk_dir(w, child, depth + 1);
		} else {
			if (w->m->first_err == 0)
				w->m->first_too_deep = true;
			fail(w, ".", -ELOOP);
			close(child);
		}
		w->path[len] = '\0';
	}
	closedir(dir);
}

int
cgroup_v1_move(const char *root, int from, int to, struct cgroup_move *ret)
{
	static struct walk w; /* PATH_MAX: off the stack; one walk at a time */
	int fd;

	*ret = (struct cgroup_move){ 0 };
	/* The root is the mount point, a fixed path: it may be reached through a
	 * link (co-mounted controllers); nothing below it is. */
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w.from = from;
	w.to = to;
	w.m = ret;
	snprintf(w.path, sizeof(w.path), "%s", root);
	walk_dir(&w, fd, 0);
	return 0;
}

void
cgroup_v1_follow(const char *root, int *value, int to, struct cgroup_move *m, int *err)
{
	int r, from = *value;

	r = cgroup_v1_move(root, from, to, m);
	if (r < 0) {
		/* Nothing moved: they still hold the old value. */
		journal_log_once(err, r, LOG_WARNING, MSGID_ERROR, "failed to walk '%s': %s", root, strerror(-r));
		return;
	}
	*value = to;
	if (m->failed > 0 && m->first_too_deep)
		journal_log_once(err, m->first_err, LOG_WARNING, MSGID_ERROR,
				 "failed to set memory.swappiness in %u of the cgroups under '%s', first '%s': more than %d "
				 "levels below '%s', the deepest the walk goes; the cgroups below it are not walked",
				 m->failed, root, m->first_path, CGROUP_WALK_MAX_DEPTH, root);
	else if (m->failed > 0)
		journal_log_once(err, m->first_err, LOG_WARNING, MSGID_ERROR,
				 "failed to set memory.swappiness in %u of the cgroups under '%s', first '%s': %s",
				 m->failed, root, m->first_path, strerror(-m->first_err));
	else
		*err = 0;
	journal_log(LOG_DEBUG, NULL, "memory.swappiness %d -> %d in %u cgroups; %u set otherwise, left alone", from,
		    to, m->moved, m->kept);
}
