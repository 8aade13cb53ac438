#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <signal.h>
#include <time.h>

#include "config_file.h"
#include "daemon.h"
#include "fileio.h"
#include "journal.h"
#include "status.h"
#include "wakeup.h"
#include "version.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#ifndef RUNSTATEDIR
#define RUNSTATEDIR "/run"
#endif

/* sysexits.h */
#define EXIT_USAGE 64
#define EXIT_CONFIG 78
/* The state directory (or its lock) is not one only root controls. */
#define EXIT_CANTCREAT 73
/* LSB's "program is not running", as systemctl status uses it. */
#define EXIT_NOT_RUNNING 3

static const char usage_line[] =
	"usage: autoswappiness [-c FILE] [--once] [--explain] [--dry-run] [-n|--check-config] [--foreground] [-v] [--version] [-h]\n"
	"       autoswappiness status [--json]\n";

static void
help(void)
{
	printf("%s", usage_line);
	printf("\n"
	       "Keeps vm.swappiness right for the machine's current load.\n"
	       "\n"
	       "  -c, --config FILE   read FILE instead of " SYSCONFDIR "/autoswappiness.conf\n"
	       "      --once          take one sample, print key=value pairs, write the value, exit\n"
	       "      --explain       say in sentences what it would set now and why; writes nothing,\n"
	       "                      needs no root (the built-in defaults if FILE is absent,\n"
	       "                      unreadable or refused)\n"
	       "      --dry-run       decide and log, but never write vm.swappiness\n"
	       "  -n, --check-config  check the configuration and exit (0 valid, 78 invalid)\n"
	       "      --foreground    log plain lines to stderr even under systemd\n"
	       "  -v, --verbose       log every poll, and the fields of each record on stderr\n"
	       "      --version       print the version and exit\n"
	       "  -h, --help          print this help and exit\n"
	       "\n"
	       "  status              show what the running daemon does and why (--status)\n"
	       "      --json          the same as one JSON object\n"
	       "\n"
	       "Exit status: 0 success, 1 failure, 3 (status) not running, 64 usage error,\n"
	       "73 state directory refused, 78 configuration error.\n"
	       "See autoswappiness(8) and autoswappiness.conf(5).\n");
}


/* `autoswappiness status`: reads the state the daemon keeps under /run, so it
 * needs no socket and answers while the machine thrashes. */
static int
run_status(const char *state_dir, bool json)
{
	char path[PATH_MAX], buf[8192], out[8192];
	struct status_snapshot st;
	ssize_t n;
	int len;

	snprintf(path, sizeof(path), "%s/state", state_dir);
	n = fileio_read(path, buf, sizeof(buf));
	if (n == -ENOENT) {
		if (json)
			printf("{\"running\":false}\n");
		else
			printf("autoswappiness is not running (no %s)\n", path);
		return EXIT_NOT_RUNNING;
	}
	if (n < 0) {
		fprintf(stderr, "autoswappiness: failed to read '%s': %s\n", path, fileio_strerror((int)n));
		return EXIT_FAILURE;
	}
	if (status_parse_state(buf, (size_t)n, &st) < 0) {
		fprintf(stderr, "autoswappiness: '%s' is not a state file this version understands\n", path);
		return EXIT_FAILURE;
	}
	if (kill((pid_t)st.pid, 0) < 0 && errno == ESRCH) {
		if (json)
			printf("{\"running\":false,\"stale_pid\":%lld}\n", (long long)st.pid);
		else
			printf("autoswappiness is not running (%s is left from pid %lld)\n", path, (long long)st.pid);
		return EXIT_NOT_RUNNING;
	}
	if (json)
		len = status_render_json(&st, out, sizeof(out));
	else
		len = status_render_human(&st, (int64_t)time(NULL), out, sizeof(out));
	if (len < 0) {
		fprintf(stderr, "autoswappiness: status does not fit its buffer\n");
		return EXIT_FAILURE;
	}
	fwrite(out, 1, (size_t)len, stdout);
	return fflush(stdout) == 0 ? 0 : EXIT_FAILURE;
}

enum { OPT_ONCE = 256, OPT_EXPLAIN, OPT_DRY_RUN, OPT_FOREGROUND, OPT_VERSION, OPT_STATUS, OPT_JSON };

/* parse_argv's "go on and run" (any other value is the exit status). */
#define ARGS_RUN (-1)

struct args {
	struct daemon_options opt;
	bool once, explain, check, foreground, status, json;
};

/* The combinations that make no sense. Returns ARGS_RUN or EXIT_USAGE. */
static int
check_usage(int argc, char **argv, const struct args *a, bool daemon_opts)
{
	if (a->json && !a->status) {
		fprintf(stderr, "autoswappiness: --json goes with status\n%s", usage_line);
		return EXIT_USAGE;
	}
	if (a->status && (daemon_opts || optind < argc)) {
		fprintf(stderr, "autoswappiness: status takes only --json\n%s", usage_line);
		return EXIT_USAGE;
	}
	if (a->status)
		return ARGS_RUN;
	if (optind < argc) {
		fprintf(stderr, "autoswappiness: unexpected argument '%s'\n%s", argv[optind], usage_line);
		return EXIT_USAGE;
	}
	if (a->check && a->once) {
		fprintf(stderr, "autoswappiness: --check-config and --once exclude each other\n%s", usage_line);
		return EXIT_USAGE;
	}
	if (a->explain && (a->check || a->once)) {
		fprintf(stderr, "autoswappiness: --explain goes without --once and --check-config\n%s", usage_line);
		return EXIT_USAGE;
	}
	return ARGS_RUN;
}

