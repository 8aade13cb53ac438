#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"
#include "daemon.h"
#include "journal.h"

#ifndef VERSION
#define VERSION "0.1.0"
#endif
#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif
#ifndef RUNSTATEDIR
#define RUNSTATEDIR "/run"
#endif

/* sysexits.h */
#define EXIT_USAGE 64
#define EXIT_CONFIG 78

static const char usage_line[] =
	"usage: autoswappiness [-c FILE] [--once] [--dry-run] [-n|--check-config] [--foreground] [-v] [--version] [-h]\n";

static void
help(void)
{
	printf("%s", usage_line);
	printf("\n"
	       "Keeps vm.swappiness right for the machine's current load.\n"
	       "\n"
	       "  -c, --config FILE   read FILE instead of " SYSCONFDIR "/autoswappiness.conf\n"
	       "      --once          take one sample, print key=value pairs, write the value, exit\n"
	       "      --dry-run       decide and log, but never write vm.swappiness\n"
	       "  -n, --check-config  check the configuration and exit (0 valid, 78 invalid)\n"
	       "      --foreground    log plain lines to stderr even under systemd\n"
	       "  -v, --verbose       log every poll, and the fields of each record on stderr\n"
	       "      --version       print the version and exit\n"
	       "  -h, --help          print this help and exit\n"
	       "\n"
	       "Exit status: 0 success, 1 failure, 64 usage error, 78 configuration error.\n"
	       "See autoswappiness(8) and autoswappiness.conf(5).\n");
}

static void
config_error_to_stderr(void *userdata, const char *message)
{
	(void)userdata;
	fprintf(stderr, "%s\n", message);
}

static void
config_error_to_journal(void *userdata, const char *message)
{
	(void)userdata;
	journal_log(LOG_ERR, MSGID_CONFIG, "%s", message);
}

int
main(int argc, char **argv)
{
	enum { OPT_ONCE = 256, OPT_DRY_RUN, OPT_FOREGROUND, OPT_VERSION };
	static const struct option longopts[] = {
		{ "config", required_argument, NULL, 'c' },
		{ "once", no_argument, NULL, OPT_ONCE },
		{ "dry-run", no_argument, NULL, OPT_DRY_RUN },
		{ "check-config", no_argument, NULL, 'n' },
		{ "foreground", no_argument, NULL, OPT_FOREGROUND },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct daemon_options opt = {
		.config_path = SYSCONFDIR "/autoswappiness.conf",
		.config_optional = true,
		.state_dir = RUNSTATEDIR "/autoswappiness",
	};
	bool once = false, check = false, foreground = false;
	struct config cfg;
	int c, r;

	while ((c = getopt_long(argc, argv, "c:nvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			opt.config_path = optarg;
			opt.config_optional = false;
			break;
		case OPT_ONCE:
			once = true;
			break;
		case OPT_DRY_RUN:
			opt.dry_run = true;
			break;
		case 'n':
			check = true;
			break;
		case OPT_FOREGROUND:
			foreground = true;
			break;
		case 'v':
			opt.verbose = true;
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
	if (optind < argc) {
		fprintf(stderr, "autoswappiness: unexpected argument '%s'\n%s", argv[optind], usage_line);
		return EXIT_USAGE;
	}
	if (check && once) {
		fprintf(stderr, "autoswappiness: --check-config and --once exclude each other\n%s", usage_line);
		return EXIT_USAGE;
	}

	journal_init(foreground || check ? JOURNAL_STDERR : JOURNAL_AUTO, opt.verbose);
	r = config_file_load(opt.config_path, opt.config_optional, &cfg,
			     check ? config_error_to_stderr : config_error_to_journal, NULL);
	if (r < 0) {
		if (check)
			fprintf(stderr, "%s: configuration invalid\n", opt.config_path);
		else
			journal_log(LOG_ERR, MSGID_CONFIG, "refusing to start with an invalid configuration '%s'",
				    opt.config_path);
		return EXIT_CONFIG;
	}
	if (check) {
		printf(r == 1 ? "configuration OK (%s absent: defaults)\n" : "configuration OK\n", opt.config_path);
		return 0;
	}
	if (r == 1)
		journal_log(LOG_INFO, NULL, "'%s' does not exist; using the defaults", opt.config_path);

	r = once ? daemon_once(&opt, &cfg, stdout) : daemon_run(&opt, &cfg);
	return r < 0 ? EXIT_FAILURE : 0;
}
