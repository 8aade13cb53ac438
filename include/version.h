/* The version the build stamps in (the Makefile defines VERSION); this is the
 * fallback for a compile outside it. */
#ifndef AUTOSWAPPINESS_VERSION_H
#define AUTOSWAPPINESS_VERSION_H

#ifndef VERSION
#define VERSION "0.1.0"
#endif

#endif
