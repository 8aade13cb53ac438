/* Finds who else sets vm.swappiness (sysctl.d, tuned, the kernel command
 * line) by reading their files, and logs what it found. */
#ifndef AUTOSWAPPINESS_COEXIST_SCAN_H
#define AUTOSWAPPINESS_COEXIST_SCAN_H

#include <stdbool.h>

#include "coexist.h"
#include "config.h"

/*
 * Reads the sysctl.d files in systemd-sysctl's order (then /etc/sysctl.conf,
 * unless one of them is a link to it), tuned's active profile and
 * /proc/cmdline into *ret. A file that does not exist is skipped; one that
 * cannot be read (not a regular file, over 64 KiB, ...) is skipped and, with
 * log_errors, logged at warning priority.
 */
void coexist_scan(struct coexist_findings *ret, bool log_errors);

/* Logs each finding at warning priority (MSGID_OTHER, OTHER_* fields), with
 * what it means under on_external_change = mode. */
void coexist_report(const struct coexist_findings *f, enum config_external mode);

#endif
