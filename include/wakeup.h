/* What wakes the daemon: the poll timer (short while memory is under pressure,
 * long while it is calm) and the PSI trigger, which cuts a calm wait short as
 * soon as tasks stall on memory. */
#ifndef AUTOSWAPPINESS_WAKEUP_H
#define AUTOSWAPPINESS_WAKEUP_H

#include <stdbool.h>
#include <systemd/sd-event.h>

#include "config.h"

struct wakeup {
	sd_event *event;
	sd_event_source *timer;
	sd_event_source *psi_source;
	int psi_fd;		 /* the PSI trigger, or -1 */
	unsigned psi_trigger_ms; /* what the trigger was armed with */
	bool busy;		 /* the last poll saw pressure: poll at the busy pace */
	const struct config *cfg; /* the intervals and the trigger's threshold */
	void (*poll)(void *userdata);
	void *userdata;
};

/* Blocks SIGHUP, SIGTERM and SIGINT, which the loop takes as events
 * (sd_event_add_signal needs them blocked); main blocks them first, so that a
 * reload or stop sent during startup does not kill with the default action.
 * Returns 0 or a negative errno. */
int wakeup_block_signals(void);

/* Sets up w with nothing armed; poll(userdata) runs at each wake-up. */
void wakeup_init(struct wakeup *w, const struct config *cfg, void (*poll)(void *userdata), void *userdata);

/* Adds the timer to event, due now. Returns 0 or a negative errno. */
int wakeup_start(struct wakeup *w, sd_event *event);

/* Polls now, from the timer's callback (so that it is re-armed as usual). */
void wakeup_soon(struct wakeup *w);

/* Arms (or re-arms, after a reload) the PSI trigger per w->cfg; without one
 * the timer alone drives polls. Failures are logged. */
void wakeup_arm_psi(struct wakeup *w);

/* The wait after the current poll until the next one at the latest (the PSI
 * trigger may cut it short): the busy interval after a poll that saw pressure
 * or while no trigger works, else the calm one. */
unsigned wakeup_interval_ms(const struct wakeup *w);

/* Removes the timer and the trigger. */
void wakeup_stop(struct wakeup *w);

#endif