/* Fills *a from the command line. Returns ARGS_RUN, or the exit status when
 * there is nothing more to do (--help, --version, a usage error). */
static int
parse_argv(int argc, char **argv, struct args *a)
{
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "check-config", no_argument, NULL, 'n' },
		{ "foreground", no_argument, NULL, OPT_FOREGROUND },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ "status", no_argument, NULL, OPT_STATUS },
		{ "json", no_argument, NULL, OPT_JSON },
		{ NULL, 0, NULL, 0 },
	};
	bool daemon_opts = false;
	int c;

	while ((c = getopt_long(argc, argv, "c:nvh", longopts, NULL)) != -1) {
		/* status takes no option but --json: note any other. */
		daemon_opts |= c != OPT_STATUS && c != OPT_JSON;
		switch (c) {
		case 'c':
			a->opt.config_path = optarg;
			a->opt.config_optional = false;
			break;
		case OPT_ONCE:
			a->once = true;
			break;
		case OPT_EXPLAIN:
			a->explain = true;
			break;
		case OPT_DRY_RUN:
			a->opt.dry_run = true;
			break;
		case 'n':
			a->check = true;
			break;
		case OPT_FOREGROUND:
			a->foreground = true;
			break;
		case 'v':
			a->opt.verbose = true;
			break;
		case OPT_STATUS:
			a->status = true;
			break;
		case OPT_JSON:
			a->json = true;
			break;
		case OPT_VERSION:
			printf("autoswappiness %s\n", VERSION);
			return 0;
		case 'h':
			help();
			return 0;
		default:
			fprintf(stderr, "%s", usage_line);
			return EXIT_USAGE;
		}
	}
	if (optind < argc && strcmp(argv[optind], "status") == 0) {
		a->status = true;
		optind++;
	}
	return check_usage(argc, argv, a, daemon_opts);
}

/* Loads the configuration: with --check-config, reports it; otherwise an
 * invalid one is one log record with every error. Returns ARGS_RUN (*cfg
 * loaded) or the exit status. */
static int
load_config(const struct args *a, struct config *cfg)
{
	static struct config_errors errors;
	int r;

	r = config_file_load(a->opt.config_path, a->opt.config_optional, cfg,
			     a->check ? config_errors_print : config_errors_collect, a->check ? NULL : &errors);
	if (r < 0) {
		if (a->check) {
			fprintf(stderr, "%s: configuration invalid\n", a->opt.config_path);
		} else {
			char more[64];

			config_errors_finish(&errors, more, sizeof(more));
			journal_log(LOG_ERR, MSGID_CONFIG,
				    "refusing to start with an invalid configuration '%s' (%u errors):\n%s%s",
				    a->opt.config_path, errors.count, errors.text, more);
		}
		return EXIT_CONFIG;
	}
	if (a->check) {
		printf(r == 1 ? "configuration OK (%s absent: defaults)\n" : "configuration OK\n", a->opt.config_path);
		return 0;
	}
	if (r == 1)
		journal_log(LOG_INFO, NULL, "'%s' does not exist; using the defaults", a->opt.config_path);
	return ARGS_RUN;
}

static int
run(const struct args *a)
{
	struct config cfg;
	int r;

	if (a->status)
		return run_status(a->opt.state_dir, a->json);
	if (a->explain) {
		/* Its own config loading: the defaults stand in for a file this
		 * user cannot read, and it says so. */
		journal_init(JOURNAL_STDERR, a->opt.verbose);
		return daemon_explain(&a->opt, stdout) < 0 ? EXIT_FAILURE : 0;
	}
	if (!a->once && !a->check) {
		/* Until sd-event takes them over, a SIGHUP or SIGTERM must not kill
		 * the daemon with its default action (a reload sent right at start). */
		r = wakeup_block_signals();
		if (r < 0) {
			fprintf(stderr, "autoswappiness: sigprocmask: %s\n", strerror(-r));
			return EXIT_FAILURE;
		}
	}
	journal_init(a->foreground || a->check ? JOURNAL_STDERR : JOURNAL_AUTO, a->opt.verbose);
	if (!a->once && !a->check) {
		/* A log pipe or a terminal whose reader stalls must cost log lines,
		 * not polls, SIGTERM and the restore. */
		r = journal_stderr_never_block();
		if (r < 0)
			journal_log(LOG_WARNING, NULL,
				    "cannot reopen stderr ('/proc/self/fd/2') without blocking: %s; "
				    "a reader that stalls can stall the daemon",
				    strerror(-r));
	}
	r = load_config(a, &cfg);
	if (r != ARGS_RUN)
		return r;
	if (a->once)
		return daemon_once(&a->opt, &cfg, stdout) < 0 ? EXIT_FAILURE : 0;
	r = daemon_run(&a->opt, &cfg);
	return r == -EPERM ? EXIT_CANTCREAT : r < 0 ? EXIT_FAILURE : 0;
}

int
main(int argc, char **argv)
{
	struct args a = {
		.opt = {
			.config_path = SYSCONFDIR "/autoswappiness.conf",
			.config_optional = true,
			.state_dir = RUNSTATEDIR "/autoswappiness",
		},
	};
	int r;

	r = parse_argv(argc, argv, &a);
	return r == ARGS_RUN ? run(&a) : r;
}
